import CardScanOCR
import Foundation
import Testing

@testable import CardReader

/// The whole photo's text, read when no card found in it was recognised.
@Suite("Photo text (real Tesseract on a synthetic fixture)")
struct PhotoTextTests {
    @Test("a quarter turn moves each pixel clockwise; four turns give the image back")
    func turned() {
        // 3 × 2:  a b c      turned once:  d a
        //         d e f                    e b
        //                                  f c
        let image = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let once = image.turned(quarterTurns: 1)
        #expect(once.width == 2 && once.height == 3)
        #expect(once.pixels == [4, 1, 5, 2, 6, 3])
        #expect(image.turned(quarterTurns: 2).pixels == [6, 5, 4, 3, 2, 1])
        #expect(image.turned(quarterTurns: 3).pixels == [3, 6, 2, 5, 1, 4])
        #expect(image.turned(quarterTurns: 4) == image && image.turned(quarterTurns: -1) == image.turned(quarterTurns: 3))
    }

    @Test("the photo's words read the right way up, and not upside down")
    func wayUp() throws {
        let reader = try CardReader()
        let gray = try Image(contentsOf: Paths.fixture("broodhunter_wurm_flat.png")).grayPixels()
        let reads = reader.photoTextReads(gray)
        #expect(reads.count == 4, "every way up, by default")
        func words(_ turns: Int) throws -> Set<String> {
            Set(try reads[turns]().flatMap { $0.observation.text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init) })
        }
        let upright = try words(0)
        #expect(upright.contains("creature") || upright.contains("trample"), "\(upright.sorted())")
        let down = try words(2)
        #expect(!down.contains("creature") && !down.contains("trample"), "\(down.sorted())")
        #expect(try reads[0]().allSatisfy { $0.region == .photo })
    }
}
