import Foundation
import Testing
@testable import CardCatalog

/// Failed imports leave the previous catalog intact; malformed records are counted, not fatal.
@Suite("Interrupted and malformed imports")
struct InterruptedImportTests {
    @Test("A truncated file fails, names the file, and the old catalog still answers")
    func truncatedKeepsOldCatalog() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards, TestPaths.sampleSets])
        let before = try Data(contentsOf: url)

        // Half of a real Scryfall object array: valid records first, then the file stops mid-object.
        let full = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCards))
        let truncated = dir.appendingPathComponent("cut.json")
        try full.prefix(full.count / 2).write(to: truncated)
        #expect(throws: CatalogError.self) { try CatalogImporter(catalogURL: url).importFiles([truncated.path]) }
        do { try CatalogImporter(catalogURL: url).importFiles([truncated.path]) } catch {
            #expect("\(error)".contains("cut.json"))
        }

        // A gzip file cut in the middle (the first 200 kB of the real Scryfall bulk file).
        let gz = try Data(contentsOf: URL(fileURLWithPath: TestPaths.scryfall2019)).prefix(200_000)
        let cutGz = dir.appendingPathComponent("cut.json.gz")
        try gz.write(to: cutGz)
        do {
            try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards, cutGz.path])
            Issue.record("truncated gzip imported")
        } catch {
            #expect("\(error)".contains("cut.json.gz"))
        }

        #expect(try Data(contentsOf: url) == before)
        let catalog = try CardCatalog(url: url)
        #expect(try catalog.printings(set: "bfz", number: "171").first?.name == "Broodhunter Wurm")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    /// `bytes` compressed by the system's gzip (one member).
    static func gzip(_ bytes: Data) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        let writer = Thread { input.fileHandleForWriting.write(bytes); try? input.fileHandleForWriting.close() }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }

    @Test("A valid gzip followed by garbage fails naming the file; concatenated gzip members import whole")
    func gzipTrailingData() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        let json = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCards))
        let gz = try Self.gzip(json)
        let garbage = dir.appendingPathComponent("cards-garbage.json.gz")
        try (gz + Data("this is not gzip\n".utf8) + Data(repeating: 0x41, count: 300_000)).write(to: garbage)
        do {
            try CatalogImporter(catalogURL: url).importFiles([garbage.path])
            Issue.record("a gzip file with trailing garbage imported")
        } catch {
            #expect("\(error)".contains("cards-garbage.json.gz") && "\(error)".contains("after the end"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let half = json.count / 2
        let members = dir.appendingPathComponent("cards-2members.json.gz")
        try (try Self.gzip(json.prefix(half)) + Self.gzip(json.dropFirst(half))).write(to: members)
        let whole = try CatalogImporter(catalogURL: url).importFiles([members.path])
        let plain = try CatalogImporter(catalogURL: dir.appendingPathComponent("plain.sqlite")).importFiles([TestPaths.sampleCards])
        #expect(whole.sources.first?.imported == plain.sources.first?.imported && (plain.sources.first?.imported ?? 0) > 0)
        let single = dir.appendingPathComponent("cards.json.gz")
        try gz.write(to: single)
        #expect(try CatalogImporter(catalogURL: dir.appendingPathComponent("gz.sqlite")).importFiles([single.path]).sources.first?.imported
                == plain.sources.first?.imported)
    }

    @Test("A missing file or a file of the wrong shape fails with the file named")
    func badInput() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        let notCards = try writeFile(dir, "numbers.json", "[1, 2, 3]")
        let object = try writeFile(dir, "object.json", #"{"hello": "world"}"#)
        for path in [dir.appendingPathComponent("missing.json").path, notCards, object] {
            do {
                try CatalogImporter(catalogURL: url).importFiles([path])
                Issue.record("imported \(path)")
            } catch {
                #expect("\(error)".contains((path as NSString).lastPathComponent), "\(error)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("Malformed records are counted and reported; the rest import")
    func malformedRecords() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        let good = #"{"object":"card","id":"00000000-0000-4000-8000-000000000001","name":"Good Card","set":"tst","collector_number":"1","lang":"en"}"#
        let noID = #"{"object":"card","name":"No Id","set":"tst","collector_number":"2"}"#
        let badType = #"{"object":"card","id":"00000000-0000-4000-8000-000000000003","name":7,"set":"tst","collector_number":"3"}"#
        let badJSON = #"{"object":"card","id":"x" "name":}"#
        let badID = #"{"object":"card","id":"short","name":"Bad Id","set":"tst","collector_number":"5"}"#
        let path = try writeFile(dir, "mixed.json", "[\(good),\(noID),\(badType),\(badJSON),\(badID)]")
        let report = try CatalogImporter(catalogURL: url).importFiles([path])
        let source = try #require(report.sources.first)
        #expect(source.records == 5)
        #expect(source.imported == 1)
        #expect(source.malformed == 4)
        #expect(source.problems.count == 4)
        #expect(source.problems.first?.hasPrefix("record 2:") == true)
        #expect(try CardCatalog(url: url).printings(set: "tst", number: "1").first?.name == "Good Card")
    }

    @Test("Importing the same file twice is idempotent")
    func idempotent() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        let first = try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards])
        let second = try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards])
        #expect(first.imported == first.records)
        #expect(second.imported == 0)
        #expect(second.updated == first.records)
        #expect(second.totalPrintings == first.totalPrintings)
        #expect(second.totalNames == first.totalNames)
    }

    @Test("MTGJSON per-set file then Scryfall: one row per printing, Scryfall fields win")
    func overlapPerSetFile() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        let report = try CatalogImporter(catalogURL: url).importFiles([TestPaths.mtgjsonSet("BFZ")])
        let source = try #require(report.sources.first)
        #expect(source.format == "mtgjson")
        #expect(source.sets == 1)
        #expect(source.malformed == 0)
        let catalog = try CardCatalog(url: url)
        let wurm = try catalog.printings(set: "bfz", number: "171")
        #expect(wurm.map(\.name) == ["Broodhunter Wurm"])
        #expect(wurm.first?.releasedAt == "2015-10-02")
        #expect(catalog.set(code: "bfz")?.printedSize == 274)
        #expect(catalog.set(code: "bfz")?.name == "Battle for Zendikar")
    }
}
