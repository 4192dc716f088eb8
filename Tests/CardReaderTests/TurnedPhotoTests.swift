import CardScanOCR
import Foundation
import TestSupport
import Testing

@testable import CardReader

/// Real photos turned by a quarter or half turn (no EXIF to undo it): the card must read as it
/// does upright. The locator gives a card's long side vertical in no particular way up, so the
/// way the card is read first comes from the way-up test, not from the locator.
@Suite("Real photos turned round (no EXIF)", .tags(.sharedData), .needsSharedData)
struct TurnedPhotoTests {
    /// A shared photo's grey pixels (EXIF applied).
    static func sharedPhoto(_ relativePath: String) throws -> GrayImage {
        let path = Paths.shared.appendingPathComponent(relativePath).path
        try #require(FileManager.default.fileExists(atPath: path), "../shared/photos is missing")
        return try Image(contentsOf: path).grayPixels()
    }

    /// Grey pixels as an image for the reader's usual entry point (a PGM file's bytes).
    static func image(_ gray: GrayImage, name: String) throws -> Image {
        try Image(data: Data("P5\n\(gray.width) \(gray.height)\n255\n".utf8) + Data(gray.pixels), name: "\(name).pgm")
    }

    /// The pixels turned half-way round.
    static func turnedRound(_ gray: GrayImage) -> GrayImage {
        GrayImage(width: gray.width, height: gray.height, pixels: gray.pixels.reversed())
    }

