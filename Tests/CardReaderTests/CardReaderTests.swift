import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import Foundation
import TestSupport
import Testing

/// Paths resolved from this file.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func fixture(_ name: String) -> String { root.appendingPathComponent("Fixtures/synthetic/\(name)").path }
    static let shared = root.appendingPathComponent("../shared/photos").standardizedFileURL
}

@Suite("Card reader on synthetic fixtures (real Tesseract)")
struct CardReaderFixtureTests {
    @Test("2015 frame: title, 171/274 C, BFZ • EN")
    func frame2015() throws {
        let r = try CardReader().read(contentsOf: Paths.fixture("broodhunter_wurm_flat.png"))
        #expect(r.fields.title?.value == "Broodhunter Wurm")
        #expect(r.fields.collectorNumber?.value == "171")
        #expect(r.fields.setSize?.value == 274)
        #expect(r.fields.rarity?.value == "C")
        #expect(r.fields.setCode?.value == "bfz")
        #expect(r.fields.language?.value == "en")
        #expect(r.fields.frameEra == .modern2015)
    }

    @Test("2023 frame: 0107 M over DMU • EN, in a rotated photo")
    func frame2023() throws {
        let r = try CardReader().read(contentsOf: Paths.fixture("sheoldred_the_apocalypse_photo.jpg"))
        #expect(r.fields.title?.value == "Sheoldred, the Apocalypse")
        #expect(r.fields.collectorNumber?.value == "107")
        #expect(r.fields.setCode?.value == "dmu")
        #expect(r.fields.frameEra == .modern2023)
    }

    @Test("EXIF-rotated and upside-down photos still give the title", arguments: [
        "sheoldred_the_apocalypse_exif6.jpg", "broodhunter_wurm_exif6.jpg", "broodhunter_wurm_upside_down.jpg",
    ])
    func rotated(file: String) throws {
        let r = try CardReader().read(contentsOf: Paths.fixture(file))
        let title = try #require(r.fields.title?.value)
        let expected = file.hasPrefix("sheoldred") ? "Sheoldred, the Apocalypse" : "Broodhunter Wurm"
        // The card was found and read the right way up: its first word comes back intact (the rest
        // may be damaged; the matcher's fuzzy lookup absorbs that).
        let firstWord = expected.split(separator: " ")[0].lowercased().filter(\.isLetter)
        #expect(title.lowercased().filter(\.isLetter).contains(firstWord))
    }

    @Test("the locator's corners land near the generator's ground truth")
    func quad() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("quads.json")))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try #require(json["gurmag_drowner_photo.jpg"] as? [String: Any])
        let card = try #require((entry["cards"] as? [[String: Any]])?.first)
        let truth = try #require(card["quad"] as? [[Double]])
        let r = try CardReader().read(contentsOf: Paths.fixture("gurmag_drowner_photo.jpg"))
        let found = try #require(r.quad?.corners)
        let cardWidth = hypot(truth[1][0] - truth[0][0], truth[1][1] - truth[0][1])
        for (p, t) in zip(found, truth) {
            #expect(hypot(p.x - t[0], p.y - t[1]) < cardWidth * 0.05, "corner \(p) vs \(t)")
        }
    }
}

@Suite("Card reader accuracy floor on ../shared/photos (regression)", .tags(.sharedData), .needsSharedData)
struct CardReaderAccuracyTests {
    /// Floors reached by the reader (with the catalog's vocabularies, as `identify` runs it) when
    /// this test was written, minus a small margin; raise them as the reader improves.
    /// Measured 2026-11-22: title 33/38, set+number 19/31; 2026-11-23: title 33/38, set+number 22/31;
    /// 2026-11-24: title 35/38, set+number 23/31; with the text-box fallback, title 36/38.
    /// 2026-11-25: set+number 24/31 with the half-size collector retry. Later that day the shared
    /// folders grew (esbillyjack, fortierq, notavu, lexicalunit: 1990s cards in toploaders,
    /// Spanish and Japanese cards, webcam frames) to 52 single-card photos, 38 with a number: title
    /// 42/52, set+number 27/38 (the first 38 photos read as before).
    static let titleFloor = 0.78
    static let printingFloor = 0.68

    /// The catalog built once from both shared card-data files (MTGJSON brings the printed set
    /// sizes); it supplies the set-code and title vocabularies.
    static var catalog: Result<CardCatalog, Error> { SharedCardData.catalog.map(\.catalog) }

    static func reader() throws -> CardReader {
        let catalog = try catalog.get()
        return try CardReader(options: CardReader.Options().withVocabularies(of: catalog))
    }

    /// A shared photo (path under `../shared/photos`) read by `reader()`.
    static func readShared(_ relativePath: String) throws -> CardReading {
        try reader().read(contentsOf: Paths.shared.appendingPathComponent(relativePath).path)
    }

    @Test("reading with the photo kept for --annotate reads exactly what a plain read does")
    func annotateReadsTheSame() throws {
        let reader = try Self.reader()
        // A folded card on a shadow: the locator's thresholds sit close to the grey levels here.
        let path = Paths.shared.appendingPathComponent("alexandrearpin/photos/damaged/ori_aven_battle_priest_2.JPG").path
        let plain = try reader.read(contentsOf: path)
        let (kept, photo) = try reader.readKeepingPhoto(contentsOf: path)
        #expect(kept.fields == plain.fields)
        #expect(kept.quad == plain.quad)
        #expect(photo.isColor, "the kept photo is in colour, for drawing on")
    }

