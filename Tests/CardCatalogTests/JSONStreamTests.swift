import Foundation
import Testing
@testable import CardCatalog

/// The streaming splitter on small hand-written inputs.
@Suite("JSON element stream")
struct JSONStreamTests {
    private func events(_ text: String) throws -> [String] {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try writeFile(dir, "x.json", text)
        var out: [String] = []
        try JSONElementStream(reader: CompressedFileReader(path: path)).run { event in
            switch event {
            case let .rootArrayElement(d): out.append("root:" + String(decoding: d, as: UTF8.self))
            case let .dataArrayElement(d): out.append("data:" + String(decoding: d, as: UTF8.self))
            case let .meta(d): out.append("meta:" + String(decoding: d, as: UTF8.self))
            case let .mtgjsonCard(d): out.append("card:" + String(decoding: d, as: UTF8.self))
            case let .mtgjsonSet(f): out.append("set:" + (f["code"]?.string ?? "?") + "/" + String(f["baseSetSize"]?.int ?? -1))
            }
        }
        return out
    }

    @Test("Top-level array on one line, brackets and escaped quotes inside strings")
    func rootArray() throws {
        let got = try events(#"[{"a":"x]}\"{"},{"b":[1,{"c":"}"}]} , {} ]"#)
        #expect(got == [#"root:{"a":"x]}\"{"}"#, #"root:{"b":[1,{"c":"}"}]}"#, "root:{}"])
    }

    @Test("Pretty-printed array with newlines and an empty array")
    func pretty() throws {
        #expect(try events("[\n  {\"a\": 1},\n  {\"a\": 2}\n]\n") == ["root:{\"a\": 1}", "root:{\"a\": 2}"])
        #expect(try events(" [ ] ") == [])
    }

    @Test("A UTF-8 byte-order mark is skipped")
    func byteOrderMark() throws {
        #expect(try events("\u{FEFF}[{\"a\":1}]") == ["root:{\"a\":1}"])
    }

    @Test("MTGJSON AllPrintings shape: cards of every set, set scalars after the cards")
    func allPrintings() throws {
        let text = #"{"meta":{"date":"2022-04-25"},"data":{"AAA":{"baseSetSize":2,"booster":{"x":{"cards":[1]}},"cards":[{"n":1},{"n":2}],"code":"AAA","tokens":[{"t":1}]},"BBB":{"cards":[],"code":"B\u0042B"}}}"#
        #expect(try events(text) == [#"meta:{"date":"2022-04-25"}"#, #"card:{"n":1}"#, #"card:{"n":2}"#, "set:AAA/2", "set:BBB/-1"])
    }

    @Test("MTGJSON per-set shape")
    func perSet() throws {
        let text = #"{"meta":{},"data":{"baseSetSize":1,"cards":[{"n":1}],"code":"CCC","translations":{"French":"x"}}}"#
        #expect(try events(text) == ["meta:{}", #"card:{"n":1}"#, "set:CCC/1"])
    }

    @Test("Scryfall API list shape")
    func dataList() throws {
        #expect(try events(#"{"object":"list","has_more":false,"data":[{"a":1}]}"#) == [#"data:{"a":1}"#])
    }

    @Test("Truncated and non-JSON input fail with the file named")
    func truncated() throws {
        for text in [#"[{"a":1},{"b":"#, "[{\"a\":1}", "hello", "", #"{"data":[{"a":1}"#] {
            do {
                _ = try events(text)
                Issue.record("no error for \(text)")
            } catch let error as CatalogError {
                #expect(error.description.contains("x.json"))
            }
        }
    }
}