    /// The pixels turned clockwise by `degrees` about their centre, on a canvas grown to hold all
    /// of them (the new corners repeat the nearest edge pixels).
    static func tilted(_ gray: GrayImage, degrees: Double) -> GrayImage {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let w = Int((Double(gray.width) * abs(c) + Double(gray.height) * abs(s)).rounded(.up))
        let h = Int((Double(gray.width) * abs(s) + Double(gray.height) * abs(c)).rounded(.up))
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                // The source point that lands here: turned back about the centres.
                let dx = Double(x) - Double(w) / 2, dy = Double(y) - Double(h) / 2
                let sx = c * dx + s * dy + Double(gray.width) / 2, sy = -s * dx + c * dy + Double(gray.height) / 2
                out[y * w + x] = UInt8(gray.bilinear(sx, sy).rounded())
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// The photo as taken with the camera tilted back by `degrees` (the top of the table turned
    /// away, its far edge shorter): a real camera's perspective, as `scripts/camera_turn.py`
    /// makes for `scripts/robustness.sh` (focal length 0.6 of the diagonal, zoomed out so the
    /// whole photo stays in the frame; uncovered pixels repeat the nearest edge).
    static func seenFromBelow(_ gray: GrayImage, degrees: Double) -> GrayImage {
        let (w, h) = (Double(gray.width), Double(gray.height))
        let (cx, cy) = (w / 2, h / 2)
        let (s, c) = (sin(degrees * .pi / 180), cos(degrees * .pi / 180))
        let phone = 0.6 * (w * w + h * h).squareRoot()
        // A point of the photo's plane, relative to the centre, as the turned camera sees it.
        func project(_ u: Double, _ v: Double, _ f: Double) -> (Double, Double) {
            let d = 1 - v * s / f
            return (u / d, v * c / d)
        }
        var zoom = 1.0
        for _ in 0..<50 {
            zoom = [(-cx, -cy), (cx, -cy), (cx, cy), (-cx, cy)].map { project($0.0, $0.1, phone / zoom) }
                .map { min(cx / max(abs($0.0), 1e-9), cy / max(abs($0.1), 1e-9)) }.min()!
        }
        let f = phone / zoom
        var out = [UInt8](repeating: 0, count: gray.width * gray.height)
        for y in 0..<gray.height {
            // The inverse of `project`: the plane point seen at this pixel.
            let sv = (Double(y) - cy) / zoom
            let v = sv / (c + sv * s / f), d = 1 - v * s / f
            for x in 0..<gray.width {
                let u = (Double(x) - cx) / zoom * d
                out[y * gray.width + x] = UInt8(gray.bilinear(u + cx, v + cy).rounded())
            }
        }
        return GrayImage(width: gray.width, height: gray.height, pixels: out)
    }

    /// Valor in Akros, in strong perspective: its title band misses the title, its collector lines
    /// read `039/272 U` over `ORI • EN`.
    enum ValorCopy: String, CaseIterable, Sendable {
        /// Turned round: the title band reads empty the likely way up, which is not the
        /// locator's way up.
        case turnedRound = "turned 180°"
        /// Tilted 30°: the title band holds noise (`eae tek Aliiou`), not nothing; the text box
        /// against the art says clearly which way is up.
        case tilted = "tilted 30°"
        /// Seen 30° further from below: foreshortened, the card looks wider than tall. Its long
        /// sides are told by the rectangle the quad is a view of, not by their length in the
        /// photo (by length it was read sideways and read nothing).
        case seenFromBelow = "seen 30° from below"

        func image() throws -> Image {
            let photo = try TurnedPhotoTests.sharedPhoto("alexandrearpin/photos/perspective/ori_valor_in_akros_1.JPG")
            let copy = switch self {
            case .turnedRound: TurnedPhotoTests.turnedRound(photo)
            case .tilted: TurnedPhotoTests.tilted(photo, degrees: 30)
            case .seenFromBelow: TurnedPhotoTests.seenFromBelow(photo, degrees: 30)
            }
            return try TurnedPhotoTests.image(copy, name: "ori_valor_in_akros_1 \(rawValue)")
        }
    }

    @Test("a card whose title band misses the title is still read from its collector lines, the likely way up",
          arguments: ValorCopy.allCases)
    func titleBandMissed(_ copy: ValorCopy) throws {
        let reading = try CardReaderAccuracyTests.reader().read(image: copy.image())
        #expect(reading.fields.collectorNumber?.value == "39")
        #expect(reading.fields.setCode?.value == "ori")
    }

    @Test("a pale 1993 title whose binarised band holds no single line for Tesseract is read in block mode")
    func paleTitleTurned() throws {
        // Instill Energy (Alpha) turned three quarters: the title band reads as noise (`fee epee ee
        // hg Aerat`). The rescue's binarised band is clean, but the textured bar after the title
        // leaves specks that keep single-line mode from finding a line; block mode reads
        // `Instill Energy` followed by the specks.
        let photo = try Self.sharedPhoto("tmikonen/example/instill_energy.jpg")
        let reading = try CardReaderAccuracyTests.reader().read(image: Self.image(Self.tilted(photo, degrees: 270), name: "instill_energy 270°"))
        #expect(reading.fields.title?.value == "Instill Energy")
    }

    @Test("an alternative quad that reads the same known name above collector lines the reading lacks completes it")
    func completedBySameCard() {
        func attempt(_ title: String, known: Bool = true, set: String? = nil, number: String? = nil) -> ReadPipeline.Attempt {
            var fields = ExtractedFields(title: ExtractedField(value: title, confidence: 0.5, sources: [title]))
            fields.setCode = set.map { ExtractedField(value: $0, confidence: 0.5, sources: [$0]) }
            fields.collectorNumber = number.map { ExtractedField(value: $0, confidence: 0.5, sources: [$0]) }
            return ReadPipeline.Attempt(corners: Self.someQuad, observations: [], fields: fields, titleQuality: 0.5, titleKnown: known)
        }
        // Lightform seen at a steep angle: the grown quad read `(Lightform a.` above `FRF • EN`.
        let located = attempt("Lightform")
        #expect(located.isCompleted(by: attempt("Lightform", set: "frf")))
        #expect(attempt("Lightform", number: "16").isCompleted(by: attempt("Lightform", set: "frf")), "a missing set code counts too")
        #expect(!located.isCompleted(by: attempt("Lightform")), "nothing added")
        #expect(!located.isCompleted(by: attempt("Light Form", known: false, set: "frf")), "a name the vocabulary does not know")
        #expect(!located.isCompleted(by: attempt("Foresee", set: "frf")), "another card's name")
        #expect(!attempt("Lightform", known: false).isCompleted(by: attempt("Lightform", set: "frf")))
    }

    @Test("collector lines that parse keep the card where the locator put it: no card is placed around a text box")
    func lastResortsBelowCollectorLines() {
        // Tower Geist seen 30° from below (scripts/robustness.sh's pitch30 copy) read noise in its
        // title band (`Dated: tice ben tala`) above `080/272 U` / `ORI* EN`; the card placed
        // around its text box read `PARAL He`, which the vocabulary snapped to Paralyze, and
        // replaced the reading.
        func attempt(_ title: String, quality: Double, known: Bool = false, number: String? = nil) -> ReadPipeline.Attempt {
            var fields = ExtractedFields(title: ExtractedField(value: title, confidence: 0.3, sources: [title]))
            fields.collectorNumber = number.map { ExtractedField(value: $0, confidence: 0.9, sources: [$0]) }
            return ReadPipeline.Attempt(corners: Self.someQuad, observations: [], fields: fields, titleQuality: quality, titleKnown: known)
        }
        let numbered = attempt("Dated tice ben tala", quality: 0.1, number: "80")
        let noise = attempt("iii", quality: 0.29)
        let resorts = { (best: ReadPipeline.Attempt, main: Bool) in
            ReadPipeline.lastResorts(best: best, tried: [best, noise], vocabulary: true, placesCards: main)
        }
        #expect(resorts(numbered, true) == (true, false), "the title is re-read on the same quad, no card placed elsewhere")
        #expect(resorts(noise, true) == (true, true), "nothing read: the locator may have lost the card")
        #expect(resorts(noise, false) == (true, false), "text boxes only for the main card")
        #expect(resorts(attempt("Tower Geist", quality: 0.4, known: true), true) == (false, false))
        #expect(resorts(attempt("Nissa's Defeat", quality: 0.7), true) == (false, false), "a clean title the vocabulary lacks")
        #expect(ReadPipeline.lastResorts(best: noise, tried: [noise], vocabulary: false, placesCards: true) == (false, false))
    }

    @Test("the title rescue takes only a title it read again, not a guessed name the placement did not take")
    func rescueTakesOnlyWhatItRead() throws {
        // Disperse turned 135° with a sleeve's glare over its title (`scripts/robustness.sh`'s
        // glare copy): the located quad read noise in the title band above `054/272` / `ORI EN`
        // and was taken; its other way up read `FER vO` in the extended band, which the
        // vocabulary snapped to Fervor, and was not taken over the collector lines. The rescue
        // re-read that candidate, read nothing, and used to take it back unchanged.
        func attempt(_ title: String, quality: Double, known: Bool, number: String? = nil) -> ReadPipeline.Attempt {
            var fields = ExtractedFields(title: ExtractedField(value: title, confidence: 0.3, sources: [title]))
            fields.collectorNumber = number.map { ExtractedField(value: $0, confidence: 0.9, sources: [$0]) }
            return ReadPipeline.Attempt(corners: Self.someQuad, observations: [], fields: fields, titleQuality: quality, titleKnown: known)
        }
        let numbered = attempt("Ul", quality: 0.05, known: false, number: "54")
        let guessed = attempt("Fervor", quality: 0.22, known: true)
        func search(rescue: @escaping (ReadPipeline.Attempt) -> ReadPipeline.Attempt?) -> (taken: Bool, best: ReadPipeline.Attempt?) {
            var search = ReadPipeline.Search(scoring: ReadPipeline.Scoring(tuning: Tuning()), budget: 10)
            search.round("placement", [ReadPipeline.Hypothesis(corners: Self.someQuad, source: .located)], read: { _ in numbered },
                         accept: { reading, _ in reading }, stop: { _, _, _ in false })
            let candidate = ReadPipeline.Hypothesis(corners: Self.someQuad, source: .titleRescue, basis: guessed)
            let taken = search.rescueRound([candidate], rescue: rescue)
            return (taken, search.best)
        }
        let nothingRead = search { _ in nil }
        #expect(!nothingRead.taken && nothingRead.best?.fields.collectorNumber?.value == "54", "\(String(describing: nothingRead.best?.fields.title))")
        let read = search { _ in attempt("Disperse", quality: 0.4, known: true) }
        #expect(read.taken && read.best?.fields.title?.value == "Disperse", "a title the rescue read is taken")
    }

    @Test("a known name read at very low quality with nothing below it does not settle the way up")
    func lowQualityKnownTitle() {
        // A copy of frf_lightform.jpg turned three quarters (re-encoded, no EXIF) read `meee ees`
        // in the extended band of its wrong way up, which the vocabulary snapped to Foresee; the
        // search stopped there. Such a reading no longer settles it: the other way up is read and
        // `Lightform` wins on score.
        func attempt(quality: Double, number: String? = nil) -> ReadPipeline.Attempt {
            var fields = ExtractedFields(title: ExtractedField(value: "Foresee", confidence: 0.5, sources: ["meee ees"]))
            fields.collectorNumber = number.map { ExtractedField(value: $0, confidence: 0.9, sources: [$0]) }
            return ReadPipeline.Attempt(corners: Self.someQuad, observations: [], fields: fields, titleQuality: quality, titleKnown: true)
        }
        let scoring = ReadPipeline.Scoring(tuning: Tuning())
        #expect(!scoring.settlesTitle(attempt(quality: 0.07)))
        #expect(scoring.settlesTitle(attempt(quality: 0.07, number: "69")), "a number read below it backs the title")
        #expect(scoring.settlesTitle(attempt(quality: 0.2)), "real titles of 1990s frames read at 0.15-0.3")
        var unknown = attempt(quality: 0.9)
        unknown.titleKnown = false
        #expect(!scoring.settlesTitle(unknown))
        var tuned = Tuning()
        tuned.scoring.unsettledTitleQuality = 0.05
        #expect(ReadPipeline.Scoring(tuning: tuned).settlesTitle(attempt(quality: 0.07)), "the threshold is the tuning's")
    }

    @Test("a title band of noise does not take the search from the located card to another place")
    func noiseTitleTakesNoPlace() {
        // A card turned 130° in a photo, its title bar painted over (a `textonly` copy of the
        // shared photos): its located quad read nothing in the title band, the whole photo read
        // scraps of the table at 0.1 there and won, and the text box was read in the middle of
        // the photo. Between two places, a title band read below `title.minimumQuality` counts
        // as nothing; between the ways up of one place it still counts.
        let photo = Quad([PixelPoint(x: 0, y: 0), PixelPoint(x: 2448, y: 0), PixelPoint(x: 2448, y: 3264), PixelPoint(x: 0, y: 3264)])
        func attempt(_ title: String?, quality: Double, known: Bool = false, at corners: Quad = Self.someQuad) -> ReadPipeline.Attempt {
            let fields = ExtractedFields(title: title.map { ExtractedField(value: $0, confidence: 0.3, sources: [$0]) })
            return ReadPipeline.Attempt(corners: corners, observations: [], fields: fields, titleQuality: quality, titleKnown: known)
        }
        let scoring = ReadPipeline.Scoring(tuning: Tuning())
        let located = attempt(nil, quality: 0)
        #expect(scoring.placementTaken(attempt("EE oe hag", quality: 0.105, at: photo), over: located) == nil)
        #expect(scoring.placementTaken(attempt("Lightform", quality: 0.35, at: photo), over: located) != nil, "a title read at the other place")
        #expect(scoring.placementTaken(attempt("Foresee", quality: 0.07, known: true, at: photo), over: located) != nil,
                "a known name counts at any quality")
        #expect(scoring.placementTaken(attempt("ees", quality: 0.28, at: Self.someQuad.turned(by: 2)), over: located) != nil,
                "the other way up of the same place")
        var tuned = Tuning()
        tuned.title.minimumQuality = 0.1
        #expect(ReadPipeline.Scoring(tuning: tuned).placementTaken(attempt("EE oe hag", quality: 0.105, at: photo), over: located) != nil,
                "the threshold is the tuning's")
    }

    @Test("a name read badly at the first place does not end the search before the other place is read")
    func badlyReadNameLeavesOtherPlace() {
        // A blurred photo of a card filling most of it (a `blur` copy of the shared photos): the
        // whole photo, read first as the photo is shaped like a scan, gave `SERRE` at 0.21 in its
        // band beyond the top, snapped to a name; the located card, never read, held the title.
        let photo = Quad([PixelPoint(x: 0, y: 0), PixelPoint(x: 1200, y: 0), PixelPoint(x: 1200, y: 1600), PixelPoint(x: 0, y: 1600)])
        let card = Quad([PixelPoint(x: 90, y: 110), PixelPoint(x: 1050, y: 110), PixelPoint(x: 1040, y: 1490), PixelPoint(x: 85, y: 1495)])
        func attempt(_ title: String, quality: Double, number: String? = nil, at corners: Quad) -> ReadPipeline.Attempt {
            var fields = ExtractedFields(title: ExtractedField(value: title, confidence: 0.3, sources: [title]))
            fields.collectorNumber = number.map { ExtractedField(value: $0, confidence: 0.9, sources: [$0]) }
            return ReadPipeline.Attempt(corners: corners, observations: [], fields: fields, titleQuality: quality, titleKnown: true)
        }
        let scoring = ReadPipeline.Scoring(tuning: Tuning())
        let noise = attempt("Serra", quality: 0.21, at: photo)
        #expect(!scoring.endsPlacement(noise, best: noise, lastPlace: card), "the located card is still to read")
        #expect(scoring.endsPlacement(noise, best: noise, lastPlace: photo), "nothing else to read")
        let title = attempt("Cunning Strike", quality: 0.44, at: photo)
        #expect(scoring.endsPlacement(title, best: title, lastPlace: card), "a title read as a title settles")
        var tuned = Tuning()
        tuned.title.minimumQuality = 0.2
        #expect(ReadPipeline.Scoring(tuning: tuned).endsPlacement(noise, best: noise, lastPlace: card), "the threshold is the tuning's")
        let numbered = attempt("Serra", quality: 0.21, number: "80", at: photo)
        #expect(scoring.endsPlacement(numbered, best: numbered, lastPlace: card), "collector lines settle")
        // The located card then wins on score; the same name read there is a tie but for the
        // collector lines (a quad inside a scanned card reads its title more cleanly).
        #expect(scoring.placementTaken(attempt("Goblin Recruiter", quality: 0.37, at: card), over: noise) != nil)
        let scanned = attempt("Cunning Strike", quality: 0.44, at: photo)
        #expect(scoring.placementTaken(attempt("Cunning Strike", quality: 0.9, at: card), over: scanned) == nil)
        #expect(scoring.placementTaken(attempt("Cunning Strike", quality: 0.3, number: "150", at: card), over: scanned) != nil)
    }

    /// A quad for readings made up in a test (where the card is does not matter there).
    static let someQuad = Quad([PixelPoint(x: 0, y: 0), PixelPoint(x: 63, y: 0), PixelPoint(x: 63, y: 88), PixelPoint(x: 0, y: 88)])
}
