import CardCatalog
import CardMatcher
import CardReader
import CardScanner
import Foundation
import TestSupport
import Testing

/// Photos of several cards, scanned as `cardscan scan` does (real Tesseract, real catalogs).
@Suite("Several cards in one photo: every card found once (real OCR)")
struct SeveralCardsTests {
    static let synthetic = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/synthetic")

    /// The name each card gives: its identified card's, or the one name its candidates share.
    static func names(_ cards: [CardScanner.Card]) -> [String] {
        cards.compactMap { card in
            if let name = card.match.card?.name { return name }
            let names = Set(card.match.candidates.map(\.printing.name))
            return names.count == 1 ? names.first : nil
        }
    }

    /// The generator's card names for `file`, in its order.
    static func truth(_ file: String) throws -> [String] {
        let text = try String(contentsOf: synthetic.appendingPathComponent("truth.csv"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let cells = csvCells(String(line))
            return cells.first == file ? cells[1] : nil
        }
    }

    /// No two cards found lie on one another.
    static func apart(_ cards: [CardScanner.Card]) -> Bool {
        let centres: [(x: Double, y: Double)] = cards.compactMap(\.reading.quad).map { q in
            let xs: [Double] = q.corners.map(\.x), ys: [Double] = q.corners.map(\.y)
            return (xs.reduce(0, +) / 4, ys.reduce(0, +) / 4)
        }
        for i in centres.indices {
            for j in centres.indices where j > i {
                let d: Double = hypot(centres[i].x - centres[j].x, centres[i].y - centres[j].y)
                if d < 100 { return false }
            }
        }
        return true
    }

    /// What a scan says of each card, without timings: its place, the fields read, the match.
    static func essence(_ cards: [CardScanner.Card]) -> [String] {
        cards.map { c in
            "\(c.reading.quad.map { "\($0.corners)" } ?? "-") \(c.reading.fields) \(c.match.status) \(c.match.card?.id ?? "-") "
                + "\(c.match.candidates.map(\.printing.id)) \(c.reading.observations.map(\.observation.text))"
        }
    }

    /// `path` scanned by the first of `scanners` with the others' engines lent to it, each on its
    /// own thread, as `cardscan scan --jobs N` does once no other photo is left; and how many of
    /// the photo's jobs the lent engines ran, and whether the titles outside its cards read ahead
    /// were taken (1) or read again (0).
    static func scanLending(_ path: String, scanners: [CardScanner]) throws -> (cards: [CardScanner.Card], lent: Int, titlesAhead: Int) {
        let helpers = ScanHelpers(workers: scanners.count)
        scanners[0].helpers = helpers
        // Each thread takes its own scanner by index: none is used by two threads.
        nonisolated(unsafe) let shared = scanners
        let next = LockedBox(0), found = LockedBox<[CardScanner.Card]>([])
        try WorkerThreads.run(count: scanners.count) {
            let index = next.update { value -> Int in defer { value += 1 }; return value }
            let scanner = shared[index]
            try helpers.work(photos: {
                if index == 0 { found.set(try scanner.scan(contentsOf: path).cards) }
            }, lending: { scanner })
        }
        return (found.get(), helpers.jobsRunByLentEngines, helpers.readsAheadTaken)
    }

    /// A synthetic fixture scanned on one engine, then with a second engine lent (sample catalog):
    /// both card lists, how many jobs the lent engine ran, and whether the titles read ahead were taken.
    static func aloneAndLent(_ file: String) throws -> (alone: [CardScanner.Card], lent: [CardScanner.Card], jobs: Int, titlesAhead: Int) {
        let catalog = try SampleCatalog.open()
        let path = synthetic.appendingPathComponent(file).path
        let alone = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        let (cards, jobs, ahead) = try scanLending(path, scanners: [CardScanner(catalog: catalog), CardScanner(catalog: catalog)])
        return (alone, cards, jobs, ahead)
    }

    @Test("a binder page read with a second engine lent: the same cards, in the same order, read the same, as on one engine")
    func binderPageLentEngine() throws {
        let (alone, cards, lent, _) = try Self.aloneAndLent("binder_3x3.jpg")
        #expect(Self.essence(cards) == Self.essence(alone))
        #expect(cards.count == 9)
        #expect(lent > 0, "the lent engine read some of the photo's regions")
    }

    @Test("a row of touching cards read with a second engine lent: the place found beside the cards read is the same, and so is every card")
    func touchingRowLentEngine() throws {
        let (alone, cards, _, _) = try Self.aloneAndLent("row_5_touching.jpg")
        #expect(Self.essence(cards) == Self.essence(alone))
        #expect(Self.names(cards).sorted() == (try Self.truth("row_5_touching.jpg")).sorted())
    }

    @Test("an overlapping spread read with a second engine lent: the titles outside the cards, read ahead there, give the same cards")
    func spreadLentEngine() throws {
        let (alone, cards, _, ahead) = try Self.aloneAndLent("spread_7_overlapping.jpg")
        #expect(Self.essence(cards) == Self.essence(alone))
        #expect(ahead == 1, "the titles read ahead were taken, not read again")
        #expect(Self.names(cards).count == (try Self.truth("spread_7_overlapping.jpg")).count, "\(Self.names(cards))")
    }

    @Test("cards on a table confirmed by their text, with two engines lent: the same cards as on one engine (shared photo)",
          .tags(.sharedData), .needsSharedData)
    func confirmedLentEngines() throws {
        let catalog = try SharedCardData.catalog.get().catalog
        let path = SharedCardData.root.appendingPathComponent("photos/tmikonen/example/black.jpg").path
        let alone = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        let (cards, lent, _) = try Self.scanLending(path, scanners: try (0..<3).map { _ in try CardScanner(catalog: catalog) })
        #expect(Self.essence(cards) == Self.essence(alone))
        #expect(Self.names(cards).count == 8, "\(Self.names(cards))")
        #expect(lent > 0)
    }

    /// A shared photo (path under `../shared/photos`): its full path and the names labelled for it.
    static func labelled(_ file: String) throws -> (path: String, names: [String]) {
        let labels = try String(contentsOf: SharedCardData.root.appendingPathComponent("photos/labels.csv"), encoding: .utf8)
        let names = labels.split(whereSeparator: \.isNewline).map { csvCells(String($0)) }
            .filter { $0.count >= 2 && $0[0] == file }.map { $0[1] }
        return (SharedCardData.root.appendingPathComponent("photos/\(file)").path, names)
    }

    @Test("the 3×3 binder page of 1990s cards (shared photo): each of its nine cards named, none twice",
          .tags(.sharedData), .needsSharedData)
    func sharedBinderPage() throws {
        let (path, expected) = try Self.labelled("esbillyjack/uploads_backup/scan_164_0baa3955-dcf5-4618-bd55-cbb0e6474aa5.jpg")
        #expect(expected.count == 9)
        let cards = try CardScanner(catalog: try SharedCardData.catalog.get().catalog).scan(contentsOf: path).cards
        // Two of them are named only by the title line's whole words: Sword of Hearth and Home's
        // pale first word (`conn nf Hearth and Home`) is dropped by the cleaning, and what is left
        // names no card on its own.
        #expect(Self.names(cards).sorted() == expected.sorted())
    }

    @Test("a main card known only by its text is a card the others are proposed beside, on one engine and with one lent (shared photo)",
          .tags(.sharedData), .needsSharedData)
    func mainConfirmedByText() throws {
        // Four 1990s cards in toploaders, two by two: the main card's pale title reads as noise,
        // so only its neighbour was a card to step from, and the row below was never proposed.
        let (path, expected) = try Self.labelled("esbillyjack/uploads_backup/scan_160_2d8bced7-d5bd-441e-a7fc-9191add64264.jpg")
        #expect(expected.count == 4)
        // Scryfall's bulk file and the main card's set (Revised), whose MTGJSON file keeps the
        // text printed on it: the text that names it (Scryfall's has today's wording only).
        try SharedCardData.withCatalog(of: [SharedCardData.scryfall2019, SharedCardData.setFile("3ED")]) { catalog in
            let alone = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
            #expect(Self.names(alone).sorted() == expected.sorted())
            let (lent, _, _) = try Self.scanLending(path, scanners: try (0..<2).map { _ in try CardScanner(catalog: catalog) })
            #expect(Self.essence(lent) == Self.essence(alone))
        }
    }

    @Test("five cards in a row, borders touching: the one the locator found only as its inner frame is read beside its neighbours")
    func touchingRow() throws {
        let catalog = try SampleCatalog.open()
        let path = Self.synthetic.appendingPathComponent("row_5_touching.jpg").path
        var off = CardReader.Options()
        off.tuning.neighbours.maximumProposals = 0
        let scanner = try CardScanner(catalog: catalog, options: off)
        scanner.readsPhotoTitles = false // (its title, read outside the cards found, finds it too)
        let without = try scanner.scan(contentsOf: path).cards
        #expect(without.count == 4, "the premise: without proposals one card is lost (\(Self.names(without)))")
        let cards = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        let truth = try Self.truth("row_5_touching.jpg")
        #expect(Self.names(cards).sorted() == truth.sorted())
        #expect(Self.apart(cards))
    }

    @Test("a binder page: all nine cards, the two copies of one card twice")
    func binderPage() throws {
        let catalog = try SampleCatalog.open()
        let cards = try CardScanner(catalog: catalog).scan(contentsOf: Self.synthetic.appendingPathComponent("binder_3x3.jpg").path).cards
        let truth = try Self.truth("binder_3x3.jpg")
        #expect(Self.names(cards).sorted() == truth.sorted())
        #expect(Self.apart(cards))
    }

    @Test("an overlapping spread: the cards that show only their title strip are found by their titles, each once")
    func overlappingSpread() throws {
        let catalog = try SampleCatalog.open()
        let path = Self.synthetic.appendingPathComponent("spread_7_overlapping.jpg").path
        let truth = try Self.truth("spread_7_overlapping.jpg")
        let scanner = try CardScanner(catalog: catalog)
        scanner.readsPhotoTitles = false
        let without = Self.names(try scanner.scan(contentsOf: path).cards)
        #expect(without.count <= 2, "the premise: the locator finds only the whole cards (\(without))")
        let names = Self.names(try CardScanner(catalog: catalog).scan(contentsOf: path).cards)
        // Every name is one of the spread's, once; a title the sparse read cut short is read again.
        #expect(Set(names).isSubset(of: Set(truth)) && Set(names).count == names.count, "\(names)")
        #expect(names.count == truth.count, "\(names) of \(truth)")
    }

    /// The first stack is found as one region whose collector band shows several cards' lines;
    /// the second's top card is found alone, and the number lines just below it start the stack.
    /// Each is then followed card by card.
    @Test("a stack spread to show each card's collector lines: a card per number and set line, by set and number, none wrong",
          arguments: [("corners_10_stack.jpg", 9), ("corners_10_stack_top.jpg", 9)])
    func cornersStack(file: String, identifiedAtLeast: Int) throws {
        let catalog = try SampleCatalog.open()
        let path = Self.synthetic.appendingPathComponent(file).path
        let scanner = try CardScanner(catalog: catalog)
        scanner.readsStacks = false
        let without = try scanner.scan(contentsOf: path).cards
        #expect(without.count == 1, "the premise: the stack is found as one card (\(Self.names(without)))")
        if file == "corners_10_stack_top.jpg", let top = without.first {
            #expect(!scanner.reader.mayBeStack(top.reading), "the premise: its band shows one card's lines (the probe reads the stack)")
        }
        let cards = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        // The printings in the stack (set and number; the sample catalog holds one language).
        let text = try String(contentsOf: Self.synthetic.appendingPathComponent("truth.csv"), encoding: .utf8)
        var printings = text.split(whereSeparator: \.isNewline).map { csvCells(String($0)) }
            .filter { $0.first == file }.map { "\($0[2]) \($0[3])" }
        var identified = 0
        for card in cards {
            guard let printing = card.match.card else { continue }
            identified += 1
            let key = "\(printing.setCode) \(printing.collectorNumber)"
            // Each identified card is a printing of the stack, no more often than it lies there.
            guard let i = printings.firstIndex(of: key) else {
                Issue.record("\(key) is not in the stack, or found more often than it lies there")
                continue
            }
            printings.remove(at: i)
        }
        #expect(identified >= identifiedAtLeast, "\(Self.names(cards))")
        #expect(cards.count <= 10)
    }

    @Test("eight cards on a table, with dice on them: each found once, beside the cards read (shared photo)",
          .tags(.sharedData), .needsSharedData)
    func cardsWithDice() throws {
        let catalog = try SharedCardData.catalog.get().catalog
        let path = SharedCardData.root.appendingPathComponent("photos/tmikonen/example/black.jpg").path
        var off = CardReader.Options()
        off.tuning.neighbours.maximumProposals = 0
        off.tuning.neighbours.confirmedLocation = 2 // no region confirmed by its text
        let without = Self.names(try CardScanner(catalog: catalog, options: off).scan(contentsOf: path).cards)
        #expect(without.filter { $0 == "Dark Ritual" }.count < 4, "the premise: \(without)")
        let cards = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        let names = Self.names(cards)
        #expect(names.filter { $0 == "Dark Ritual" }.count == 4, "\(names)")
        #expect(names.filter { $0 == "Mind Twist" }.count == 3, "\(names)")
        #expect(names.filter { $0 == "Demonic Tutor" }.count == 1, "\(names)")
        #expect(names.count == 8 && Self.apart(cards), "\(names)")
    }

    @Test("a page of toploaders whose top row the locator takes for one card: its halves are read as cards (shared photo)",
          .tags(.sharedData), .needsSharedData)
    func twoCardsTakenForOne() throws {
        let catalog = try SharedCardData.catalog.get().catalog
        let path = SharedCardData.root.appendingPathComponent("photos/esbillyjack/uploads_backup/scan_161_295d90b0-d421-42af-a451-de8fdacaa9cf.jpg").path
        let cards = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        let names = Self.names(cards)
        let page = ["Mox Diamond", "Feldon's Cane", "Chain Lightning", "Lotus Petal"]
        #expect(names.filter(page.contains).count >= 3, "\(names)")
        #expect(names.allSatisfy(page.contains), "no card that is not on the page: \(names)")
        #expect(Self.apart(cards), "\(names)")
    }

    @Test("toploaders of which one card reads: the regions located give the step, and the cards beside are found (shared photo)",
          .tags(.sharedData), .needsSharedData)
    func layoutOfRegionsLocated() throws {
        // Six 1990s cards in toploaders, two columns of three; the locator finds the right column
        // and the top-left card, and only one of them reads its title (the others' are pale or
        // glared). No two cards read lie side by side, so they showed no step, and the left
        // column's two lower cards (black borders merged into one region) were never proposed.
        let (path, expected) = try Self.labelled("esbillyjack/uploads_backup/scan_155_0732d342-cd02-40ca-88cf-f1af75b4144f.jpg")
        let catalog = try SharedCardData.catalog.get().catalog
        var off = CardReader.Options()
        off.tuning.neighbours.layoutPairs = .max
        let without = Self.names(try CardScanner(catalog: catalog, options: off).scan(contentsOf: path).cards)
        #expect(!without.contains("Chain Lightning"), "the premise: \(without)")
        let cards = try CardScanner(catalog: catalog).scan(contentsOf: path).cards
        let names = Self.names(cards)
        #expect(names.contains("Chain Lightning"), "\(names)")
        #expect(names.count > without.count, "\(names)")
        #expect(names.allSatisfy(expected.contains), "no card that is not in the toploaders: \(names)")
        #expect(Self.apart(cards), "\(names)")
    }

    @Test("a card whose pale title reads as nothing, beside cards read, is found by its text (shared photo)",
          .tags(.sharedData), .needsSharedData)
    func confirmedByText() throws {
        // The cards' set alone (MTGJSON's set file keeps their printed text; Scryfall's bulk only
        // today's wording, which old cards do not show).
        try SharedCardData.withCatalog(of: [SharedCardData.setFile("2ED")]) { catalog in
            let path = SharedCardData.root.appendingPathComponent("photos/tmikonen/example/geyser_twister_fireball.jpg").path
            let scanner = try CardScanner(catalog: catalog)
            scanner.readsText = false
            let without = Self.names(try scanner.scan(contentsOf: path).cards)
            #expect(!without.contains("Timetwister"), "the premise: its title and collector lines say nothing (\(without))")
            scanner.readsText = true
            let names = Self.names(try scanner.scan(contentsOf: path).cards)
            #expect(names.contains("Timetwister"), "\(names)")
            #expect(names.contains("Fireball"), "\(names)")
        }
    }
}
