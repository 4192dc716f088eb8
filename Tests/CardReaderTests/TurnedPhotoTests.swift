@testable import CardReader
import CardScanOCR
import Foundation
import Testing

/// Real photos turned by a quarter or half turn (no EXIF to undo it): the card must read as it
/// does upright. The locator gives a card's long side vertical in no particular way up, so the
/// way the card is read first comes from the way-up test, not from the locator.
@Suite("Real photos turned round (no EXIF)")
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

    /// Valor in Akros, in strong perspective: its title band misses the title, its collector lines
    /// read `039/272 U` over `ORI • EN`.
    enum ValorCopy: String, CaseIterable, Sendable {
        /// Turned round: the title band reads empty the likely way up, which is not the
        /// locator's way up.
        case turnedRound = "turned 180°"
        /// Tilted 30°: the title band holds noise (`eae tek Aliiou`), not nothing; the text box
        /// against the art says clearly which way is up.
        case tilted = "tilted 30°"

        func image() throws -> Image {
            let photo = try TurnedPhotoTests.sharedPhoto("alexandrearpin/photos/perspective/ori_valor_in_akros_1.JPG")
            let copy = self == .turnedRound ? TurnedPhotoTests.turnedRound(photo) : TurnedPhotoTests.tilted(photo, degrees: 30)
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
            return ReadPipeline.Attempt(corners: [], observations: [], fields: fields, titleQuality: 0.5, titleKnown: known)
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

    @Test("a known name read at very low quality with nothing below it does not settle the way up")
    func lowQualityKnownTitle() {
        // A copy of frf_lightform.jpg turned three quarters (re-encoded, no EXIF) read `meee ees`
        // in the extended band of its wrong way up, which the vocabulary snapped to Foresee; the
        // search stopped there. Such a reading no longer settles it: the other way up is read and
        // `Lightform` wins on score.
        func attempt(quality: Double, number: String? = nil) -> ReadPipeline.Attempt {
            var fields = ExtractedFields(title: ExtractedField(value: "Foresee", confidence: 0.5, sources: ["meee ees"]))
            fields.collectorNumber = number.map { ExtractedField(value: $0, confidence: 0.9, sources: [$0]) }
            return ReadPipeline.Attempt(corners: [], observations: [], fields: fields, titleQuality: quality, titleKnown: true)
        }
        #expect(!attempt(quality: 0.07).settlesTitle)
        #expect(attempt(quality: 0.07, number: "69").settlesTitle, "a number read below it backs the title")
        #expect(attempt(quality: 0.2).settlesTitle, "real titles of 1990s frames read at 0.15-0.3")
        var unknown = attempt(quality: 0.9)
        unknown.titleKnown = false
        #expect(!unknown.settlesTitle)
    }
}
