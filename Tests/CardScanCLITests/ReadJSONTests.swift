import Foundation
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
}
