import Foundation
import TestSupport
import Testing

@Suite("scan --json contract (real binary, real OCR, sample catalog)")
struct ScanContractTests {
    @Test("every record has exactly the documented keys; a bad file is an error record and the scan goes on")
    func contract() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = CLI.root.appendingPathComponent("Fixtures/synthetic/broodhunter_wurm_flat.png")
        try FileManager.default.copyItem(at: good, to: dir.appendingPathComponent("a good card.png"))
        try "not an image".write(to: dir.appendingPathComponent("broken.jpg"), atomically: true, encoding: .utf8)
        let home = dir.appendingPathComponent("home").path
        let r = try CLI.run(["scan", dir.path, "--json", "--jobs", "2"], environment: ["CARDSCAN_HOME": home])
        #expect(r.status == 1, "a failed file makes the exit status 1")
        #expect(r.err.contains("built-in sample catalog"))
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        let keys: Set<String> = ["file", "status", "card", "confidence", "extracted", "candidates", "quad", "timings_ms"]
        var statuses: [String: [String: Any]] = [:]
        for line in lines {
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let status = try #require(obj["status"] as? String)
            statuses[status] = obj
            #expect(Set(obj.keys) == (status == "error" ? keys.union(["error"]) : keys.union(["evidence"])))
            let extracted = try #require(obj["extracted"] as? [String: Any])
            #expect(Set(extracted.keys).isSubset(of: ["title", "set_code", "collector_number", "set_size", "rarity", "language"]))
            let timings = try #require(obj["timings_ms"] as? [String: Any])
            #expect(Set(timings.keys) == ["decode", "locate", "ocr", "match", "total"])
        }
        let identified = try #require(statuses["identified"])
        let card = try #require(identified["card"] as? [String: Any])
        #expect(Set(card.keys) == ["id", "name", "set", "collector_number", "lang", "rarity"])
        #expect(card["set"] as? String == "bfz" && card["collector_number"] as? String == "171")
        let evidence = try #require(identified["evidence"] as? [String: Any])
        #expect(Set(evidence.keys) == ["method", "border", "text"])
        #expect(evidence["method"] as? String == "exact" && evidence["text"] is NSNull, "identified by title and number: no text read")
        let quad = try #require(identified["quad"] as? [[Double]])
        #expect(quad.count == 4 && quad.allSatisfy { $0.count == 2 && $0.allSatisfy { (0...1).contains($0) } })
        let error = try #require(statuses["error"])
        #expect((error["error"] as? String)?.contains("broken.jpg") == true)
        #expect(error["card"] is NSNull)
    }

    @Test("scan --annotate draws each photo with its cards numbered; a folder that cannot be made is one line, exit 2")
    func annotate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let home = dir.appendingPathComponent("home").path, drawings = dir.appendingPathComponent("seen")
        let row = "Fixtures/synthetic/row_5_touching.jpg", one = "Fixtures/synthetic/broodhunter_wurm_flat.png"
        let r = try CLI.run(["scan", row, one, "--json", "--jobs", "2", "--annotate", drawings.path], environment: ["CARDSCAN_HOME": home])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.split(separator: "\n").count == 6, "five cards in the row and one scan")
        let written = try FileManager.default.contentsOfDirectory(atPath: drawings.path).sorted()
        #expect(written == ["Fixtures_synthetic_broodhunter_wurm_flat.png.png", "Fixtures_synthetic_row_5_touching.jpg.png"])
        for name in written {
            let data = try Data(contentsOf: drawings.appendingPathComponent(name))
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is a PNG")
        }
        // The row is drawn at its size (1600 px), with the list of its five cards over it.
        let png = try Data(contentsOf: drawings.appendingPathComponent("Fixtures_synthetic_row_5_touching.jpg.png"))
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1600)

        try "a file".write(to: dir.appendingPathComponent("taken"), atomically: true, encoding: .utf8)
        let blocked = try CLI.run(["scan", one, "--annotate", dir.appendingPathComponent("taken/seen").path], environment: ["CARDSCAN_HOME": home])
        #expect(blocked.status == 2)
        #expect(blocked.err.split(separator: "\n").filter { $0.contains("taken/seen") }.count == 1, "\(blocked.err)")
        #expect(blocked.out.isEmpty, "nothing is scanned")
    }

    @Test("scan --jobs 2 of one photo of nine cards: its regions read on both engines, the same records as --jobs 1 but the times")
    func severalCardsOnTwoJobs() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        func records(_ jobs: String) throws -> [NSDictionary] {
            let r = try CLI.run(["scan", "Fixtures/synthetic/binder_3x3.jpg", "--json", "--jobs", jobs], environment: ["CARDSCAN_HOME": home])
            #expect(r.status == 0, "\(r.err)")
            return try r.out.split(separator: "\n").map { line in
                var record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                record["timings_ms"] = nil
                return record as NSDictionary
            }
        }
        let one = try records("1"), two = try records("2")
        #expect(one.count == 9)
        #expect(two == one)
    }

    @Test("identify exits 0 for an identified card and 1 for an ambiguous one")
    func identifyExit() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let ok = try CLI.run(["identify", "Fixtures/synthetic/sheoldred_the_apocalypse_flat.png"], environment: ["CARDSCAN_HOME": home])
        #expect(ok.status == 0)
        #expect(ok.out.contains("Sheoldred, the Apocalypse") && ok.out.contains("DMU #107"))
        let ambiguous = try CLI.run(["identify", "Fixtures/synthetic/counterspell_flat.png"], environment: ["CARDSCAN_HOME": home])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.out.contains("Counterspell — printing not certain"))
    }
}
