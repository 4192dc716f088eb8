import CardScanOCR
import Foundation
import Testing

@testable import CardReader

@Suite("The text box read again when a shadow leaves it next to nothing")
struct ShadowedTextTests {
    @Test("a card whose text box lies half in shadow still gives its rules text")
    func shadowedTextBox() throws {
        let reader = try CardReaderAccuracyTests.reader()
        let image = try Image(contentsOf: Paths.fixture("counterspell_flat.png"))
        let reading = try reader.read(image: image)
        var gray = image.grayPixels()
        // A soft shadow across the card's lower half: 25% of the light at the left edge, full
        // light from 60% of the width on (one threshold then loses the words in it).
        let reach = Double(gray.width) * 0.6
        for y in gray.height / 2..<gray.height {
            for x in 0..<Int(reach) {
                let light = 0.25 + 0.75 * Double(x) / reach
                gray.pixels[y * gray.width + x] = UInt8(Double(gray.pixels[y * gray.width + x]) * light)
            }
        }
        let text = try reader.readText(of: reading, in: gray).filter { $0.region == .textBox }.map(\.observation.text).joined(separator: " ")
        #expect(text.contains("target"), "\(text)")
    }
}
