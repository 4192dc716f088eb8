import CardCatalog
import CardMatcher
import CardReader
import CardScanner
import Foundation
import Testing
import TestSupport

@Suite("CardScanner: photo → cards, reading the text when title and collector lines do not settle it", .tags(.sharedData), .needsSharedData)
struct CardScannerTests {
    static func scanner() throws -> CardScanner {
        try CardScanner(catalog: try SharedCardData.catalog.get().catalog)
    }

    @Test("a reprinted card read by its title alone is told from its reprints by its text (real OCR)")
    func textPicksThePrinting() throws {
        // A Gatherer scan of Thornbow Archer: the title reads but no set and number do, and the
        // name has several printings.
        let path = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/scans/gatherer/ori_thornbow_archer.jpg").path
        let scanner = try Self.scanner()
        scanner.readsText = false
        let titleOnly = try scanner.scan(contentsOf: path).cards[0]
        #expect(titleOnly.match.status == .ambiguous, "the premise: the title alone leaves the printing open")
        #expect(!titleOnly.reading.observations.contains { $0.region == .textBox })
        scanner.readsText = true
        let (cards, _) = try scanner.scan(contentsOf: path)
        let card = cards[0]
        #expect(card.match.status == .identified, "\(card.match.method) \(card.match.candidates.map { "\($0.printing.setCode) \($0.printing.collectorNumber)" })")
        #expect(card.match.card?.setCode == "ori" && card.match.card?.collectorNumber == "121")
        #expect(card.reading.observations.contains { $0.region == .textBox })
        #expect(card.reading.timings.total >= card.reading.timings.ocr + card.reading.timings.match)
    }

    @Test("a card identified by title and collector lines costs no text read")
    func cleanCardReadsNoText() throws {
        let path = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/photos/normal/bfz_felidar_cub.JPG").path
        let card = try Self.scanner().scan(contentsOf: path).cards[0]
        #expect(card.match.status == .identified && card.match.card?.name == "Felidar Cub")
        #expect(!card.reading.observations.contains { $0.region == .textBox || $0.region == .credits })
    }
}
