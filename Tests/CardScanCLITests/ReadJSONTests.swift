import CardScanOCR
import Foundation
import TestSupport
import Testing

@Suite("read --json (real binary, real OCR)")
struct ReadJSONTests {
    @Test("read --json writes snake_case keys, as scan --json does")
    func snakeCaseKeys() throws {
        let r = try CLI.run(["read", "Fixtures/synthetic/broodhunter_wurm_flat.png", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(obj["image_width"] is Int && obj["locate_confidence"] != nil)
        let fields = try #require(obj["fields"] as? [String: Any])
        #expect(fields["collector_number"] != nil && fields["set_code"] != nil)
        // No key anywhere in the document is camelCase.
        func keys(_ value: Any) -> [String] {
            if let d = value as? [String: Any] { return d.keys + d.values.flatMap(keys) }
            if let a = value as? [Any] { return a.flatMap(keys) }
            return []
        }
        let camel = keys(obj).filter { $0.contains(where: \.isUppercase) }
        #expect(camel.isEmpty, "camelCase keys: \(Set(camel).sorted())")
    }

    @Test("read --bands writes the bands the reader gives Tesseract, upright and readable")
    func bandsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bands-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try CLI.run(["read", "Fixtures/synthetic/broodhunter_wurm_photo.jpg", "--bands", folder])
        #expect(r.status == 0, "\(r.err)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(written == ["broodhunter_wurm_photo.collector.png", "broodhunter_wurm_photo.copyright.png", "broodhunter_wurm_photo.title.png"])
        // The collector band holds two lines of small print: wider than tall, and read again by
        // Tesseract from the file it reads as the reader does.
        let collector = try Image(contentsOf: "\(folder)/broodhunter_wurm_photo.collector.png")
        #expect(collector.width > collector.height)
        let text = try TextRecognizer().recognize(collector, options: RecognitionOptions(pageSegmentation: .sparseText))
        #expect(text.contains { $0.text.contains("274") }, "\(text.map(\.text))")
    }
}
