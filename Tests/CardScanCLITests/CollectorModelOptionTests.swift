import CardScanOCR
import Foundation
import TestSupport
import Testing

/// `--collector-model`: which model reads the collector lines, from the command line.
@Suite("--collector-model")
struct CollectorModelOptionTests {
    static let photo = CLI.root.appendingPathComponent("Fixtures/synthetic/broodhunter_wurm_flat.png").path

    @Test("a named model reads the collector band; a folder without it is a one-line error naming the folder")
    func namedModel() throws {
        let general = try Tessdata.locate(explicit: nil, languages: ["eng"])
        let read = try CLI.run(["read", Self.photo, "--json", "--collector-model", "\(general):eng"])
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out.contains("\"title\""))
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-no-models-\(UUID().uuidString.prefix(8))").path
        let refused = try CLI.run(["read", Self.photo, "--collector-model", missing])
        #expect(refused.status == 2)
        #expect(refused.err.contains(missing) && refused.err.contains("cardscan_collector.traineddata"), "\(refused.err)")
        #expect(refused.err.split(separator: "\n").count == 1, "\(refused.err)")
    }
}
