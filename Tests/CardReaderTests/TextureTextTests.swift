import CardScanOCR
import Foundation
import Testing

@testable import CardReader

@Suite("A text box of texture is not read", .tags(.sharedData), .needsSharedData)
struct TextureTextTests {
    /// A place the grid of cards found proposes on a page of cards in toploaders, where the
    /// page's backing shows and no card lies (the card's corners in the photo, upright).
    static let photo = "esbillyjack/uploads_backup/scan_139_b20a4fa6-7dbb-4126-bc58-8ae687ebb46a.jpg"
    static let place = [(1678.0, 2405.0), (2226.0, 2430.0), (2226.0, 3229.0), (1648.0, 3221.0)]

    static func reading(_ image: Image) -> CardReading {
        CardReading(file: photo, imageWidth: image.width, imageHeight: image.height,
                    quad: CardQuad(corners: place.map { PixelPoint(x: $0.0, y: $0.1) }), rotation: 0, locateConfidence: 0,
                    fields: ExtractedFields(), observations: [], timings: StageTimings(), captureDay: nil)
    }

    @Test("its layout holds more words than a card's text: nothing is recognised, where without the limit noise was")
    func textureNotRead() throws {
        let image = try Image(contentsOf: Paths.shared.appendingPathComponent(Self.photo).path)
        let gray = image.grayPixels()
        let reader = try CardReader(options: CardReader.Options())
        let limited = try reader.readText(of: Self.reading(image), in: gray)
        #expect(limited.isEmpty, "\(limited.map(\.observation.text))")

        var options = reader.options
        options.tuning.textMatching.maximumTextBoxWords = Int.max
        options.tuning.textMatching.maximumCreditsWords = Int.max
        options.ocrDeadlineMilliseconds = 60_000 // texture read whole takes seconds; on a busy machine more
        let unlimited = try CardReader(options: options).readText(of: Self.reading(image), in: gray)
        #expect(unlimited.contains { $0.region == .textBox }, "the backing reads as lines of noise when its words are not counted")
        #expect(unlimited.contains { $0.region == .credits }, "and so does the band below it")
        #expect(!unlimited.contains { $0.observation.confidence >= 0.5 && $0.observation.text.filter(\.isLetter).count >= 10 },
                "none of it is a sure line of words")
    }
}
