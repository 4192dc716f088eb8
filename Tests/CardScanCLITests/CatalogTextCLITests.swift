import Foundation
import TestSupport
import Testing

/// `cardscan catalog text`: printings by their printed words, from the real binary.
@Suite("catalog text (real binary, MTGJSON set file)")
struct CatalogTextCLITests {
    static let m19 = CLI.root.deletingLastPathComponent().appendingPathComponent("shared/carddata/mtgjson-2022/sets/M19.json").path

    @Test("finds a printing by damaged rules and flavor text, reads stdin, exits 1 on nothing, fails in one line on a catalog without texts")
    func text() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-cli-text-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = dir.appendingPathComponent("catalog.sqlite").path
        #expect(try CLI.run(["catalog", "import", Self.m19, "--catalog", catalog]).status == 0)

        let found = try CLI.run(["catalog", "text", "--catalog", catalog, "Creature — Dragon", "Flyinq",
                                 "The undisputed rnaster of the mountains of Shiv."])
        #expect(found.status == 0)
        let first = found.out.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("Shivan Dragon  m19 300 en"), "\(found.out)")
        #expect(found.out.contains("undisputed (flavor)"))
        #expect(found.err.contains("rnaster → master"))

        // `-` reads the text from standard input (e.g. piped from an OCR tool).
        let piped = CLI.process(["catalog", "text", "--catalog", catalog, "--json", "-"])
        let input = Pipe(), output = Pipe()
        piped.standardInput = input
        piped.standardOutput = output
        try piped.run()
        input.fileHandleForWriting.write(Data("The undisputed master of the mountains of Shiv.\n".utf8))
        try input.fileHandleForWriting.close()
        let jsonOut = output.fileHandleForReading.readDataToEndOfFile()
        piped.waitUntilExit()
        #expect(piped.terminationStatus == 0)
        let object = try JSONSerialization.jsonObject(with: jsonOut) as? [String: Any]
        let matches = object?["matches"] as? [[String: Any]] ?? []
        #expect((matches.first?["printing"] as? [String: Any])?["collectorNumber"] as? String == "300")

        let nothing = try CLI.run(["catalog", "text", "--catalog", catalog, "zqxj wvvkp"])
        #expect(nothing.status == 1)

        // A catalog from before card texts were kept: an error in one line naming the file (its exit
        // status is the CLI's error status, issue 26).
        let old = try CLI.run(["catalog", "import", Self.m19, "--catalog", dir.appendingPathComponent("old.sqlite").path])
        #expect(old.status == 0)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [dir.appendingPathComponent("old.sqlite").path,
                            "DROP TABLE printing_text_vocab; DROP TABLE printing_text; UPDATE catalog_meta SET value = '3' WHERE key = 'schema_version'"]
        try sqlite.run()
        sqlite.waitUntilExit()
        let refused = try CLI.run(["catalog", "text", "--catalog", dir.appendingPathComponent("old.sqlite").path, "Flying"])
        #expect(refused.status != 0)
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("old.sqlite") && refused.err.contains("import again"))
        #expect(refused.err.split(separator: "\n").count == 1)
    }
}
