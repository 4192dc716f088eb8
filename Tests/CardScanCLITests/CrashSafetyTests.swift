import Foundation
import GRDB
import TestSupport
import Testing

/// Shared by the crash-safety and concurrency tests: a seeded generator for kill delays, two small
/// Scryfall-format files cut from the shared 2019 bulk file, and checks on the databases.
enum CrashSafety {
    /// Seed of the kill delays: fixed, like the other seeded tests' (the kill moments still vary a
    /// little with the machine's load); `$CARDSCAN_CRASH_SEED` picks other delays. Printed.
    static let seed: UInt64 = {
        let seed = ProcessInfo.processInfo.environment["CARDSCAN_CRASH_SEED"].flatMap { UInt64($0) } ?? 8
        print("CrashSafety: seed \(seed) (replay with CARDSCAN_CRASH_SEED=\(seed))")
        return seed
    }()

    /// The collection and the review queue, one sorted line per row (as `CollectionCLI.state`).
    static func state(_ home: URL) throws -> String {
        func rows(_ args: [String]) throws -> [[String: Any]] {
            let r = try CLI.run(args + ["--all", "--json"], home: home)
            guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] else {
                throw CLIFailure("\(args): status \(r.status) \(r.err)")
            }
            return rows
        }
        let entries = try rows(["collection", "list"]).map { r in
            ["quantity", "name", "set_code", "collector_number", "finish", "condition", "language", "pool"].map { "\(r[$0] ?? "")" }.joined(separator: " ")
        }
        let items = try rows(["review", "list"]).map { r in
            "\(((r["source_path"] as? String) ?? "").split(separator: "/").last ?? "") \(r["match_status"] ?? "") \(r["state"] ?? "") \((r["candidates"] as? [Any])?.count ?? -1)"
        }
        return (entries.sorted() + ["--"] + items.sorted()).joined(separator: "\n")
    }

    /// The cards that the fixture photos show and that the 2019 data holds (kept in file A only).
    static let fixturePrintings = ["bfz:171", "xln:179", "dtk:57", "8ed:181"]

    /// A: the first 12,000 objects of the 2019 bulk file plus the fixture printings; B: the next
    /// 8,000 (disjoint from A). Cached in the temporary folder (not in the repo) across runs.
    static let files: Result<(a: String, b: String), Error> = Result {
        let gz = CLI.root.deletingLastPathComponent().appendingPathComponent("shared/carddata/scryfall-2019/cards.json.gz")
        let attrs = try FileManager.default.attributesOfItem(atPath: gz.path)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-test-scryfall-\((attrs[.size] as? NSNumber)?.intValue ?? 0)-v1")
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        if FileManager.default.fileExists(atPath: a) && FileManager.default.fileExists(atPath: b) { return (a, b) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let tmp = "\(getpid())-\(UUID().uuidString.prefix(6))"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gunzip -c \"$0\" | python3 -c \"$1\" \"$2\" \"$3\" 12000 8000 \"$4\"",
                       gz.path, splitScript, a + tmp, b + tmp, fixturePrintings.joined(separator: ",")]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CLIFailure("generating the Scryfall test files failed (needs gunzip and python3)") }
        // Rename b first: a present means both are.
        guard rename(b + tmp, b) == 0, rename(a + tmp, a) == 0 else { throw CLIFailure("cannot rename the generated files") }
        return (a, b)
    }

    /// Streams a Scryfall bulk array from stdin; writes the first `na` objects (plus those whose
    /// "set:collector_number" is listed) to one file and the next `nb` to another, as in the source.
    static let splitScript = """
        import json, sys
        a_path, b_path, na, nb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        want = set(tuple(k.split(":")) for k in sys.argv[5].split(","))
        dec = json.JSONDecoder(); f = sys.stdin
        buf = f.read(1 << 20); pos = buf.index("[") + 1
        a, b, i = [], [], 0
        while True:
            while pos < len(buf) and buf[pos] in " \\r\\n\\t,": pos += 1
            if pos < len(buf) and buf[pos] == "]": break
            try:
                obj, end = dec.raw_decode(buf, pos)
            except ValueError:
                more = f.read(1 << 20)
                if not more: break
                buf = buf[pos:] + more; pos = 0; continue
            if i < na or (obj.get("set"), obj.get("collector_number")) in want: a.append(buf[pos:end])
            elif i < na + nb: b.append(buf[pos:end])
            pos = end; i += 1
        for path, objs in ((a_path, a), (b_path, b)):
            with open(path, "w") as out: out.write("[" + ",".join(objs) + "]")
        """

    /// Printing counts and durations of uninterrupted `catalog import`s: A into an empty folder,
    /// B replacing it, then A merged into B.
    struct CleanCatalogs {
        var a: Int, b: Int, ab: Int
        var secondsA: Double, secondsB: Double, secondsAB: Double
    }

    static let cleanCatalogs: Result<CleanCatalogs, Error> = Result {
        let (a, b) = try files.get()
        let home = CollectionCLI.temp("clean-catalog")
        defer { try? FileManager.default.removeItem(at: home) }
        func timed(_ args: [String]) throws -> (Int, Double) {
            let start = Date()
            let r = try CLI.run(args, home: home)
            let seconds = Date().timeIntervalSince(start)
            guard r.status == 0 else { throw CLIFailure("clean \(args): \(r.status) \(r.err)") }
            return (try catalogInfo(home).printings, seconds)
        }
        let (pa, ta) = try timed(["catalog", "import", a])
        let (pb, tb) = try timed(["catalog", "import", "--replace", b])
        let (pab, tab) = try timed(["catalog", "import", a])
        return CleanCatalogs(a: pa, b: pb, ab: pab, secondsA: ta, secondsB: tb, secondsAB: tab)
    }

    /// `cardscan catalog info --json` (which opens the catalog as every command does).
    static func catalogInfo(_ home: URL) throws -> (printings: Int, isSample: Bool) {
        let r = try CLI.run(["catalog", "info", "--json"], home: home)
        guard r.status == 0, let obj = try? JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any],
              let info = obj["info"] as? [String: Any], let printings = info["printings"] as? Int else {
            throw CLIFailure("catalog info: status \(r.status)\n\(r.err)")
        }
        return (printings, info["isSample"] as? Bool ?? false)
    }

    /// `PRAGMA integrity_check` through SQLite itself (recovering a hot journal or WAL first, as any
    /// opener would); "ok" when the database is sound.
    static func integrity(_ path: String) -> String {
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
        } catch {
            return "\(error)"
        }
    }

    /// Leftover temporary copies of a catalog import in `home`.
    static func importLeftovers(_ home: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []).filter { $0.hasPrefix(".catalog.sqlite.import-") }
    }

    /// Starts cardscan and sends it SIGKILL after `delay` seconds; true when the signal killed it
    /// (false when it had already exited).
    static func killed(_ args: [String], home: URL, after delay: Double) throws -> Bool {
        let p = CLI.process(args, home: home)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: delay)
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        return p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL
    }
}

