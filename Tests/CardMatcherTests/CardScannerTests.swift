import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import CardScanner
import Foundation
import TestSupport
import Testing

@Suite("CardScanner: photo → cards, reading the text when title and collector lines do not settle it", .tags(.sharedData), .needsSharedData)
struct CardScannerTests {
    static func scanner() throws -> CardScanner {
        try CardScanner(catalog: try SharedCardData.catalog.get().catalog)
    }

    /// A white-framed 2015 card on a white wall, read cleanly (title and collector lines).
    static let felidarCub = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/photos/normal/bfz_felidar_cub.JPG").path

    /// `image` scanned with no photo-text reads (the later resort), after checking the premise
    /// that without the places kept for the text to decide (`CardReading.elsewhere`) nothing
    /// names its card.
    static func scanWithPlacesElsewhere(_ image: Image, catalog: CardCatalog) throws -> [CardScanner.Card] {
        var off = CardReader.Options()
        off.tuning.photoText.turns = 0
        off.tuning.lastResorts.placesElsewhere = 0
        let without = try CardScanner(catalog: catalog, options: off).scan(image: image)
        #expect(without.allSatisfy { $0.match.name == nil }, "the premise: \(without.map { "\($0.match.name ?? "-") \($0.match.method)" })")
        var on = CardReader.Options()
        on.tuning.photoText.turns = 0
        return try CardScanner(catalog: catalog, options: on).scan(image: image)
    }

