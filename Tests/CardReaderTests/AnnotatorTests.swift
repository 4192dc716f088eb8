import CTesseract
import CardReader
import Foundation
import Testing

@testable import CardScanOCR

/// `--annotate` draws on the photo decoded in colour; a large JPEG is decoded smaller for it
/// (libjpeg's scaled decode), since the drawing is at most `Annotator.maxSide` pixels anyway.
@Suite("Annotated photo of a large JPEG (real Tesseract)")
struct AnnotatorTests {
    /// `name` three times larger, as a JPEG, with the original's EXIF segment when it has one.
    static func enlarged(_ name: String, in dir: URL) throws -> String {
        let original = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture(name)))
        let stored = try Image(data: original, name: name, options: .init(applyEXIFOrientation: false))
        let big = OwnedPix(try #require(pixScale(stored.pix, 3, 3)))! // destroyed when the function returns
        let path = dir.appendingPathComponent(name).path
        #expect(pixWrite(path, big.pointer, Int32(IFF_JFIF_JPEG)) == 0)
        let bytes = [UInt8](original)
        if bytes[2] == 0xFF, bytes[3] == 0xE1 { // APP1 (EXIF) right after SOI: carry it over
            let app1 = bytes[2..<(4 + Int(bytes[4]) << 8 + Int(bytes[5]))]
            var written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            written.insert(contentsOf: app1, at: 2)
            try Data(written).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    @Test("decoded 2x smaller in colour, EXIF orientation applied; the drawing matches the one made from the full decode")
    func reducedColour() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-annotate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = try CardReader()
        for name in ["broodhunter_wurm_photo.jpg", "broodhunter_wurm_exif6.jpg"] {
            let path = try Self.enlarged(name, in: dir)
            let full = try Image(contentsOf: path) // colour, whole, upright
            let grey = try reader.decode(contentsOf: path)
            let reduced = reader.photoInColour(contentsOf: path, else: grey)
            #expect(max(full.width, full.height) == 4800, "\(name): \(full.width)x\(full.height)")
            #expect(reduced.reduction == 2 && reduced.isColor, "\(name)")
            #expect(reduced.width == full.width / 2 && reduced.height == full.height / 2, "\(name): upright like the full decode")

            let reading = try reader.read(contentsOf: path)
            let a = dir.appendingPathComponent("reduced.png").path, b = dir.appendingPathComponent("full.png").path
            try Annotator.write(reading, on: reduced, to: a)
            try Annotator.write(reading, on: full, to: b)
            let drawnReduced = try Image(contentsOf: a, options: .init(grayscale: true)).grayPixels()
            let drawnFull = try Image(contentsOf: b, options: .init(grayscale: true)).grayPixels()
            #expect(drawnReduced.width == drawnFull.width && drawnReduced.height == drawnFull.height,
                    "\(name): \(drawnReduced.width)x\(drawnReduced.height) vs \(drawnFull.width)x\(drawnFull.height)")
            let difference = zip(drawnReduced.pixels, drawnFull.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(difference) / Double(max(1, drawnFull.pixels.count))
            #expect(mean < 6, "\(name): mean difference \(mean) levels")
        }
    }
}