@Suite("Crash safety: kill -9 at seeded random moments (real binary, real OCR, real SQLite)", .serialized)
struct CrashSafetyTests {
    /// Four photos (3 OCR'd: two copies of the same card with distinct bytes, one ambiguous card)
    /// and an unreadable file: small, so that 10 kills and re-runs fit the CI budget in debug.
    static func photos(_ dir: URL) throws -> URL {
        let photos = try CollectionCLI.photoFolder(dir)
        for name in ["tyrant.png", "drowner.png", "sheoldred.png", "counter-b.png", "counter-c.png"] { try FileManager.default.removeItem(at: photos.appendingPathComponent(name)) }
        return photos
    }

    @Test("cardscan import: 10 kills at random moments; each time the collection opens, passes integrity_check, and a re-run gives a clean run's collection")
    func killImport() throws {
        var rng = SeededGenerator(seed: CrashSafety.seed ^ 0x1)
        let dir = CollectionCLI.temp("crash-import")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = try Self.photos(dir)
        let args = ["import", photos.path, "--jobs", "2"]
        let cleanHome = dir.appendingPathComponent("clean")
        let start = Date()
        let clean = try CLI.run(args, home: cleanHome)
        let cleanSeconds = Date().timeIntervalSince(start)
        #expect(CollectionCLI.summary(clean.err)?.contains("2 added, 1 to review, 1 failed, 0 skipped") == true, "\(clean.err)")
        let expected = try CrashSafety.state(cleanHome)
        var killed = 0, partial = 0, delays: [String] = []
        for trial in 0..<10 {
            let home = dir.appendingPathComponent("home-\(trial)")
            let delay = Double.random(in: 0...0.9, using: &rng) * cleanSeconds
            delays.append(String(format: "%.2f", delay))
            let context = ("seed \(CrashSafety.seed), trial \(trial), kill after \(String(format: "%.2f", delay)) s")
            if try CrashSafety.killed(args, home: home, after: delay) { killed += 1 }
            let db = home.appendingPathComponent("collection.sqlite").path
            if FileManager.default.fileExists(atPath: db) {
                let list = try CLI.run(["collection", "list", "--all", "--json"], home: home)
                #expect(list.status == 0 && (try? JSONSerialization.jsonObject(with: Data(list.out.utf8))) is [Any], "\(context): \(list.err)")
                #expect(CrashSafety.integrity(db) == "ok", "\(context)")
                let state = try CrashSafety.state(home)
                if state != expected && state != "--" { partial += 1 }
            }
            let rerun = try CLI.run(args, home: home)
            #expect(rerun.status == 1, "\(context): only the unreadable file fails: \(rerun.err)")
            #expect(try CrashSafety.state(home) == expected, "\(context)")
            #expect(CrashSafety.integrity(db) == "ok", "\(context)")
        }
        print("CrashSafety import: seed \(CrashSafety.seed), clean run \(String(format: "%.2f", cleanSeconds)) s, delays \(delays), \(killed) killed mid-run, \(partial) left a partial collection")
        #expect(killed >= 5, "most kills land while the import runs (seed \(CrashSafety.seed))")
    }

