@testable import CardReader
import CardScanOCR
import Foundation
import Testing

/// Real photos turned by a quarter or half turn (no EXIF to undo it): the card must read as it
/// does upright. The locator gives a card's long side vertical in no particular way up, so the
/// way the card is read first comes from the way-up test, not from the locator.
@Suite("Real photos turned round (no EXIF)")
struct TurnedPhotoTests {
    /// The photo's grey pixels turned clockwise by `quarterTurns` quarter turns, as an image.
    static func turned(_ relativePath: String, quarterTurns: Int) throws -> Image {
        let path = Paths.shared.appendingPathComponent(relativePath).path
        try #require(FileManager.default.fileExists(atPath: path), "../shared/photos is missing")
        var gray = try Image(contentsOf: path).grayPixels()
        for _ in 0..<(quarterTurns % 4) {
            var out = [UInt8](repeating: 0, count: gray.pixels.count)
            for y in 0..<gray.height {
                for x in 0..<gray.width { out[x * gray.height + (gray.height - 1 - y)] = gray.pixels[y * gray.width + x] }
            }
            gray = GrayImage(width: gray.height, height: gray.width, pixels: out)
        }
        let pgm = Data("P5\n\(gray.width) \(gray.height)\n255\n".utf8) + Data(gray.pixels)
        return try Image(data: pgm, name: "\(relativePath) turned \(quarterTurns * 90)°.pgm")
    }

    /// The photo's grey pixels turned clockwise by `degrees` about its centre, on a canvas grown
    /// to hold all of it (the new corners repeat the nearest edge pixels), as an image.
    static func tilted(_ relativePath: String, degrees: Double) throws -> Image {
        let path = Paths.shared.appendingPathComponent(relativePath).path
        try #require(FileManager.default.fileExists(atPath: path), "../shared/photos is missing")
        let gray = try Image(contentsOf: path).grayPixels()
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
        let pgm = Data("P5\n\(w) \(h)\n255\n".utf8) + Data(out)
        return try Image(data: pgm, name: "\(relativePath) tilted \(degrees)°.pgm")
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
            let file = "alexandrearpin/photos/perspective/ori_valor_in_akros_1.JPG"
            return self == .turnedRound ? try TurnedPhotoTests.turned(file, quarterTurns: 2) : try TurnedPhotoTests.tilted(file, degrees: 30)
        }
    }

    @Test("a card whose title band misses the title is still read from its collector lines, the likely way up",
          arguments: ValorCopy.allCases)
    func titleBandMissed(_ copy: ValorCopy) throws {
        let reading = try CardReaderAccuracyTests.reader().read(image: copy.image())
        #expect(reading.fields.collectorNumber?.value == "39")
        #expect(reading.fields.setCode?.value == "ori")
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
