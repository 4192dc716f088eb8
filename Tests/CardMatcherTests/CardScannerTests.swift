import CardCatalog
import CardMatcher
import CardReader
import CardScanner
import Foundation
import TestSupport
import Testing

@Suite("CardScanner: photo → cards, reading the text when title and collector lines do not settle it", .tags(.sharedData), .needsSharedData)
struct CardScannerTests {
    static func scanner() throws -> CardScanner {
        try CardScanner(catalog: try SharedCardData.catalog.get().catalog)
    }

    @Test("a reprinted card read by its title alone is told from its reprints by its text (real OCR)")
    func textPicksThePrinting() throws {
        // A Gatherer scan of Thornbow Archer: the title reads but no set and number do, and the
        // name has several printings.
        // (Without the second model, whose look at the collector lines reads its set code.)
        let path = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/scans/gatherer/ori_thornbow_archer.jpg").path
        var options = CardReader.Options()
        options.secondModel = .none
        let scanner = try CardScanner(catalog: try SharedCardData.catalog.get().catalog, options: options)
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

    @Test("when no card found in a photo was recognised, the photo's words still name the card (real OCR)")
    func photoTextNamesAMissedCard() throws {
        // A photo whose card the reader is taken to have missed: one reading with no quad and
        // nothing read on it, as when the locator finds no card.
        let path = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/photos/normal/bfz_felidar_cub.JPG").path
        let catalog = try SharedCardData.catalog.get().catalog
        var off = CardReader.Options()
        off.tuning.photoText.turns = 0
        let image = try CardScanner(catalog: catalog, options: off).reader.decode(contentsOf: path)
        let missed = CardReading(file: path, imageWidth: image.width, imageHeight: image.height, quad: nil, rotation: 0,
                                 locateConfidence: 0, fields: ExtractedFields(), observations: [], timings: StageTimings())
        let without = try CardScanner(catalog: catalog, options: off).identify([missed], in: image)
        #expect(without.count == 1 && without[0].match.name == nil, "the premise: with no photo text read, nothing names it")
        let cards = try Self.scanner().identify([missed], in: image)
        #expect(cards.count == 1)
        #expect(cards[0].match.name == "Felidar Cub", "\(cards[0].match.method) \(cards[0].match.text?.bestName ?? "-")")
        #expect(cards[0].match.text?.fromPhoto == true)
        #expect(cards[0].reading.observations.contains { $0.region == .photo })
        #expect(cards[0].reading.timings.ocr > 0, "the photo's reads are counted")
    }
}