    @Test("a 1993 title, pale letters outlined in black on a textured bar, reads through its local contrast")
    func paleOldTitle() throws {
        // Tesseract reads the band as it is as `Dz Wis i eee`: its global threshold splits the
        // outlined letters. The rescue's binarisation keeps what is lighter than its surroundings.
        let r = try Self.readShared("tmikonen/example/dragon_whelp.jpg")
        #expect(r.fields.title?.value == "Dragon Whelp")
        #expect(r.fields.collectorNumber == nil, "an Alpha-era card prints no number")
    }

    @Test("a card in a dark stand: the quad's flared sides give way to a card-shaped quad below the title")
    func cardInStand() throws {
        // The black border merges with the stand below it: the located quad runs down into the stand.
        let r = try Self.readShared("thaen/single/one-card.jpg")
        #expect(r.fields.title?.value == "Slingbow Trap")
        let quad = try #require(r.quad)
        // The card's bottom edge is about a quarter of the way up the photo; the stand reaches its foot.
        let bottom = quad.corners.map(\.y).max() ?? 0
        #expect(bottom < Double(r.imageHeight) * 0.80, "bottom corner at \(Int(bottom)) of \(r.imageHeight) px")
    }

    @Test("a dark card on a dark shelf, lost to the locator, is found around its light text box")
    func cardAroundTextBox() throws {
        // The black border and the shelf are the same grey; the text box is the card's one light part.
        let r = try Self.readShared("alexandrearpin/photos/busy_background/dtk_gurmag_drowner_3.JPG")
        #expect(r.fields.title?.value == "Gurmag Drowner")
    }

    @Test("a region that runs into the photo's edge gives way to a whole card inside it")
    func regionAtPhotoEdge() throws {
        // Steam Vents and Sulfur Falls side by side on a play mat (unlabelled; checked by eye): the
        // two cards and the mat's dark edge made one card-shaped region reaching the photo's
        // bottom, whose title band read `rh fag Tw`. Sulfur Falls alone is the better card.
        let r = try Self.readShared("hj3yoo/photos_unlabeled/test8.jpg")
        #expect(r.fields.title?.value == "Sulfur Falls")
        let quad = try #require(r.quad)
        #expect(quad.corners.allSatisfy { $0.x > Double(r.imageWidth) / 2 }, "the card on the right")
    }

    @Test("blurred collector lines that read as noise at full size read at half size")
    func blurredCollectorLines() throws {
        // Full size, Tesseract reads `OS?/264 €` over `OTM > Em`; at half size `057/264 C` over `OTK + Em`.
        let r = try Self.readShared("alexandrearpin/photos/busy_background/dtk_gurmag_drowner_2.JPG")
        #expect(r.fields.title?.value == "Gurmag Drowner")
        #expect(r.fields.setCode?.value == "dtk")
        #expect(r.fields.collectorNumber?.value == "57")
    }

    @Test("a photo of several cards gives several readings; a photo or scan of one card gives one")
    func multipleCards() throws {
        let reader = try Self.reader()
        // Eight Alpha cards on a table with dice on them: three Mind Twist, four Dark Ritual, Demonic Tutor.
        let many = try reader.readAll(contentsOf: Paths.shared.appendingPathComponent("tmikonen/example/black.jpg").path)
        let titles = many.compactMap { $0.fields.title?.value }
        print("multi-card photo: \(many.count) readings: \(titles)")
        #expect(many.count >= 4)
        #expect(titles.filter { $0 == "Mind Twist" }.count >= 2)
        #expect(titles.contains("Dark Ritual"))
        // Corners of different readings are different cards: no two share a centre.
        let centres: [(Double, Double)] = many.compactMap(\.quad).map { q in
            let xs: [Double] = q.corners.map(\.x), ys: [Double] = q.corners.map(\.y)
            return (xs.reduce(0, +) / 4, ys.reduce(0, +) / 4)
        }
        #expect(centres.count == many.count)
        for i in centres.indices {
            for j in centres.indices where j > i {
                let d: Double = hypot(centres[i].0 - centres[j].0, centres[i].1 - centres[j].1)
                #expect(d > 50)
            }
        }
        for file in ["alexandrearpin/photos/normal/bfz_felidar_cub.JPG", "hj3yoo/scans/c16-143-burgeoning.png"] {
            let one = try reader.readAll(contentsOf: Paths.shared.appendingPathComponent(file).path)
            #expect(one.count == 1, "\(file): \(one.count) readings")
        }
    }

    @Test("photo_single: title and set+number accuracy stay above the floor")
    func floor() throws {
        let labels = try String(contentsOf: Paths.shared.appendingPathComponent("labels.csv"), encoding: .utf8)
        var rows: [(file: String, name: String, set: String, number: String)] = []
        for line in labels.split(whereSeparator: \.isNewline).dropFirst() {
            let cells = csvCells(String(line))
            guard cells.count >= 5, cells[4] == "photo_single" else { continue }
            rows.append((cells[0], cells[1], cells[2], cells[3]))
        }
        #expect(rows.count >= 30)
        let reader = try Self.reader()
        var titles = 0, printings = 0, numbered = 0
        for row in rows {
            let r = try reader.read(contentsOf: Paths.shared.appendingPathComponent(row.file).path)
            let front = row.name.components(separatedBy: " // ")[0].lowercased()
            if r.fields.title?.value.lowercased() == front { titles += 1 }
            guard !row.number.isEmpty else { continue }
            numbered += 1
            if r.fields.setCode?.value == row.set, r.fields.collectorNumber?.value == row.number { printings += 1 }
        }
        let titleRate = Double(titles) / Double(rows.count), printingRate = Double(printings) / Double(max(1, numbered))
        print("reader accuracy: title \(titles)/\(rows.count), set+number \(printings)/\(numbered)")
        #expect(titleRate >= Self.titleFloor)
        #expect(printingRate >= Self.printingFloor)
    }
}