    /// `pixels` (`width` x `height`, grey) as an image the reader decodes (a PGM in memory).
    static func image(gray pixels: [UInt8], width: Int, height: Int, name: String) throws -> Image {
        try Image(data: Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels), name: name)
    }

    /// The offsets in `gray` of the pixels inside the part `u0…u1` × `v0…v1` of the card at `q`
    /// (card coordinates: u right, v down, 0–1 over the card; bilinear in the quad, TL, TR, BR, BL).
    static func pixels(of q: [PixelPoint], in gray: GrayImage, u0: Double, v0: Double, u1: Double, v1: Double) -> [Int] {
        func photo(_ u: Double, _ v: Double) -> PixelPoint {
            let top = PixelPoint(x: q[0].x + (q[1].x - q[0].x) * u, y: q[0].y + (q[1].y - q[0].y) * u)
            let bottom = PixelPoint(x: q[3].x + (q[2].x - q[3].x) * u, y: q[3].y + (q[2].y - q[3].y) * u)
            return PixelPoint(x: top.x + (bottom.x - top.x) * v, y: top.y + (bottom.y - top.y) * v)
        }
        let corners = [photo(u0, v0), photo(u1, v0), photo(u1, v1), photo(u0, v1)]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        // Inside: on the same side of each edge, clockwise (the quad runs TL, TR, BR, BL).
        func inside(_ x: Double, _ y: Double) -> Bool {
            (0..<4).allSatisfy { i in
                let a = corners[i], b = corners[(i + 1) % 4]
                return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) >= 0
            }
        }
        var at: [Int] = []
        for y in max(0, Int(ys.min()!))..<min(gray.height, Int(ys.max()!) + 1) {
            for x in max(0, Int(xs.min()!))..<min(gray.width, Int(xs.max()!) + 1) where inside(Double(x), Double(y)) {
                at.append(y * gray.width + x)
            }
        }
        return at
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
        let path = Self.felidarCub
        let card = try Self.scanner().scan(contentsOf: path).cards[0]
        #expect(card.match.status == .identified && card.match.card?.name == "Felidar Cub")
        #expect(!card.reading.observations.contains { $0.region == .textBox || $0.region == .credits })
    }

    @Test("when no card found in a photo was recognised, the photo's words still name the card (real OCR)")
    func photoTextNamesAMissedCard() throws {
        // A photo whose card the reader is taken to have missed: one reading with no quad and
        // nothing read on it, as when the locator finds no card.
        let path = Self.felidarCub
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

    @Test("a card the locator found as its text box is read at the card placed around that box (real OCR)")
    func cardPlacedAroundItsTextBox() throws {
        // A dark-framed card on a dark shelf, the photo at half size: the locator's region is a
        // part of the card, and nothing read there or on the whole photo's title band names it.
        // (No photo-text reads: they are the later resort.)
        let path = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/photos/busy_background/dtk_gurmag_drowner_3.JPG").path
        let full = try Image(contentsOf: path).grayPixels()
        let (w, h) = (full.width / 2, full.height / 2)
        var half = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let at = 2 * y * full.width + 2 * x
                let sum = Int(full.pixels[at]) + Int(full.pixels[at + 1]) + Int(full.pixels[at + full.width]) + Int(full.pixels[at + full.width + 1])
                half[y * w + x] = UInt8(sum / 4)
            }
        }
        let image = try Self.image(gray: half, width: w, height: h, name: "half.pgm")
        let cards = try Self.scanWithPlacesElsewhere(image, catalog: try SharedCardData.catalog.get().catalog)
        #expect(cards.count == 1)
        let card = try #require(cards.first)
        #expect(card.match.name == "Gurmag Drowner", "\(card.match.method) \(card.match.text?.bestName ?? "-")")
        #expect(card.reading.observations.contains { $0.region == .textBox })
        // Reported where the card is: its centre on the card (38–59% across, 25–46% up).
        let quad = try #require(card.reading.quad).normalized(width: image.width, height: image.height)
        let (x, y) = (quad.map { $0[0] }.reduce(0, +) / 4, quad.map { $0[1] }.reduce(0, +) / 4)
        #expect(x > 0.38 && x < 0.59 && y > 0.25 && y < 0.46, "\(quad)")
    }

    @Test("a card cut by the photo's edge through its title is read at the card placed around its art (real OCR)")
    func cardCutThroughItsTitle() throws {
        // A Spanish card, the photo cut 6% of the card's height below its top edge (as
        // `scripts/robustness.sh cuttop` does; its corners in Fixtures/robustness/card-corners.csv:
        // top edge at y ≈ 52, bottom at ≈ 387): the card runs into the photo's top edge, and no
        // title or collector line reads. Its text, read where the card lies around its art, names
        // it. (No photo-text reads: the later resort.)
        let path = SharedCardData.root.appendingPathComponent("photos/notavu/test_images/opt_es.jpg").path
        let full = try Image(contentsOf: path).grayPixels()
        let cut = 72
        let image = try Self.image(gray: Array(full.pixels[(cut * full.width)...]), width: full.width, height: full.height - cut, name: "cut.pgm")
        // Its Spanish text is in MTGJSON's set file, with every English card beside it.
        try SharedCardData.withCatalog(of: [SharedCardData.scryfall2019, SharedCardData.setFile("DOM")]) { catalog in
            let card = try #require(try Self.scanWithPlacesElsewhere(image, catalog: catalog).first)
            #expect(card.match.name == "Opt", "\(card.match.method) \(card.match.text?.bestName ?? "-")")
            #expect(card.reading.observations.contains { $0.region == .textBox })
            // Reported where the card lies: its top edge beyond the photo's.
            let quad = try #require(card.reading.quad)
            #expect(quad.corners.map(\.y).min() ?? 0 < 0, "\(quad.corners)")
        }
    }

    @Test("a card whose edges merge with the table, found as its art, is read at the card placed around the art (real OCR)")
    func cardPlacedAroundItsArt() throws {
        // A white-framed card on a white wall, its bottom 8% painted over in the wall's colour (as
        // `scripts/robustness.sh`'s `nobottom` copies are): the locator's region is the art, the
        // one strong rectangle left, which it takes for a card lying sideways.
        let path = Self.felidarCub
        let catalog = try SharedCardData.catalog.get().catalog
        // Neither the photo's text nor cards placed around text boxes: only the art round can
        // place the card (without it, the card is not named).
        var options = CardReader.Options()
        options.tuning.photoText.turns = 0
        options.tuning.lastResorts.textBoxes = 0
        let scanner = try CardScanner(catalog: catalog, options: options)
        let intact = try scanner.scan(contentsOf: path).cards[0]
        #expect(intact.match.name == "Felidar Cub", "the premise: the whole card is found and read")
        let q = try #require(intact.reading.quad).corners
        var gray = try Image(contentsOf: path).grayPixels()
        func pixels(u0: Double, v0: Double, u1: Double, v1: Double) -> [Int] {
            Self.pixels(of: q, in: gray, u0: u0, v0: v0, u1: u1, v1: v1)
        }
        let wall = pixels(u0: 1.02, v0: 0.85, u1: 1.10, v1: 1.0).map { gray.pixels[$0] }.sorted()
        let colour = try #require(wall.isEmpty ? nil : wall[wall.count / 2])
        for at in pixels(u0: -0.03, v0: 0.92, u1: 1.03, v1: 1.04) { gray.pixels[at] = colour }
        let image = try Self.image(gray: gray.pixels, width: gray.width, height: gray.height, name: "nobottom.pgm")
        let cards = try scanner.scan(image: image)
        #expect(cards.count == 1)
        let card = try #require(cards.first)
        #expect(card.match.name == "Felidar Cub", "\(card.match.method) \(card.reading.fields.title?.value ?? "-")")
        // Reported as the card, not its art: as wide as the card found whole, upright.
        let found = try #require(card.reading.quad).corners
        let width = hypot(found[1].x - found[0].x, found[1].y - found[0].y), whole = hypot(q[1].x - q[0].x, q[1].y - q[0].y)
        #expect(abs(width - whole) < 0.1 * whole && found[0].y < found[3].y, "\(found) against \(q)")
    }

    @Test("a card whose title is painted over is read the way up its text box says, and identified by its collector lines and text (real OCR)")
    func titleLessCardKeepsDecisiveWayUp() throws {
        // A blue 2015 card on a shelf, its title bar painted in the bar's own colour (as
        // `scripts/robustness.sh`'s `notitle` copies are): nothing names it at the title band.
        // It is read the way up its text box says (turned round, the rules text upside down
        // reads as text-like noise: `OrientationTests.overruledWay`), where its collector lines
        // and its text tell the printing of the two that print its text.
        let path = SharedCardData.root.appendingPathComponent("photos/alexandrearpin/photos/busy_background/dtk_gurmag_drowner_2.JPG").path
        let scanner = try Self.scanner()
        let intact = try scanner.scan(contentsOf: path).cards[0]
        #expect(intact.match.card.map { "\($0.setCode) \($0.collectorNumber)" } == "dtk 57", "the premise: the whole card identified")
        let q = try #require(intact.reading.quad).corners
        var gray = try Image(contentsOf: path).grayPixels()
        let bar = Self.pixels(of: q, in: gray, u0: 0.04, v0: 0.03, u1: 0.96, v1: 0.135)
        let colour = bar.map { gray.pixels[$0] }.sorted()[bar.count / 2]
        for at in bar { gray.pixels[at] = colour }
        let image = try Self.image(gray: gray.pixels, width: gray.width, height: gray.height, name: "notitle.pgm")
        let card = try #require(try scanner.scan(image: image).first)
        #expect(card.match.status == .identified && card.match.card.map { "\($0.setCode) \($0.collectorNumber)" } == "dtk 57",
                "\(card.match.status) \(card.match.method) \(card.match.candidates.map { "\($0.printing.setCode) \($0.printing.collectorNumber)" })")
        #expect(card.reading.rotation == intact.reading.rotation)
    }
}
