import CardScanOCR
import Foundation
import TestSupport
import Testing

/// Hostile inputs for the commands that write (import, add, catalog import) and the exit-code
/// conventions (issue 26), through the real binary with a time limit.
@Suite("Hostile inputs: import, collection quantities, catalog, conventions (real binary)", .serialized)
struct HostileImportTests {
    @Test("import of a FIFO and of a link to /dev/zero (also found through --recursive) fails each in one line, no hang")
    func specialFiles() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(mkfifo(photos.appendingPathComponent("p.jpg").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("sub/z.jpg").path, withDestinationPath: "/dev/zero")
        let home = dir.appendingPathComponent(".home").path
        let r = try CLI.run(["import", photos.path, "--recursive", "--jobs", "2"], environment: ["CARDSCAN_HOME": home], timeout: 20)
        #expect(!r.timedOut, "import hung (killed after \(r.seconds) s); stderr:\n\(r.err)")
        #expect(r.status == 1, "\(r.status): \(r.err)")
        let fifo = r.outLines.filter { $0.hasPrefix(photos.appendingPathComponent("p.jpg").path + ": failed: ") }
        let zero = r.outLines.filter { $0.hasPrefix(photos.appendingPathComponent("sub/z.jpg").path + ": failed: ") }
        #expect(fifo.count == 1 && fifo.first?.contains("FIFO") == true, "\(r.out)")
        #expect(zero.count == 1 && zero.first?.contains("device") == true, "\(r.out)")
    }

