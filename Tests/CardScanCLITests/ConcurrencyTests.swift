import Foundation
import TestSupport
import Testing

@Suite("Concurrency: the catalog is replaced while a scan runs (real binary, real OCR, real SQLite)")
struct ConcurrencyTests {
    @Test("catalog import --replace during a scan: one record per photo, no error records, the scan keeps the catalog it opened; afterwards catalog info shows the new one")
    func catalogSwapDuringScan() throws {
        let (a, b) = try CrashSafety.files.get()
        let clean = try CrashSafety.cleanCatalogs.get()
        let dir = CollectionCLI.temp("swap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let imported = try CLI.run(["catalog", "import", a], home: home)
        #expect(imported.status == 0, "\(imported.err)")
        // Cards that only catalog A holds, scanned one at a time; the swap starts after the first record.
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let fixtures = CLI.root.appendingPathComponent("Fixtures/synthetic")
        // Three copies of each, so the scan outlasts the swap (an import also rebuilds the word index).
        let cards = [("broodhunter_wurm_flat.png", "wurm", "bfz 171"), ("carnage_tyrant_flat.png", "tyrant", "xln 179"),
                     ("gurmag_drowner_flat.png", "drowner", "dtk 57")]
        let plan = (1...3).flatMap { copy in cards.map { ($0.0, "z\(copy)-\($0.1).png") } }
        for (source, name) in plan { try FileManager.default.copyItem(at: fixtures.appendingPathComponent(source), to: photos.appendingPathComponent(name)) }
        let expectedCards = Dictionary(uniqueKeysWithValues: (1...3).flatMap { copy in cards.map { ("z\(copy)-\($0.1).png", $0.2) } })

        let scan = CLI.process(["scan", photos.path, "--json", "--jobs", "1"], home: home)
        let out = Pipe()
        scan.standardOutput = out
        scan.standardError = FileHandle.nullDevice
        let lines = LockedBoxList()
        let start = Date()
        try scan.run()
        CLI.readLines(out, line: { lines.append($0) }, end: { lines.append("EOF") })
        // Swap the catalog once the scan has opened it and emitted its first record.
        let deadline = Date().addingTimeInterval(120)
        while lines.all.isEmpty && Date() < deadline { usleep(5_000) }
        let swapStart = Date().timeIntervalSince(start)
        let swap = try CLI.run(["catalog", "import", "--replace", b], home: home)
        let swapEnd = Date().timeIntervalSince(start)
        let recordsBeforeSwapEnd = lines.all.count
        let overlapped = scan.isRunning
        scan.waitUntilExit()
        while lines.all.last != "EOF" { usleep(1_000) }
        let scanEnd = Date().timeIntervalSince(start)
        print(String(format: "Concurrency: swap %.2f–%.2f s, scan ended %.2f s; %d of %d records before the swap ended",
                     swapStart, swapEnd, scanEnd, recordsBeforeSwapEnd, plan.count))
        #expect(swap.status == 0, "\(swap.err)")
        #expect(overlapped && recordsBeforeSwapEnd < plan.count, "the catalog was replaced while the scan was still running")
        #expect(scan.terminationStatus == 0)

        let records = lines.all.dropLast().compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.count == plan.count, "one record per photo: \(lines.all)")
        var byFile: [String: [String: Any]] = [:]
        for r in records { byFile[((r["file"] as? String) ?? "").split(separator: "/").last.map(String.init) ?? ""] = r }
        #expect(Set(byFile.keys) == Set(plan.map(\.1)))
        for (file, r) in byFile {
            #expect(r["status"] as? String != "error", "\(file): \(r["error"] ?? "")")
        }
        // Cards only catalog A holds are still identified after the swap: the scan reads the file it opened.
        for (file, card) in expectedCards {
            let c = byFile[file]?["card"] as? [String: Any]
            #expect(byFile[file]?["status"] as? String == "identified" && "\(c?["set"] ?? "") \(c?["collector_number"] ?? "")" == card,
                    "\(file): \(byFile[file] ?? [:])")
        }
        let info = try CrashSafety.catalogInfo(home)
        #expect(info.printings == clean.b && !info.isSample, "catalog info shows the new catalog")
        #expect(CrashSafety.integrity(home.appendingPathComponent("catalog.sqlite").path) == "ok")
        #expect(CrashSafety.importLeftovers(home).isEmpty)
    }

    @Test("20 concurrent catalog imports of different files merge all 20 (none lost); the waiting ones say so; no temporary copy is left")
    func concurrentCatalogImports() throws {
        let dir = CollectionCLI.temp("concurrent-imports")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        // One printing per file, cut from the sample catalog's Scryfall file.
        let sample = CLI.root.appendingPathComponent("Fixtures/catalog/sample-cards.json")
        let cards = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as? [[String: Any]])
        let n = 20
        var files: [String] = []
        for (i, card) in cards.prefix(n).enumerated() {
            let url = dir.appendingPathComponent("card\(i).json")
            try JSONSerialization.data(withJSONObject: [card]).write(to: url)
            files.append(url.path)
        }
        let processes = files.map { CLI.process(["catalog", "import", $0], home: home) }
        let errs = processes.map { _ in Pipe() }
        let collected = LockedBoxList()
        for (p, err) in zip(processes, errs) {
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            CLI.readLines(err, line: { collected.append($0) })
        }
        for p in processes { try p.run() }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "\(processes.map(\.terminationStatus)) \(collected.all)")
        let info = try CrashSafety.catalogInfo(home)
        #expect(info.printings == n, "every import's printing is in the catalog (a lost update drops some)")
        let waited = collected.all.filter { $0.contains("waiting for it to finish") }.count
        print("Concurrency: \(n) catalog imports at once, \(waited) said they waited")
        #expect(waited >= 1, "imports that overlap say they wait")
        #expect(CrashSafety.importLeftovers(home).isEmpty)
    }

    @Test("catalog import and catalog update say they wait while another import holds the catalog's lock, then finish",
          arguments: ["import", "update"])
    func waitingSaid(_ command: String) throws {
        let dir = CollectionCLI.temp("waiting-\(command)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let sample = CLI.root.appendingPathComponent("Fixtures/catalog/sample-cards.json")
        let cards = try Data(contentsOf: sample)
        // `update` downloads from a real server on loopback (the bulk-data index, then the file).
        let files = try LoopbackHTTPServer(routes: ["/bulk/default-cards.json": cards])
        defer { files.stop() }
        let template = try String(contentsOf: CLI.root.appendingPathComponent("Fixtures/catalog/loopback/bulk-data.json"), encoding: .utf8)
        let index = try LoopbackHTTPServer(routes: ["/bulk-data": Data(template.replacingOccurrences(of: "{{BASE}}", with: files.base)
            .replacingOccurrences(of: "{{SIZE}}", with: String(cards.count)).utf8)])
        defer { index.stop() }

        // Another import's lock, held by this process as an import holds it.
        let lockFD = open(home.appendingPathComponent("catalog.sqlite.lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        #expect(lockFD >= 0 && flock(lockFD, LOCK_EX) == 0)
        var released = false
        func release() { if !released { released = true; flock(lockFD, LOCK_UN); close(lockFD) } }
        defer { release() }

        let args = command == "import" ? ["catalog", "import", sample.path] : ["catalog", "update", "--url", "\(index.base)/bulk-data"]
        let p = CLI.process(args, home: home)
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        let lines = LockedBoxList()
        CLI.readLines(err, line: { lines.append($0) })
        try p.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !lines.all.contains(where: { $0.contains("waiting for it to finish") }) { usleep(20_000) }
        #expect(lines.all.contains { $0.contains("another import of") && $0.contains("waiting for it to finish") },
                "\(command) says it waits: \(lines.all)")
        #expect(p.isRunning, "it waits for the lock")
        release()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(lines.all)")
        #expect(try CrashSafety.catalogInfo(home).printings > 0)
    }

    @Test("a killed catalog import's temporary copy is removed when the catalog is next opened, not only by the next import")
    func abandonedCopyRemovedOnOpen() throws {
        let dir = CollectionCLI.temp("abandoned")
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home")
        let sample = CLI.root.appendingPathComponent("Fixtures/catalog/sample-cards.json").path
        #expect(try CLI.run(["catalog", "import", sample], home: home).status == 0)
        // What kill -9 leaves: a copy named after a process that no longer exists.
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let copy = home.appendingPathComponent(".catalog.sqlite.import-\(dead.processIdentifier)-deadbeef")
        try Data(count: 4096).write(to: copy)
        #expect(try CrashSafety.catalogInfo(home).printings > 0)
        #expect(CrashSafety.importLeftovers(home).isEmpty, "\(CrashSafety.importLeftovers(home))")
    }
}
