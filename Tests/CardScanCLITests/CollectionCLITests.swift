import Foundation
import TestSupport
import Testing

/// Fixtures and checks shared by the collection tests of the real binary (run with `CLI.run`).
enum CollectionCLI {
    static func temp(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-collcli-\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Fixture photos with distinct bytes (bytes appended after the PNG end still decode):
    /// 5 identified cards (two of them the same card in different files), 3 ambiguous copies of
    /// Counterspell, and one unreadable file. A clean import gives 5 added, 3 to review, 1 failed.
    static func photoFolder(_ dir: URL) throws -> URL {
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let fixtures = CLI.root.appendingPathComponent("Fixtures/synthetic")
        let plan: [(String, String, String?)] = [
            ("broodhunter_wurm_flat.png", "wurm.png", nil), ("broodhunter_wurm_flat.png", "wurm-copy.png", "copy-1"),
            ("carnage_tyrant_flat.png", "tyrant.png", nil), ("gurmag_drowner_flat.png", "drowner.png", nil),
            ("sheoldred_the_apocalypse_flat.png", "sheoldred.png", nil), ("counterspell_flat.png", "counter-a.png", nil),
            ("counterspell_flat.png", "counter-b.png", "copy-b"), ("counterspell_flat.png", "counter-c.png", "copy-c"),
        ]
        for (source, name, suffix) in plan {
            var data = try Data(contentsOf: fixtures.appendingPathComponent(source))
            if let suffix { data += Data(suffix.utf8) }
            try data.write(to: photos.appendingPathComponent(name))
        }
        try Data("not an image".utf8).write(to: photos.appendingPathComponent("broken.jpg"))
        return photos
    }

    /// The collection and review queue as comparable text: one line per row / item.
    static func state(_ home: URL) throws -> String {
        let list = try CLI.run(["collection", "list", "--all", "--json"], home: home)
        let rows = (try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]]) ?? []
        let entries = rows.map { r in
            ["quantity", "name", "set_code", "collector_number", "finish", "condition", "language", "pool"].map { "\(r[$0] ?? "")" }.joined(separator: " ")
        }.sorted()
        let review = try CLI.run(["review", "list", "--all", "--json"], home: home)
        let items = ((try JSONSerialization.jsonObject(with: Data(review.out.utf8)) as? [[String: Any]]) ?? []).map { r in
            "\(((r["source_path"] as? String) ?? "") .split(separator: "/").last ?? "") \(r["match_status"] ?? "") \(r["state"] ?? "") \((r["candidates"] as? [Any])?.count ?? -1)"
        }.sorted()
        return (entries + ["--"] + items).joined(separator: "\n")
    }

    static func summary(_ err: String) -> String? {
        err.split(separator: "\n").first { $0.hasPrefix("imported ") }.map(String.init)
    }

    /// One uninterrupted import of `photoFolder`, shared by the tests that compare against it.
    static let clean: Result<(home: URL, photos: URL, state: String, summary: String), Error> = Result {
        let dir = temp("clean")
        let photos = try photoFolder(dir)
        let home = dir.appendingPathComponent("home")
        let r = try CLI.run(["import", photos.path, "--jobs", "2"], home: home)
        guard r.status == 1, let summary = summary(r.err) else { throw CLIFailure("clean import: status \(r.status)\n\(r.out)\n\(r.err)") }
        return (home, photos, try state(home), summary)
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private(set) var done = false
    func set(_ d: Data) { lock.lock(); data = d; done = true; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

@Suite("Collection commands (real binary, real OCR, real SQLite, sample catalog)", .serialized)
struct CollectionCLITests {
    @Test("import adds identified cards, queues ambiguous ones, counts failures; re-import and renamed/moved photos add nothing")
    func importIsIdempotent() throws {
        let clean = try CollectionCLI.clean.get()
        #expect(clean.summary.contains("5 added, 3 to review, 1 failed, 0 skipped as already imported"), "\(clean.summary)")
        #expect(clean.state.contains("2 Broodhunter Wurm bfz 171 nonfoil NM en"), "two photos of the same card: quantity 2\n\(clean.state)")
        #expect(clean.state.contains("1 Carnage Tyrant xln 179") && clean.state.contains("1 Sheoldred, the Apocalypse dmu 107"))
        // Continue in the clean run's collection (its state was captured right after the import).
        let home = clean.home
        let photos = clean.photos
        let before = clean.state

        let again = try CLI.run(["import", photos.path], home: home)
        #expect(CollectionCLI.summary(again.err)?.contains("0 added, 0 to review, 1 failed, 8 skipped as already imported") == true, "\(again.err)")
        #expect(again.out.contains("wurm.png: skipped (already imported)"))

        // Rename one photo and move another into a sub-folder: still the same bytes.
        let fm = FileManager.default
        try fm.moveItem(at: photos.appendingPathComponent("tyrant.png"), to: photos.appendingPathComponent("IMG_0001.png"))
        try fm.createDirectory(at: photos.appendingPathComponent("sorted"), withIntermediateDirectories: true)
        try fm.moveItem(at: photos.appendingPathComponent("sheoldred.png"), to: photos.appendingPathComponent("sorted/b.png"))
        let moved = try CLI.run(["import", photos.path, "--recursive"], home: home)
        #expect(CollectionCLI.summary(moved.err)?.contains("0 added, 0 to review, 1 failed, 8 skipped") == true, "\(moved.err)")
        #expect(moved.out.contains("IMG_0001.png: skipped (already imported as \(photos.path)/tyrant.png)"))
        #expect(try CollectionCLI.state(home) == before)
    }

    @Test("kill -9 at several moments during an import, then a re-run: exactly the counts of an uninterrupted run")
    func killAndResume() throws {
        let clean = try CollectionCLI.clean.get()
        let dir = CollectionCLI.temp("kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = try CollectionCLI.photoFolder(dir)
        let home = dir.appendingPathComponent("home")
        var kills = 0, partial = 0
        // Kill points: during start-up (catalog, OCR engine), right after a photo was committed
        // (the other job is mid-OCR), and a little after a commit (mid-OCR or mid-transaction).
        for (afterResults, delay) in [(0, 0.3), (1, 0.0), (1, 0.15), (2, 0.05)] {
            let p = CLI.process(["import", photos.path, "--jobs", "2"], home: home)
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            let results = Counter()
            // Count photos newly recorded by this run (lines "…: added …" / "…: to review …").
            CLI.readLines(out) { line in
                if line.contains(": added ") || line.contains(": to review ") { results.increment() }
            }
            let deadline = Date().addingTimeInterval(60)
            while p.isRunning && results.value < afterResults && Date() < deadline { usleep(5_000) }
            Thread.sleep(forTimeInterval: delay)
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                kills += 1
            }
            p.waitUntilExit()
            let state = try CollectionCLI.state(home)
            if state != clean.state && state.count > 3 { partial += 1 }
        }
        #expect(kills >= 3, "the import was killed mid-run")
        #expect(partial >= 1, "at least one kill left a partly imported folder")
        let resumed = try CLI.run(["import", photos.path, "--jobs", "2"], home: home)
        #expect(resumed.status == 1, "the broken file still fails")
        #expect(try CollectionCLI.state(home) == clean.state)
        let again = try CLI.run(["import", photos.path], home: home)
        #expect(CollectionCLI.summary(again.err)?.contains("0 added, 0 to review, 1 failed, 8 skipped") == true, "\(again.err)")
    }

    @Test("two imports into the same collection at the same time lose nothing and count shared photos once")
    func concurrentImports() throws {
        let dir = CollectionCLI.temp("concurrent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = try CollectionCLI.photoFolder(dir)
        let fm = FileManager.default
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        try fm.createDirectory(at: a, withIntermediateDirectories: true)
        try fm.createDirectory(at: b, withIntermediateDirectories: true)
        for name in ["wurm.png", "tyrant.png", "counter-a.png", "drowner.png"] {
            try fm.copyItem(at: all.appendingPathComponent(name), to: a.appendingPathComponent(name))
        }
        for name in ["sheoldred.png", "wurm-copy.png"] { try fm.copyItem(at: all.appendingPathComponent(name), to: b.appendingPathComponent(name)) }
        try fm.copyItem(at: all.appendingPathComponent("drowner.png"), to: b.appendingPathComponent("aaa-same-drowner.png"))
        let home = dir.appendingPathComponent("home")
        let results = LockedBoxList()
        let group = DispatchGroup()
        for folder in [a, b] {
            group.enter()
            Thread {
                defer { group.leave() }
                results.append((try? CLI.run(["import", folder.path, "--jobs", "1"], home: home)).map { "\($0.status) \($0.err)" } ?? "spawn failed")
            }.start()
        }
        group.wait()
        let outs = results.all
        #expect(outs.count == 2 && outs.allSatisfy { $0.hasPrefix("0 ") }, "\(outs)")
        let state = try CollectionCLI.state(home)
        #expect(state.contains("2 Broodhunter Wurm bfz 171"), "\(state)")
        #expect(state.contains("1 Gurmag Drowner dtk 57"), "the same bytes in both folders count once\n\(state)")
        #expect(state.contains("1 Carnage Tyrant xln 179") && state.contains("1 Sheoldred, the Apocalypse dmu 107"))
        #expect(state.components(separatedBy: "ambiguous").count - 1 == 1)
        let added = outs.compactMap { CollectionCLI.summary($0) }.compactMap { s in Int(s.split(separator: ": ").last?.split(separator: " ").first ?? "") }
        #expect(added.reduce(0, +) == 5, "\(outs)")
    }

    @Test("review: list with candidates, accept --choice, set SET NUMBER, reject; undo reverts it all and a re-import works again")
    func reviewAndUndo() throws {
        let dir = CollectionCLI.temp("review")
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = try CollectionCLI.photoFolder(dir)
        let photos = dir.appendingPathComponent("few")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["wurm.png", "counter-a.png", "counter-b.png", "counter-c.png"] {
            try FileManager.default.copyItem(at: all.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        let home = dir.appendingPathComponent("home")
        let first = try CLI.run(["import", photos.path, "--pool", "box"], home: home)
        #expect(CollectionCLI.summary(first.err)?.contains("1 added, 3 to review") == true, "\(first.err)")

        let list = try CLI.run(["review"], home: home)
        #expect(list.out.contains("#1  ambiguous") && list.out.contains("1. Counterspell — "), "\(list.out)")
        let json = try CLI.run(["review", "list", "--json"], home: home)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(items.count == 3)
        let candidates = try #require(items.first?["candidates"] as? [[String: Any]])
        #expect(candidates.count >= 2)
        let second = "\((candidates[1]["set"] as? String ?? "").uppercased()) #\(candidates[1]["collector_number"] ?? "")"

        let accept = try CLI.run(["review", "accept", "1", "--choice", "2"], home: home)
        #expect(accept.status == 0 && accept.out.contains("added Counterspell — \(second) to pool \"box\""), "\(accept)")
        let set = try CLI.run(["review", "set", "2", "lea", "54"], home: home)
        #expect(set.status == 0 && set.out.contains("LEA #54"), "\(set)")
        // Items are numbered in the order photos finish (largest first on several jobs).
        let third = try #require(items.first { ($0["id"] as? Int) == 3 }?["source_path"] as? String)
        let reject = try CLI.run(["review", "reject", "3"], home: home)
        #expect(reject.status == 0 && reject.out.contains((third as NSString).lastPathComponent), "\(reject.out)")
        let twice = try CLI.run(["review", "accept", "1"], home: home)
        #expect(twice.status != 0 && twice.err.contains("review item 1: already accepted"))
        let missing = try CLI.run(["review", "accept", "99"], home: home)
        #expect(missing.status != 0 && missing.err.split(separator: "\n").count == 1 && missing.err.contains("review item 99"))
        #expect(try CLI.run(["review"], home: home).out.contains("nothing to review"))
        let pool = try CLI.run(["pool", "export", "box", "--format", "arena"], home: home)
        #expect(pool.out.contains("1 Broodhunter Wurm (BFZ) 171") && pool.out.contains("1 Counterspell (LEA) 54"), "\(pool.out)")

        let undo = try CLI.run(["undo"], home: home)
        #expect(undo.status == 0 && undo.out.contains("removed 3 cards") && undo.out.contains("3 review items") && undo.out.contains("forgot 4 photos"), "\(undo.out)")
        #expect(try CollectionCLI.state(home) == "--")
        #expect(try CLI.run(["undo"], home: home).status != 0)
        let again = try CLI.run(["import", photos.path, "--pool", "box"], home: home)
        #expect(CollectionCLI.summary(again.err)?.contains("1 added, 3 to review, 0 failed, 0 skipped") == true, "\(again.err)")
    }

    @Test("a photo of three cards imports as three cards, once; undo forgets the photo and its cards together")
    func severalCardsOnePhoto() throws {
        let dir = CollectionCLI.temp("multi")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let photo = CLI.root.appendingPathComponent("Fixtures/synthetic/multi_3cards.jpg").path
        let first = try CLI.run(["import", photo], home: home)
        #expect(CollectionCLI.summary(first.err)?.contains("imported 1 photo") == true, "\(first.err)")
        #expect(CollectionCLI.summary(first.err)?.contains("3 added, 0 to review, 0 failed, 0 skipped") == true, "\(first.err)")
        let names = try CollectionCLI.state(home).split(separator: "\n").filter { $0 != "--" }.map { $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ") }
        #expect(names.sorted() == ["Canyon Wildcat", "Gurmag Drowner", "The One"], "\(names)")
        let again = try CLI.run(["import", photo], home: home)
        #expect(CollectionCLI.summary(again.err)?.contains("0 added, 0 to review, 0 failed, 1 skipped") == true, "\(again.err)")
        let undo = try CLI.run(["undo"], home: home)
        #expect(undo.out.contains("removed 3 cards") && undo.out.contains("forgot 1 photo"), "\(undo.out)")
    }

    @Test("a German card is recorded in German, though the catalog holds it in English only; --lang still overrides")
    func printedLanguage() throws {
        let dir = CollectionCLI.temp("lang")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let photo = CLI.root.appendingPathComponent("Fixtures/synthetic/gurmag_drowner_de_flat.png").path
        let imported = try CLI.run(["import", photo], home: home)
        #expect(CollectionCLI.summary(imported.err)?.contains("1 added") == true, "\(imported.err)")
        let german = try CollectionCLI.state(home)
        #expect(german.hasPrefix("1 Gurmag Drowner dtk 57 nonfoil NM de"), "\(german)")
        let identify = try CLI.run(["identify", photo], home: home)
        #expect(identify.status == 0 && identify.out.contains("printed in de"), "\(identify.out)")
        _ = try CLI.run(["undo"], home: home)
        _ = try CLI.run(["import", photo, "--lang", "fr"], home: home)
        let french = try CollectionCLI.state(home)
        #expect(french.hasPrefix("1 Gurmag Drowner dtk 57 nonfoil NM fr"), "\(french)")
    }

    @Test("collection export then import into an empty collection gives the same file, for every format")
    func csvRoundTripThroughCLI() throws {
        let dir = CollectionCLI.temp("csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        for args in [["bfz", "171", "--qty", "3", "--tag", "trade"], ["xln", "179", "--foil", "--condition", "LP", "--lang", "ja"],
                     ["dmu", "107", "--qty", "2", "--condition", "MP"], ["dtk", "57", "--condition", "HP", "--lang", "de"],
                     ["7ed", "67", "--condition", "DMG"], ["xln", "179", "--pool", "cube"]] {
            let r = try CLI.run(["add"] + args, home: home)
            #expect(r.status == 0, "\(r.err)")
        }
        let removed = try CLI.run(["remove", "bfz", "171"], home: home)
        #expect(removed.status == 0)
        let tooMany = try CLI.run(["remove", "bfz", "171", "--qty", "9"], home: home)
        #expect(tooMany.status != 0 && tooMany.err.contains("bfz 171: only 2 copies in the collection"))
        let list = try CLI.run(["collection", "list"], home: home)
        for format in ["moxfield", "manabox", "deckbox", "archidekt", "dragonshield", "sorted", "tcgplayer", "delverlens", "json"] {
            let file = dir.appendingPathComponent("\(format).csv").path
            let export = try CLI.run(["collection", "export", "--format", format, "--output", file], home: home)
            #expect(export.status == 0 && export.err.contains("exported 7 cards in 5 rows"), "\(format): \(export.err)")
            let fresh = dir.appendingPathComponent("fresh-\(format)")
            let imported = try CLI.run(["collection", "import", file, "--format", format], home: fresh)
            #expect(imported.status == 0 && imported.out.contains("5 rows: 5 taken (7 cards), 0 skipped, 0 not owned"), "\(format): \(imported)")
            let again = dir.appendingPathComponent("again-\(format).csv").path
            try CLI.run(["collection", "export", "--format", format, "--output", again], home: fresh)
            #expect(try String(contentsOfFile: again, encoding: .utf8) == String(contentsOfFile: file, encoding: .utf8), "\(format)")
            // ManaBox, Dragon Shield, Sorted and TCGplayer files have no tags column.
            let expected = !["manabox", "dragonshield", "sorted", "tcgplayer"].contains(format) ? list.out : list.out.split(separator: "\n", omittingEmptySubsequences: false).map {
                var line = $0.replacingOccurrences(of: "  #trade", with: "")
                while line.hasSuffix(" ") { line.removeLast() }
                return line
            }.joined(separator: "\n")
            #expect(try CLI.run(["collection", "list"], home: fresh).out == expected, "\(format)")
            let detected = try CLI.run(["collection", "import", file], home: dir.appendingPathComponent("detect-\(format)"))
            #expect(detected.out.contains("(\(format))"), "format detected from the header: \(detected)")
        }
        let show = try CLI.run(["pool", "show", "cube"], home: home)
        #expect(show.out.contains("cube: 1 card") && show.out.contains("Mana curve"))
        let pools = try CLI.run(["pool", "list", "--json"], home: home)
        #expect(pools.out.contains("\"name\":\"cube\""))
        let noPool = try CLI.run(["pool", "show", "nope"], home: home)
        #expect(noPool.status != 0 && noPool.err.contains("no pool \"nope\" (pools: cube)"))
    }

    @Test("a real export: --dry-run writes nothing, skipped rows are listed by line with exit 1, a second import adds nothing, --again adds it again")
    func realExportImport() throws {
        let dir = CollectionCLI.temp("interop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let file = SharedCardData.root.appendingPathComponent("interop/tcgplayer/StepKie_MtgCsvHelper__tcgplayer-real-export.csv").path
        let dry = try CLI.run(["collection", "import", file, "--dry-run"], home: home)
        #expect(dry.status == 1 && dry.out.contains("43 rows: 40 taken (40 cards), 3 skipped, 0 not owned (wish list); dry run"), "\(dry)")
        #expect(dry.err.contains("line 19: Lightning Bolt: unknown condition \"Mint\"; skipped"), "\(dry.err)")
        #expect(try CLI.run(["collection", "list"], home: home).out.contains("empty"))
        let first = try CLI.run(["collection", "import", file, "--json"], home: home)
        #expect(first.status == 1 && first.out.contains("\"skipped\" : 3") || first.out.contains("\"skipped\":3"), "\(first.out)")
        let second = try CLI.run(["collection", "import", file], home: home)
        #expect(second.out.contains("already imported") && second.out.contains("nothing added"), "\(second)")
        let count = { try CLI.run(["collection", "list"], home: home).err }
        #expect(try count().contains("40 cards"))
        _ = try CLI.run(["collection", "import", file, "--again"], home: home)
        #expect(try count().contains("80 cards"))
        let wishes = SharedCardData.root.appendingPathComponent("interop/manabox/StepKie_MtgCsvHelper__manabox-collection.csv").path
        let m = try CLI.run(["collection", "import", wishes, "--dry-run"], home: home)
        #expect(m.status == 0 && m.out.contains("3741 taken") && m.out.contains("2 not owned (wish list)"), "\(m)")
    }

    @Test("a corrupt or foreign collection file gives a one-line error naming it and is never modified")
    func corruptCollection() throws {
        let home = CollectionCLI.temp("corrupt")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("collection.sqlite")
        try Data("garbage, not SQLite".utf8 + Data(repeating: 0, count: 300)).write(to: file)
        let before = try Data(contentsOf: file)
        for args in [["collection", "list"], ["add", "bfz", "171"], ["import", "Fixtures/synthetic/broodhunter_wurm_flat.png"], ["undo"]] {
            let r = try CLI.run(args, home: home)
            #expect(r.status != 0, "\(args)")
            let lines = r.err.split(separator: "\n").filter { !$0.hasPrefix("cardscan: no catalog") }
            #expect(lines.count == 1 && lines[0].contains(file.path) && lines[0].contains("not an SQLite database"), "\(args): \(r.err)")
        }
        #expect(try Data(contentsOf: file) == before)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    @Test("every collection command's --help teaches with examples")
    func helpHasExamples() throws {
        let home = CollectionCLI.temp("help")
        defer { try? FileManager.default.removeItem(at: home) }
        for command in [["import"], ["review"], ["review", "accept"], ["review", "set"], ["review", "reject"], ["add"], ["remove"], ["undo"],
                        ["collection"], ["collection", "list"], ["collection", "export"], ["collection", "import"],
                        ["pool"], ["pool", "list"], ["pool", "show"], ["pool", "export"]] {
            let r = try CLI.run(command + ["--help"], home: home)
            #expect(r.status == 0 && r.out.contains("Example"), "\(command)")
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

final class LockedBoxList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