    @Test("exit statuses: --version 0, bare cardscan 64 (help on stderr), a usage error 64, a missing photo 2 told once on stderr")
    func exitStatuses() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        let version = try CLI.run(["--version"], environment: env, timeout: 30)
        #expect(version.status == 0 && version.outLines.count == 1 && version.out.first?.isNumber == true, "\(version)")
        let bare = try CLI.run([], environment: env, timeout: 30)
        #expect(bare.status == 64 && bare.out.isEmpty && bare.err.contains("USAGE: cardscan"), "\(bare.status) \(bare.out)")
        let usage = try CLI.run(["scan", "--jobs", "0", "x.jpg"], environment: env, timeout: 30)
        #expect(usage.status == 64, "\(usage)")
        let missing = dir.appendingPathComponent("missing.jpg").path
        let identify = try CLI.run(["identify", missing], environment: env, timeout: 60)
        #expect(identify.status == 2, "an error is not 'not identified': \(identify.status)")
        #expect(identify.out.isEmpty, "the error is told once, on stderr: \(identify.out)")
        #expect(identify.errLines.filter { $0.contains(missing) }.count == 1, "\(identify.err)")
        let json = try CLI.run(["identify", missing, "--json"], environment: env, timeout: 60)
        #expect(json.status == 2 && json.outLines.count == 1 && json.out.contains("\"error\""), "\(json)")
        let scan = try CLI.run(["scan", missing], environment: env, timeout: 60)
        #expect(scan.status == 2, "nothing to scan is an error: \(scan)")
        let collection = try CLI.run(["collection", "list", "--data-dir", "/dev/null/x"], environment: env, timeout: 30)
        #expect(collection.status == 0 || collection.status == 2, "\(collection)")
    }

    @Test("--help shows the global options once (on cardscan --help), not on every command; scan --help says one JSON object per card")
    func helpConventions() throws {
        let root = try CLI.run(["--help"], timeout: 30)
        #expect(root.out.contains("--data-dir") && root.out.contains("Exit status"), "\(root.out)")
        for command in [["scan"], ["identify"], ["import"], ["collection", "list"], ["catalog", "search"]] {
            let r = try CLI.run(command + ["--help"], timeout: 30)
            #expect(r.status == 0 && !r.out.contains("--data-dir") && !r.out.contains("--tessdata"), "\(command): \(r.out)")
        }
        let scan = try CLI.run(["scan", "--help"], timeout: 30)
        #expect(scan.out.contains("one object per card"), "\(scan.out)")
        #expect(!scan.out.contains("one object per photo"))
    }

    @Test("scan --jobs 64 on this machine is lowered to the cores, saying so, and gives the same records as --jobs 2")
    func jobsCapped() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let synthetic = CLI.root.appendingPathComponent("Fixtures/synthetic")
        for name in ["broodhunter_wurm_flat.png", "counterspell_flat.png", "gurmag_drowner_flat.png"] {
            try FileManager.default.copyItem(at: synthetic.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        func records(_ r: CLI.Run) -> [String] {
            r.outLines.compactMap { line -> String? in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                let card = o["card"] as? [String: Any]
                return "\((o["file"] as? String ?? "").split(separator: "/").last ?? "") \(o["status"] ?? "") \(card?["set"] ?? "-") \(card?["collector_number"] ?? "-")"
            }.sorted()
        }
        let many = try CLI.run(["scan", dir.path, "--json", "--jobs", "64"], environment: env, timeout: 300)
        let two = try CLI.run(["scan", dir.path, "--json", "--jobs", "2"], environment: env, timeout: 300)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(many.status == two.status)
        #expect(many.errLines.contains { $0.contains("--jobs 64 lowered to \(cores)") }, "\(many.err)")
        #expect(records(many) == records(two) && records(many).count == 3, "\(records(many)) vs \(records(two))")
        #expect(!many.out.contains("\"error\""), "no photo fails from overload")
    }

    @Test("add --qty 9223372036854775807 is refused in one line and writes nothing; the collection stays usable")
    func hugeQuantity() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        #expect(try CLI.run(["add", "bfz", "171"], environment: env, timeout: 60).status == 0)
        let huge = try CLI.run(["add", "bfz", "171", "--qty", "9223372036854775807"], environment: env, timeout: 60)
        #expect(huge.status == 2, "\(huge)")
        let lines = huge.errLines.filter { !$0.contains("sample catalog") }
        #expect(lines.count == 1 && lines.first?.contains("1000000") == true, "\(huge.err)")
        let csv = dir.appendingPathComponent("hostile.csv")
        try Data("Count,Name,Edition,Collector Number\n9223372036854775807,Broodhunter Wurm,bfz,171\n1,Broodhunter Wurm,bfz,171\n".utf8).write(to: csv)
        let imported = try CLI.run(["collection", "import", csv.path, "--format", "moxfield"], environment: env, timeout: 60)
        #expect(imported.status != 0 && imported.status != 1, "a refused file is an error: \(imported)")
        let list = try CLI.run(["collection", "list", "--json"], environment: env, timeout: 60)
        let rows = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]]
        #expect(list.status == 0 && rows?.map { $0["quantity"] as? Int } == [1], "\(list)")
        let export = try CLI.run(["collection", "export", "--format", "moxfield"], environment: env, timeout: 60)
        #expect(export.status == 0, "\(export)")
    }

    @Test("CARDSCAN_HOME naming a file: one line naming it, exit 2, for reading and writing commands")
    func homeIsAFile() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        for args in [["collection", "list"], ["add", "bfz", "171"], ["catalog", "import", "Fixtures/catalog/sample-cards.json"]] {
            let r = try CLI.run(args, environment: ["CARDSCAN_HOME": file.path], timeout: 60)
            #expect(r.status == 2 && r.errLines.count == 1 && r.err.contains(file.path) && r.err.contains("CARDSCAN_HOME"), "\(args): \(r)")
        }
        #expect(try Data(contentsOf: file) == Data("x".utf8))
    }

    @Test("a file name that is not UTF-8 is said to be so (not 'no such file'); a newline in a name cannot forge an output line")
    func hostileNames() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try Data(contentsOf: CLI.root.appendingPathComponent("Fixtures/synthetic/counterspell_flat.png"))
        // Latin-1 "Schön.png": the byte 0xF6 is not UTF-8, so the name is written through the C API.
        let raw: [UInt8] = Array(dir.path.utf8) + Array("/Sch".utf8) + [0xF6] + Array("n.png".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        _ = png.withUnsafeBytes { write(fd, $0.baseAddress, png.count) }
        close(fd)
        try png.write(to: dir.appendingPathComponent("forged\nx.png: Lightning Bolt — LEA #161  99%.png"))
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        let r = try CLI.run(["scan", dir.path, "--jobs", "2"], environment: env, timeout: 300)
        #expect(r.outLines.count == 2, "one line per photo: \(r.outLines)")
        #expect(r.outLines.allSatisfy { $0.hasPrefix(dir.path + "/") }, "a name's newline is escaped: \(r.out)")
        #expect(r.outLines.contains { $0.hasPrefix(dir.path + "/forged\\n") }, "\(r.out)")
        #expect(r.err.contains("not valid UTF-8") && !r.err.contains("no such file"), "\(r.err)")
        let given = try CLI.run(["scan", String(decoding: raw.dropLast(), as: UTF8.self)], environment: env, timeout: 60)
        #expect(given.status == 2 && given.err.contains("not valid UTF-8"), "\(given)")
        // import's report line of a photo that fails: its reason named the file again, unescaped,
        // so the name's newline split the line.
        let broken = dir.appendingPathComponent("cut\nshort.jpg")
        try Data(try Data(contentsOf: CLI.root.appendingPathComponent("Fixtures/hostile/rgb.jpg")).prefix(400)).write(to: broken)
        let imported = try CLI.run(["import", broken.path], environment: env, timeout: 60)
        #expect(imported.status == 1, "\(imported)")
        #expect(imported.outLines == ["\(dir.path)/cut\\nshort.jpg: failed: corrupt or truncated JPEG image (Premature end of JPEG file)"],
                "\(imported.outLines)")
    }

    @Test("review reject 2 3 99 resolves each item it can, tells the missing one in one line, exit 1; review accept takes several")
    func bulkReview() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let counterspell = try Data(contentsOf: CLI.root.appendingPathComponent("Fixtures/synthetic/counterspell_flat.png"))
        for i in 1...4 { try (counterspell + Data("copy-\(i)".utf8)).write(to: photos.appendingPathComponent("counter-\(i).png")) }
        let home = dir.appendingPathComponent(".home")
        let env = ["CARDSCAN_HOME": home.path]
        let imported = try CLI.run(["import", photos.path, "--jobs", "2"], environment: env, timeout: 300)
        #expect(imported.err.contains("4 to review"), "\(imported.err)")
        let reject = try CLI.run(["review", "reject", "1", "2", "99"], environment: env, timeout: 60)
        #expect(reject.status == 1, "\(reject)")
        #expect(reject.outLines.filter { $0.hasPrefix("rejected review item") }.count == 2, "\(reject.out)")
        #expect(reject.errLines.count == 1 && reject.err.contains("review item 99"), "\(reject.err)")
        let accept = try CLI.run(["review", "accept", "3", "4"], environment: env, timeout: 60)
        #expect(accept.status == 0 && accept.outLines.filter { $0.hasPrefix("added Counterspell") }.count == 2, "\(accept)")
        let pending = try CLI.run(["review"], environment: env, timeout: 60)
        #expect(pending.out.contains("nothing to review"), "\(pending.out)")
        let removed = try CLI.run(["remove", "lea", "54", "--foil"], environment: env, timeout: 60)
        #expect(removed.status == 2 && removed.err.contains("foil"), "only foil copies are looked at: \(removed)")
    }

    @Test("pool rename and delete through the CLI: delete asks for --yes and names the count; a rename never merges")
    func poolRenameDelete() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        #expect(try CLI.run(["add", "bfz", "171", "--qty", "3", "--pool", "sealed"], environment: env, timeout: 60).status == 0)
        #expect(try CLI.run(["add", "bfz", "171", "--pool", "cube"], environment: env, timeout: 60).status == 0)
        let merge = try CLI.run(["pool", "rename", "sealed", "cube"], environment: env, timeout: 60)
        #expect(merge.status == 2 && merge.errLines.count == 1 && merge.err.contains("already exists"), "\(merge)")
        #expect(try CLI.run(["pool", "rename", "sealed", "MOM sealed"], environment: env, timeout: 60).status == 0)
        let unsure = try CLI.run(["pool", "delete", "MOM sealed"], environment: env, timeout: 60)
        #expect(unsure.status == 2 && unsure.err.contains("3 cards") && unsure.err.contains("--yes"), "\(unsure)")
        let deleted = try CLI.run(["pool", "delete", "MOM sealed", "--yes"], environment: env, timeout: 60)
        #expect(deleted.status == 0 && deleted.out.contains("3 cards"), "\(deleted)")
        let list = try CLI.run(["pool", "list", "--json"], environment: env, timeout: 60)
        #expect(list.out.contains("\"cube\"") && !list.out.contains("sealed"), "\(list.out)")
    }

    @Test("import --pool of photos imported before moves their cards into the pool (no OCR again); without --pool they are skipped")
    func importPoolOfImported() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        let photo = CLI.root.appendingPathComponent("Fixtures/synthetic/broodhunter_wurm_flat.png").path
        let first = try CLI.run(["import", photo], environment: env, timeout: 120)
        #expect(first.status == 0 && first.err.contains("1 added"), "\(first)")
        let again = try CLI.run(["import", photo], environment: env, timeout: 60)
        #expect(again.err.contains("1 skipped") && !again.err.contains("moved"), "\(again.err)")
        let pooled = try CLI.run(["import", photo, "--pool", "box"], environment: env, timeout: 60)
        #expect(pooled.status == 0 && pooled.out.contains("moved to pool \"box\""), "\(pooled)")
        let list = try CLI.run(["pool", "list", "--json"], environment: env, timeout: 60)
        let pools = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]]
        #expect(pools?.first?["name"] as? String == "box" && pools?.first?["cards"] as? Int == 1, "\(list.out)")
        let main = try CLI.run(["collection", "list", "--json"], environment: env, timeout: 60)
        #expect((try JSONSerialization.jsonObject(with: Data(main.out.utf8)) as? [Any])?.isEmpty == true, "\(main.out)")
    }

    @Test("identify --annotate draws the verdict: one more summary line than read --annotate (no verdict)")
    func annotateVerdict() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path]
        let photo = CLI.root.appendingPathComponent("Fixtures/synthetic/broodhunter_wurm_flat.png").path
        let identified = dir.appendingPathComponent("identify.png").path, read = dir.appendingPathComponent("read.png").path
        #expect(try CLI.run(["identify", photo, "--annotate", identified], environment: env, timeout: 120).status == 0)
        #expect(try CLI.run(["read", photo, "--annotate", read], environment: env, timeout: 120).status == 0)
        // The white band of summary lines at the top, measured at its left margin (no glyph there).
        func band(_ path: String) throws -> Int {
            let rgb = try Image(contentsOf: path).rgbPixels()
            return (0..<rgb.height).first { y in rgb.pixels[(y * rgb.width + 2) * 3 ..< (y * rgb.width + 2) * 3 + 3].contains { $0 < 250 } } ?? rgb.height
        }
        let withVerdict = try band(identified), without = try band(read)
        #expect(without > 0 && withVerdict > without, "one more line, the verdict, on identify's image: \(withVerdict) vs \(without) rows")
    }
}
