import CardCatalog
import CardMatcher
import CardReader
import Foundation
import Testing
import TestSupport

/// The whole identification on the labelled single-card photos of `../shared/photos`: real photos,
/// real Tesseract, a catalog imported from both shared card-data files.
@Suite("Identification floor on ../shared/photos (regression)")
struct SharedPhotoMatchTests {
    /// Measured 2026-11-24 (session 6): printing 29/31 of photo_single images with a number, no
    /// identified card wrong. Raise the floor as matching improves.
    static let printingFloor = 0.90

    static let shared = SharedCardData.root


    @Test("photo_single: printings identified stay above the floor, and no identified card is wrong")
    func floor() throws {
        let catalog = try SharedCardData.catalog.get().catalog
        let reader = try CardReader(options: CardReader.Options().withVocabularies(of: catalog))
        let matcher = CardMatcher(catalog: catalog)
        let labels = try String(contentsOf: Self.shared.appendingPathComponent("photos/labels.csv"), encoding: .utf8)
        var numbered = 0, printings = 0, identified = 0, wrong: [String] = []
        for line in labels.split(whereSeparator: \.isNewline).dropFirst() {
            let cells = csvCells(String(line))
            guard cells.count >= 5, cells[4] == "photo_single" else { continue }
            let (file, name, set, number) = (cells[0], cells[1], cells[2], cells[3])
            let result = try matcher.match(try reader.read(contentsOf: Self.shared.appendingPathComponent("photos/\(file)").path))
            let right = { (p: Printing) in
                p.name.components(separatedBy: " // ")[0].lowercased() == name.components(separatedBy: " // ")[0].lowercased()
                    && (number.isEmpty || (p.setCode == set && p.collectorNumber == number))
            }
            if let card = result.card {
                identified += 1
                if !right(card) { wrong.append("\(file): \(card.name) \(card.setCode) \(card.collectorNumber)") }
            }
            guard !number.isEmpty else { continue }
            numbered += 1
            if let card = result.card, right(card) { printings += 1 }
        }
        print("identification: printing \(printings)/\(numbered), identified \(identified), wrong \(wrong)")
        #expect(numbered >= 30)
        #expect(Double(printings) / Double(numbered) >= Self.printingFloor)
        #expect(wrong.isEmpty)
    }
}
