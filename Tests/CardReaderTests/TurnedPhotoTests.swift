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

    @Test("a card at a slant whose title band reads noise is read from its collector lines when its way up is clear")
    func noisyTitleBandAtASlant() throws {
        // Strong perspective and a 30° slant: the title band holds noise (`eae tek Aliiou`), not
        // nothing; the text box against the art says clearly which way is up.
        let image = try Self.tilted("alexandrearpin/photos/perspective/ori_valor_in_akros_1.JPG", degrees: 30)
        let reading = try CardReaderAccuracyTests.reader().read(image: image)
        #expect(reading.fields.collectorNumber?.value == "39")
        #expect(reading.fields.setCode?.value == "ori")
    }

    @Test("turned round, a card whose title band reads empty the likely way up is still read from its collector lines")
    func emptyTitleTurnedRound() throws {
        // Strong perspective: the title band misses the title, but the collector lines read
        // (039/272 U, ORI • EN). Upright the locator's way up is the card's; turned round it is not.
        let image = try Self.turned("alexandrearpin/photos/perspective/ori_valor_in_akros_1.JPG", quarterTurns: 2)
        let reading = try CardReaderAccuracyTests.reader().read(image: image)
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
