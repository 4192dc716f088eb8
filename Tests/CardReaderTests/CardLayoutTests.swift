import CardScanOCR
import Foundation
import Testing

@testable import CardReader

@Suite("Card layout geometry")
struct CardLayoutTests {
    @Test("a 3:4 portrait photo with a card found in it reads that card before the whole image; a scan the other way round")
    func hypothesesOrder() {
        // A phone photo held upright is shaped like a card (a flat scan's shape): its whole frame
        // used to be read first, four title reads before the card the locator had found.
        let (w, h) = (2448, 3264)
        func quad(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Quad {
            Quad([PixelPoint(x: x, y: y), PixelPoint(x: x + width, y: y), PixelPoint(x: x + width, y: y + height), PixelPoint(x: x, y: y + height)])
        }
        let whole = ReadPipeline.wholeImage(width: w, height: h)
        let card = quad(800, 1000, 900, 1260) // 14% of the photo
        func order(_ located: Quad?, _ confidence: Double, scanShaped: Bool = true) -> [Quad] {
            ReadPipeline.hypotheses(located: located, confidence: confidence, scanShaped: scanShaped, imageWidth: w, imageHeight: h)
        }
        #expect(order(card, 0.95) == [card, whole], "a card in a photo")
        #expect(order(card, 0.4) == [whole, card], "a weak region: maybe a scan's art or text box")
        let most = quad(100, 100, 2200, 3000)
        #expect(order(most, 0.95) == [whole, most], "a region filling most of the image: a scan")
        #expect(order(card, 0.95, scanShaped: false) == [card], "not shaped like a card: only the region")
        #expect(order(nil, 0) == [whole], "nothing located")
    }

    /// The upright card the placement tests place: 630 x 880 px at (100, 50).
    static let (left, top, width, height) = (100.0, 50.0, 630.0, 880.0)

    /// Whether `quad` is that card, corner for corner (TL, TR, BR, BL), to a pixel or two.
    static func expectIsTheCard(_ quad: Quad) {
        let truth = [PixelPoint(x: left, y: top), PixelPoint(x: left + width, y: top),
                     PixelPoint(x: left + width, y: top + height), PixelPoint(x: left, y: top + height)]
        for (p, t) in zip(quad.corners, truth) {
            #expect(hypot(p.x - t.x, p.y - t.y) < 3, "\(p) vs \(t)")
        }
    }

    /// A 630 x 880 px upright card at (100, 50): its text box spans 7.5%-92.5% of the width and ends
    /// 7% of the height above the bottom; the box's top is wherever its light region began.
    @Test("a card is placed around its text box, one way up for each long side")
    func cardsAroundTextBox() throws {
        let (left, top, width, height) = (Self.left, Self.top, Self.width, Self.height)
        let boxLeft = left + 0.075 * width, boxRight = left + 0.925 * width
        let boxBottom = top + 0.93 * height, boxTop = top + 0.57 * height
        let box = Quad([PixelPoint(x: boxRight, y: boxBottom), PixelPoint(x: boxLeft, y: boxTop),
                        PixelPoint(x: boxRight, y: boxTop), PixelPoint(x: boxLeft, y: boxBottom)]) // any order
        let cards = CardLayout.cardsAround(textBox: box)
        #expect(cards.count == 2)
        // One of the two is the card.
        Self.expectIsTheCard(try #require(cards.first { $0[0].y < boxTop }))
        // The other hangs the card the other way: its top edge lies below the box.
        let flipped = try #require(cards.first { $0[0].y > boxBottom })
        #expect(abs(Geometry.distance(flipped[0], flipped[1]) - width) < 3)
        #expect(abs(Geometry.distance(flipped[1], flipped[2]) - width / CardLocator.cardAspect) < 3)
    }

    /// The same card found as its art (7.8%-92.2% of the width, 11.4%-56% of the height): one of
    /// the two cards placed around it is the card.
    @Test("a card is placed around a region found as its art")
    func cardsAroundArt() throws {
        let (left, top, width, height) = (Self.left, Self.top, Self.width, Self.height)
        let artLeft = left + 0.078 * width, artRight = left + 0.922 * width
        let artTop = top + 0.114 * height, artBottom = top + 0.56 * height
        // As the locator gives a card lying sideways: its top edge one of the art's short sides.
        let art = Quad([PixelPoint(x: artRight, y: artTop), PixelPoint(x: artRight, y: artBottom),
                        PixelPoint(x: artLeft, y: artBottom), PixelPoint(x: artLeft, y: artTop)])
        let cards = CardLayout.cardsAround(art: art)
        #expect(cards.count == 2)
        Self.expectIsTheCard(try #require(cards.first { $0[0].y < artTop }))
    }

    /// A 63 x 88 mm card lying on a table 300 mm from a camera that looks at it 60° away from
    /// straight down (focal length 3000 px, 4000 x 3000 photo): so foreshortened that it looks
    /// wider (~640 px) than tall (~455 px).
    @Test("a card seen at a steep angle keeps its long side vertical though it looks wider than tall")
    func foreshortenedCard() throws {
        let f = 3000.0, (cx, cy) = (2000.0, 1500.0), (s, c) = (sin(Double.pi / 3), cos(Double.pi / 3))
        // Card points (mm, x right, y away from the camera) to photo pixels.
        func pixel(_ x: Double, _ y: Double) -> PixelPoint {
            let (ys, zs) = (y * c, 300 + y * s) // the table turned away about the card's centre
            return PixelPoint(x: cx + f * x / zs, y: cy - f * ys / zs)
        }
        let quad = [pixel(-31.5, 44), pixel(31.5, 44), pixel(31.5, -44), pixel(-31.5, -44)] // TL, TR, BR, BL
        let seenWidth = Geometry.distance(quad[0], quad[1]) + Geometry.distance(quad[2], quad[3])
        let seenHeight = Geometry.distance(quad[1], quad[2]) + Geometry.distance(quad[3], quad[0])
        #expect(seenWidth > seenHeight, "the premise: it looks lying down")
        #expect(abs(Geometry.rectifiedAspect(quad, imageWidth: 4000, imageHeight: 3000) - CardLocator.cardAspect) < 0.05, "a typical lens stands in for this one")
        // By side lengths it would be turned a quarter; by the rectangle it is a view of, it stays.
        #expect(Geometry.distance(CardLocator.portraitOrder(quad)[0], quad[0]) > 1)
        let ordered = CardLocator().portraitOrder(quad, imageWidth: 4000, imageHeight: 3000)
        #expect(ordered.map(\.x) == quad.map(\.x) && ordered.map(\.y) == quad.map(\.y))
        // A card seen square-on keeps the side-length order.
        let flat = [PixelPoint(x: 100, y: 50), PixelPoint(x: 730, y: 50), PixelPoint(x: 730, y: 930), PixelPoint(x: 100, y: 930)]
        #expect(CardLocator().portraitOrder(flat, imageWidth: 4000, imageHeight: 3000).map(\.x) == flat.map(\.x))
    }

    @Test("small print enlarged more than 2x is sampled cubically: the same values at pixel centres, a steeper edge")
    func cubicWhenEnlarged() {
        // A 63 x 88 px card, black left half and white right half: a band across it enlarged
        // ~10x (a card 2,300 px tall) crosses the edge in fewer grey pixels with cubic sampling.
        let (w, h) = (63, 88)
        let gray = GrayImage(width: w, height: h, pixels: (0..<(w * h)).map { $0 % w < w / 2 ? 0 : 255 })
        let card = Homography(Quad([PixelPoint(x: 0, y: 0), PixelPoint(x: Double(w), y: 0), PixelPoint(x: Double(w), y: Double(h)),
                                    PixelPoint(x: 0, y: Double(h))]))
        let band = CardRegion(u0: 0.3, v0: 0.45, u1: 0.7, v1: 0.55)
        func grey(_ cubic: Bool) -> Int {
            let out = Rectifier.warp(gray, homography: card, region: band, cardHeightPixels: 880, cubicWhenEnlarged: cubic)
            let row = out.pixels[(out.height / 2 * out.width)..<((out.height / 2 + 1) * out.width)]
            return row.filter { $0 > 25 && $0 < 230 }.count
        }
        #expect(grey(true) < grey(false), "cubic \(grey(true)), bilinear \(grey(false)) grey pixels across the edge")
        // Not enlarged more than 2x: the same as bilinear.
        let plain = Rectifier.warp(gray, homography: card, region: band, cardHeightPixels: 150, cubicWhenEnlarged: false)
        let asked = Rectifier.warp(gray, homography: card, region: band, cardHeightPixels: 150, cubicWhenEnlarged: true)
        #expect(plain == asked)
        // At pixel centres the cubic kernel gives the pixel itself.
        let noise = GrayImage(width: 8, height: 8, pixels: (0..<64).map { UInt8(($0 * 37) % 256) })
        noise.pixels.withUnsafeBufferPointer { p in
            for (x, y) in [(3, 4), (0, 0), (7, 7), (5, 1)] {
                #expect(abs(GrayImage.bicubic(p, width: 8, height: 8, Double(x) + 0.5, Double(y) + 0.5) - Double(noise.pixels[y * 8 + x])) < 1e-9)
            }
        }
        // Between centres, Catmull-Rom's values: an edge 0 0 255 255 is 127.5 halfway and 51.8 a
        // quarter of the way (bilinear: 63.75), and a straight ramp is followed exactly.
        let edge: [UInt8] = [0, 0, 255, 255], ramp: [UInt8] = [0, 10, 20, 30, 40, 50, 60, 70]
        edge.withUnsafeBufferPointer { p in
            #expect(abs(GrayImage.bicubic(p, width: 4, height: 1, 2.0, 0.5) - 127.5) < 1e-9)
            #expect(abs(GrayImage.bicubic(p, width: 4, height: 1, 1.75, 0.5) - 51.796875) < 1e-9)
        }
        ramp.withUnsafeBufferPointer { p in
            #expect(abs(GrayImage.bicubic(p, width: 8, height: 1, 3.8, 0.5) - 33) < 1e-9)
        }
        // The bottom lines' patches (read at `bottomCardHeight`) ask for it; a title's does not.
        let quad = Quad([PixelPoint(x: 0, y: 0), PixelPoint(x: Double(w), y: 0), PixelPoint(x: Double(w), y: Double(h)), PixelPoint(x: 0, y: Double(h))])
        func same(_ patch: GrayImage, _ warped: GrayImage) -> Bool { patch == warped || patch == warped.inverted() }
        let bottom = ReadPipeline.patch(band, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: quad, trimmed: false)
        #expect(same(bottom, Rectifier.warp(gray, homography: card, region: band, cardHeightPixels: CardLayout.bottomCardHeight, cubicWhenEnlarged: true)))
        #expect(!same(bottom, Rectifier.warp(gray, homography: card, region: band, cardHeightPixels: CardLayout.bottomCardHeight)))
        let title = ReadPipeline.patch(band, cardHeight: CardLayout.titleCardHeight, gray: gray, corners: quad, trimmed: false)
        #expect(same(title, Rectifier.warp(gray, homography: card, region: band, cardHeightPixels: CardLayout.titleCardHeight)))
    }
}
