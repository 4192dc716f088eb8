import CardScanOCR
import Foundation
import Testing

@testable import CardReader

/// The cheap way-up test that decides which way a card is read first (and whether the other way
/// is read at all): its text box is lighter than its art box on an upright card.
@Suite("Card orientation from the text box (real images)")
struct OrientationTests {
    static let flats = ["broodhunter_wurm_flat.png", "canyon_wildcat_flat.png", "carnage_tyrant_flat.png", "counterspell_flat.png",
                        "gurmag_drowner_flat.png", "sheoldred_the_apocalypse_flat.png", "the_one_ring_flat.png"]

    @Test("a flat scan measures upright one way and upside down the other", arguments: flats)
    func flatScan(_ name: String) throws {
        let gray = try Image(contentsOf: Paths.fixture(name)).grayPixels()
        let upright = ReadPipeline.wholeImage(gray)
        let turned = upright.turned(by: 2)
        #expect(ReadPipeline.textBoxLightness(upright, gray: gray) > Tuning().orientation.decisiveLightness)
        #expect(ReadPipeline.textBoxLightness(turned, gray: gray) < -Tuning().orientation.decisiveLightness)
    }

    @Test("against a decisive way-up test, noise read the other way loses; a known title read there still wins")
    func overruledWay() throws {
        let gray = try Image(contentsOf: Paths.fixture("gurmag_drowner_flat.png")).grayPixels()
        let pipeline = try CardReader().pipeline
        let hypotheses = pipeline.placementHypotheses(ReadPipeline.wholeImage(gray), source: .wholeImage, gray: gray, policy: .mainCard)
        let sure = try #require(hypotheses.first { $0.wayUp == .sure && !$0.extended })
        let other = try #require(hypotheses.first { $0.wayUp == .overruled && !$0.extended })
        #expect(other.prior == Tuning().orientation.overruledWayPrior)
        // Another region of the photo does not trust the test so far: no debit.
        let region = pipeline.placementHypotheses(ReadPipeline.wholeImage(gray), source: .wholeImage, gray: gray, policy: .otherRegion)
        #expect(region.allSatisfy { $0.wayUp != .overruled && $0.prior <= 0 && $0.prior > Tuning().orientation.overruledWayPrior })
        // The sure way's title band read nothing (glare, or paint); turned round, the rules text
        // upside down read as a line of fair quality (0.38, as on a card with glare over its title).
        func reading(_ h: ReadPipeline.Hypothesis, quality: Double, known: Bool = false) -> ReadPipeline.Attempt {
            var a = ReadPipeline.Attempt(corners: h.corners, observations: [], fields: ExtractedFields(), titleQuality: quality, prior: h.prior)
            a.titleKnown = known
            return a
        }
        let scoring = ReadPipeline.Scoring(tuning: Tuning())
        #expect(scoring.placementTaken(reading(other, quality: 0.38), over: reading(sure, quality: 0)) == nil)
        // A saga's art can measure lighter than its text box: its title, read the other way, is known.
        #expect(scoring.placementTaken(reading(other, quality: 0.6, known: true), over: reading(sure, quality: 0.2)) != nil)
    }

    @Test("an upside-down card in a photo is read upside down first", arguments: [
        "broodhunter_wurm_upside_down.jpg", "sheoldred_the_apocalypse_upside_down.jpg",
    ])
    func upsideDownPhoto(_ name: String) throws {
        let gray = try Image(contentsOf: Paths.fixture(name)).grayPixels()
        let located = try #require(CardLocator().locate(gray))
        // The locator gives the long side vertical, in no particular way up.
        let corners = BorderRefiner().refine(located.corners, in: gray)
        #expect(ReadPipeline.textBoxLightness(corners, gray: gray) < -Tuning().orientation.decisiveLightness)
    }

    @Test("a saga photographed upside down measures upright (art beside its text box), and is still read turned round")
    func sagaUpsideDown() throws {
        let turned = TurnedPhotoTests.turnedRound(try TurnedPhotoTests.sharedPhoto("thaen/single/sample-michikos-reign-of-truth.jpg"))
        let located = try #require(CardLocator().locate(turned))
        let lightness = ReadPipeline.textBoxLightness(BorderRefiner().refine(located.corners, in: turned), gray: turned)
        #expect(lightness > Tuning().orientation.decisiveLightness, "the premise: the way-up test is fooled (\(lightness))")
        let reading = try CardReaderAccuracyTests.reader().read(image: TurnedPhotoTests.image(turned, name: "michiko-turned"))
        #expect(reading.fields.title?.value == "Michiko's Reign of Truth")
        #expect(reading.rotation == 180)
    }

    @Test("real photos: the upside-down ones measure upside down, the upright one upright")
    func sharedPhotos() throws {
        let folder = Paths.shared.appendingPathComponent("alexandrearpin/photos/orientation")
        try #require(FileManager.default.fileExists(atPath: folder.path), "../shared/photos is missing")
        // ori_disperse_1 and _5 show the card upside down (their titles read only turned round), _3 upright.
        for (file, upright) in [("ori_disperse_1.JPG", false), ("ori_disperse_5.JPG", false), ("ori_disperse_3.JPG", true)] {
            let gray = try Image(contentsOf: folder.appendingPathComponent(file).path).grayPixels()
            let located = try #require(CardLocator().locate(gray), "\(file): no card found")
            let lightness = ReadPipeline.textBoxLightness(BorderRefiner().refine(located.corners, in: gray), gray: gray)
            if upright {
                #expect(lightness > Tuning().orientation.decisiveLightness, "\(file): \(lightness)")
            } else {
                #expect(lightness < -Tuning().orientation.decisiveLightness, "\(file): \(lightness)")
            }
        }
    }
}