    @Test("cardscan catalog import: 10 kills at random moments; the previous catalog stays usable, a re-run gives a clean import's count, no temporary copies pile up")
    func killCatalogImport() throws {
        var rng = SeededGenerator(seed: CrashSafety.seed ^ 0x2)
        let (a, b) = try CrashSafety.files.get()
        let clean = try CrashSafety.cleanCatalogs.get()
        #expect(clean.a >= 12_000 && clean.b > 7_000 && clean.ab == clean.a + clean.b, "\(clean)")
        let home = CollectionCLI.temp("crash-catalog")
        defer { try? FileManager.default.removeItem(at: home) }
        // Alternately: merge A (into nothing at first, then into B) and replace with B.
        var previous = try CrashSafety.catalogInfo(home)
        var killed = 0, keptPrevious = 0, delays: [String] = []
        var durations = ["A": clean.secondsA, "B": clean.secondsB, "AB": clean.secondsAB]
        for trial in 0..<10 {
            let mergeA = trial % 2 == 0
            let args = mergeA ? ["catalog", "import", a] : ["catalog", "import", "--replace", b]
            let expected = mergeA ? (trial == 0 ? clean.a : clean.ab) : clean.b
            // Calibrated on the latest complete run of the same command (the machine's load varies).
            let kind = mergeA ? (trial == 0 ? "A" : "AB") : "B"
            let seconds = durations[kind]!
            let delay = Double.random(in: 0...0.9, using: &rng) * seconds
            delays.append(String(format: "%.2f", delay))
            let context = ("seed \(CrashSafety.seed), trial \(trial) (\(args.dropFirst(2).joined(separator: " "))), kill after \(String(format: "%.2f", delay)) s")
            if try CrashSafety.killed(args, home: home, after: delay) { killed += 1 }
            let db = home.appendingPathComponent("catalog.sqlite").path
            let after = try CrashSafety.catalogInfo(home)
            if after.printings == previous.printings && after.isSample == previous.isSample {
                keptPrevious += 1
            } else {
                #expect(after.printings == expected && !after.isSample, "\(context): killed after the swap: the new catalog, whole")
            }
            if FileManager.default.fileExists(atPath: db) { #expect(CrashSafety.integrity(db) == "ok", "\(context)") }
            let rerunStart = Date()
            let rerun = try CLI.run(args, home: home)
            durations[kind] = Date().timeIntervalSince(rerunStart)
            #expect(rerun.status == 0, "\(context): \(rerun.err)")
            previous = try CrashSafety.catalogInfo(home)
            #expect(previous.printings == expected && !previous.isSample, "\(context)")
            #expect(CrashSafety.integrity(db) == "ok", "\(context)")
            #expect(CrashSafety.importLeftovers(home).isEmpty, "\(context): a re-run removes the killed import's temporary copy: \(CrashSafety.importLeftovers(home))")
        }
        print("CrashSafety catalog import: seed \(CrashSafety.seed), clean A \(String(format: "%.2f", clean.secondsA)) s, B \(String(format: "%.2f", clean.secondsB)) s, A into B \(String(format: "%.2f", clean.secondsAB)) s; delays \(delays), \(killed) killed mid-run, \(keptPrevious) left the previous catalog in place")
        #expect(killed >= 5, "most kills land while the import runs (seed \(CrashSafety.seed))")
        #expect(keptPrevious >= 4, "seed \(CrashSafety.seed)")
    }
}
