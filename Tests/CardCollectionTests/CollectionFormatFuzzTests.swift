import Foundation
import TestSupport
import Testing
@testable import CardCollection

@Suite("Collection files: random and mutated input (fuzz)")
struct CollectionFormatFuzzTests {
    /// Parsing never crashes: it returns rows and problems, or throws a one-line error that names the file.
    private func parseSafely(_ text: String, _ format: CollectionFormat) {
        do {
            let (holdings, _) = try CollectionFiles.parse(text, format: format, file: "fuzz.csv")
            for h in holdings { #expect(h.quantity >= 0) }
        } catch {
            #expect("\(error)".contains("fuzz.csv"), "error does not name the file: \(error)")
        }
    }

    @Test("mutated real exports of every format", arguments: CollectionFormat.allCases)
    func mutated(format: CollectionFormat) throws {
        let original = Array(try CollectionFiles.export(CollectionFormatTests.holdings, format: format))
        var rng = SeededGenerator(seed: 42 &+ UInt64(format.rawValue.count))
        let alphabet = Array(",\"\n\r;{}[]:0123456789-.abcXYZ é★\u{FEFF}\t")
        for _ in 0..<300 {
            var chars = original
            for _ in 0..<Int.random(in: 1...6, using: &rng) where !chars.isEmpty {
                let i = Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: chars[i] = alphabet.randomElement(using: &rng)!
                case 1: chars.remove(at: i)
                default: chars.insert(alphabet.randomElement(using: &rng)!, at: i)
                }
            }
            if Bool.random(using: &rng) { chars = Array(chars.prefix(Int.random(in: 0...chars.count, using: &rng))) }
            parseSafely(String(chars), format)
        }
    }

    @Test("random bytes as text in every format")
    func random() {
        var rng = SeededGenerator(seed: 7)
        for format in CollectionFormat.allCases {
            for _ in 0..<200 {
                let text = String(decoding: rng.bytes(Int.random(in: 0...400, using: &rng)), as: UTF8.self)
                parseSafely(text, format)
            }
        }
    }
}
