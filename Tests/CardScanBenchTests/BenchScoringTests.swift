import CardCatalog
import CardMatcher
import CardReader
import Foundation
import Testing
@testable import CardScanBench

/// The benchmark reads photos as `cardscan scan` does (every card found) and scores several-card
/// photos against all their labels. Real Tesseract, real sample catalog, the fixture's own truth.
@Suite("Benchmark scoring of a several-card photo (real Tesseract)")
struct BenchScoringTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/synthetic").path

    @Test("every card is read, charged to the photo, scored against any label, and counted for precision")
    func severalCards() throws {
        let (_, photos) = try LabelLoader.load(labelsFile: Self.folder + "/truth.csv", photoFolder: Self.folder)
        let multi = try #require(photos.first { $0.file == "multi_3cards.jpg" })
        #expect(multi.labels.count == 3)
        let catalog = try SampleCatalog.open()
        let options = CardReader.Options().withVocabularies(of: catalog)
        let run = try ReaderPool.run(photos: [multi], jobs: 1, options: options,
                                     identifier: .matcher(catalog: catalog, description: "sample")) { _, _, _ in }
        let outcome = try #require(run.outcomes.first)
        let first = try #require(outcome.reading)
        #expect(outcome.others.count >= 2, "three cards side by side: \(outcome.others.count + 1) read")

        // The photo's stage times include the other cards' reading.
        let othersOCR = outcome.others.map(\.reading.timings.ocr).reduce(0, +)
        #expect(first.timings.ocr >= othersOCR)
        #expect(first.timings.total >= first.timings.decode + first.timings.locate + first.timings.ocr)

        let score = PhotoScore.score(multi, outcome, matcher: true)
        #expect(score.fields[AccuracyField.title.rawValue] == true)
        let identified = ([outcome.identification] + outcome.others.map(\.identification)).filter { $0?.status == "identified" }
        #expect(score.identifiedVerdicts.count == identified.count, "each identified card is one precision verdict")
        #expect(identified.count >= 2)
        #expect(score.identifiedVerdicts.allSatisfy { $0 }, "the identified cards are the fixture's")

        // Scored as photos of one card (one label row each), only the first card read counts: its
        // title is right for exactly one of the three rows.
        let asSingles = multi.labels.map { label in
            PhotoScore.score(BenchPhoto(file: multi.file, path: multi.path, labels: [label]), outcome, matcher: true)
        }
        #expect(asSingles.filter { $0.fields[AccuracyField.title.rawValue] == true }.count == 1)
    }

    @Test("a fixture's title is scored against the title printed on it (a German printing, a back face), accents aside")
    func printedTitle() throws {
        let (_, photos) = try LabelLoader.load(labelsFile: Self.folder + "/truth.csv", photoFolder: Self.folder)
        let german = try #require(photos.first { $0.file == "gurmag_drowner_de_flat.png" }?.labels.first)
        #expect(german.name == "Gurmag Drowner" && german.printedTitle == "Gurmag-Ertränker")
        #expect(FieldComparison.titleMatches("Gurmag-Ertranker", name: german.printedTitle))
        #expect(!FieldComparison.titleMatches("Gurmag Drowner", name: german.printedTitle))
        let back = try #require(photos.first { $0.file == "insectile_aberration_flat.png" }?.labels.first)
        #expect(back.printedTitle == "Insectile Aberration")
        let plain = try #require(photos.first { $0.file == "broodhunter_wurm_flat.png" }?.labels.first)
        #expect(plain.printedTitle == plain.name)
    }

    @Test("a binder page is timed on one engine and on two sharing it, against the single-card photo of its size")
    func severalCardsTimed() throws {
        let (_, photos) = try LabelLoader.load(labelsFile: Self.folder + "/truth.csv", photoFolder: Self.folder)
        let chosen = try ["binder_3x3.jpg", "broodhunter_wurm_photo.jpg", "broodhunter_wurm_flat.png", "multi_3cards.jpg"].map { file in
            try #require(photos.first { $0.file == file })
        }
        let catalog = try SampleCatalog.open()
        let options = CardReader.Options().withVocabularies(of: catalog)
        let run = try ReaderPool.run(photos: chosen, jobs: 1, options: options,
                                     identifier: .matcher(catalog: catalog, description: "sample")) { _, _, _ in }
        let pairs = SeveralCards.pairs(chosen, run.outcomes)
        #expect(pairs.count == 1, "only the binder page holds nine cards")
        #expect(pairs.first?.several == 0)
        #expect(pairs.first?.singles == [1], "the photo of one card of the same size, not the three cards of that size")

        let figures = try SeveralCards.run(chosen, run.outcomes, catalog: catalog, options: options, rounds: 1)
        let binder = try #require(figures.first)
        #expect(binder.cards == 9)
        #expect(binder.singleCardPhotos == ["broodhunter_wurm_photo.jpg"])
        #expect(binder.oneJobMs > 0 && binder.twoJobsMs > 0 && binder.singleCardMs > 0)
        #expect(binder.failures == 0, "\(binder.firstFailure ?? "")")
        #expect(binder.lentJobs > 0, "the second engine read some of the page")
        #expect((binder.costRatio ?? 0) > 1, "nine cards cost more than one: \(binder)")
        let rows = Targets.compute(photos: chosen, scores: [], accuracy: [:], throughput: ThroughputSection(singleJob: PassSummary(run)),
                                   references: nil, identifier: "sample", severalCards: figures)
        let cost = try #require(rows.first { $0.key == "several_cards_cost_vs_single" })
        #expect(cost.measured == binder.costRatio && cost.target == 5 && cost.comparison == "<=")
        #expect(rows.first { $0.key == "several_cards_speedup_2_jobs" }?.measured == binder.speedup)
    }
}
