@testable import CardReader
import Foundation
import Testing

@Suite("Card layout geometry")
struct CardLayoutTests {
    /// A 630 x 880 px upright card at (100, 50): its text box spans 7.5%-92.5% of the width and ends
    /// 7% of the height above the bottom; the box's top is wherever its light region began.
    @Test("a card is placed around its text box, one way up for each long side")
    func cardsAroundTextBox() throws {
        let left = 100.0, top = 50.0, width = 630.0, height = 880.0
        let boxLeft = left + 0.075 * width, boxRight = left + 0.925 * width
        let boxBottom = top + 0.93 * height, boxTop = top + 0.57 * height
        let box = [PixelPoint(x: boxRight, y: boxBottom), PixelPoint(x: boxLeft, y: boxTop),
                   PixelPoint(x: boxRight, y: boxTop), PixelPoint(x: boxLeft, y: boxBottom)] // any order
        let cards = CardLayout.cardsAround(textBox: box)
        #expect(cards.count == 2)
        let truth = [PixelPoint(x: left, y: top), PixelPoint(x: left + width, y: top),
                     PixelPoint(x: left + width, y: top + height), PixelPoint(x: left, y: top + height)]
        // One of the two is the card, corner for corner (TL, TR, BR, BL), to a pixel or two.
        let upright = try #require(cards.first { $0[0].y < boxTop })
        for (p, t) in zip(upright, truth) {
            #expect(hypot(p.x - t.x, p.y - t.y) < 3, "\(p) vs \(t)")
        }
        // The other hangs the card the other way: its top edge lies below the box.
        let flipped = try #require(cards.first { $0[0].y > boxBottom })
        #expect(abs(Geometry.distance(flipped[0], flipped[1]) - width) < 3)
        #expect(abs(Geometry.distance(flipped[1], flipped[2]) - width / CardLocator.cardAspect) < 3)
    }
}
