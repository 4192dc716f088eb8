import CardScanOCR
import Foundation
import Testing

@testable import CardReader

@Suite("Cards proposed beside the cards read: the step of a grid or a row")
struct NeighbourCardsTests {
    /// An upright card 63 × 88 (scaled by `scale`) with its top-left corner at (x, y).
    static func card(_ x: Double, _ y: Double, scale: Double = 3) -> Quad {
        let w = 63 * scale, h = 88 * scale
        return Quad([PixelPoint(x: x, y: y), PixelPoint(x: x + w, y: y), PixelPoint(x: x + w, y: y + h), PixelPoint(x: x, y: y + h)])
    }

    @Test("two cards side by side and one below give the steps across and down; a row gives its seam both ways; a lone card gives none")
    func steps() throws {
        let n = NeighbourCards()
        // Cards 189 × 264 with a 20 px seam across and a 30 px seam down.
        let steps = n.steps([Self.card(0, 0), Self.card(209, 0), Self.card(209, 294)])
        #expect(abs(try #require(steps.across) - 209.0 / 189) < 1e-9)
        #expect(abs(try #require(steps.down) - 294.0 / 264) < 1e-9)
        let lone = n.steps([Self.card(0, 0)])
        #expect(lone.across == nil && lone.down == nil)
        // Upside down, the axes flip but the step is the same.
        let turned = n.steps([Self.card(0, 0), Self.card(209, 0).turned(by: 2)])
        #expect(abs(try #require(turned.across) - 209.0 / 189) < 1e-9)
        // A row of two: the rows above and below are taken to lie at the same seam (20 px).
        let row = n.steps([Self.card(0, 0), Self.card(209, 0)])
        #expect(abs(try #require(row.down) - 284.0 / 264) < 1e-9)
        let column = n.steps([Self.card(0, 0), Self.card(0, 294)])
        #expect(abs(try #require(column.across) - 219.0 / 189) < 1e-9)
        // The first and third pockets of a column (the one between unread) show the step too.
        let apart = n.steps([Self.card(0, 0), Self.card(0, 588)])
        #expect(abs(try #require(apart.down) - 294.0 / 264) < 1e-9)
        #expect(n.isBeside(Self.card(0, 588), Self.card(0, 0)) == false, "two steps away is not beside")
        // 3.1 heights apart fits two steps of 1.55 and three of 1.03: the fewer unread cards between.
        #expect(abs(try #require(n.steps([Self.card(0, 0), Self.card(0, 3.1 * 264)]).down) - 1.55) < 1e-9)
    }

    @Test("a step asked of several pairs: a grid's pairs give it, one pair alone does not")
    func stepsOfSeveralPairs() throws {
        let n = NeighbourCards()
        // Three regions of a 2-column grid: two pairs side by side or one above the other (the
        // diagonal pair is neither).
        let grid = n.steps([Self.card(0, 0), Self.card(209, 0), Self.card(209, 294)], minimumPairs: 2)
        #expect(abs(try #require(grid.across) - 209.0 / 189) < 1e-9)
        #expect(abs(try #require(grid.down) - 294.0 / 264) < 1e-9)
        let pair = n.steps([Self.card(0, 0), Self.card(209, 0)], minimumPairs: 2)
        #expect(pair.across == nil && pair.down == nil)
        #expect(n.steps([Self.card(0, 0), Self.card(209, 0)], minimumPairs: 1).across != nil, "one pair is enough when one is asked")
        // Three in a row: two pairs a step apart (and one two steps apart).
        let row = n.steps([Self.card(0, 0), Self.card(209, 0), Self.card(418, 0)], minimumPairs: 2)
        #expect(abs(try #require(row.across) - 209.0 / 189) < 1e-9)
        // A step across and down at once is no pair: a card and its diagonal neighbour show none.
        let diagonal = n.steps([Self.card(0, 0), Self.card(209, 294), Self.card(418, 0)], minimumPairs: 2)
        #expect(diagonal.across == nil && diagonal.down == nil, "one pair (the first and third, two steps apart) is not two")
    }

    @Test("a proposal a little off its card moves onto the card the locator finds around it; with no card there it stays")
    func refinedProposal() throws {
        // A light card 189 × 264 on a dark table, and a proposal stepped 20 px right and 25 px up of it.
        let width = 500, height = 600
        var pixels = [UInt8](repeating: 40, count: width * height)
        for y in 120..<384 { for x in 100..<289 { pixels[y * width + x] = 210 } }
        let photo = GrayImage(width: width, height: height, pixels: pixels)
        let n = NeighbourCards(), locator = CardLocator()
        let stepped = Self.card(120, 95)
        let found = try #require(n.refined(stepped, in: photo, locator: locator, besides: []))
        #expect(Geometry.distance(found.centre, Self.card(100, 120).centre) < 4)
        #expect(abs(found.area / Self.card(100, 120).area - 1) < 0.05)
        let empty = GrayImage(width: width, height: height, pixels: [UInt8](repeating: 40, count: width * height))
        #expect(n.refined(stepped, in: empty, locator: locator, besides: []) == nil)
        // Nor a card read already, nor a card of another size.
        #expect(n.refined(stepped, in: photo, locator: locator, besides: [Self.card(100, 120)]) == nil)
        #expect(n.refined(Self.card(120, 95, scale: 1.5), in: photo, locator: locator, besides: []) == nil)
    }

    @Test("a region taken around a more card-like one keeps that one and its mirror image as its parts; a lone card has none")
    func partsOfARegion() throws {
        let locator = CardLocator()
        let inner: CardLocator.Candidate = (1.0, Self.card(0, 0).corners, "inner")
        // Two cards 189 × 264 side by side with a 20 px seam: shaped like one card, twice its area.
        let pair: CardLocator.Candidate = (0.5, [PixelPoint(x: 0, y: 0), PixelPoint(x: 398, y: 0), PixelPoint(x: 398, y: 264), PixelPoint(x: 0, y: 264)], "pair")
        let (chosen, within) = try #require(locator.chooseWithInner([inner, pair]))
        #expect(chosen.method == "pair" && within?.method == "inner")
        let parts = CardLocator.parts(of: chosen, inner: try #require(within))
        #expect(parts.count == 2 && parts[0].corners == inner.corners)
        let mirrored = Quad(CardLocator.portraitOrder(parts[1].corners))
        #expect(abs(mirrored.centre.x - (209 + 189.0 / 2)) < 1e-9 && abs(mirrored.centre.y - 132) < 1e-9)
        #expect(try #require(locator.chooseWithInner([inner])).inner == nil)
    }

    @Test("the locator takes a less card-like region lying one step beside a card taken, not one elsewhere")
    func besideCards() {
        let locator = CardLocator()
        let taken: CardLocator.Candidate = (1.0, Self.card(0, 0).corners, "taken")
        let beside: CardLocator.Candidate = (0.5, Self.card(209, 0).corners, "beside")
        let below: CardLocator.Candidate = (0.45, Self.card(0, 294).corners, "below")
        let apart: CardLocator.Candidate = (0.9 * locator.tuning.peerScore, Self.card(600, 700).corners, "apart")
        let weak: CardLocator.Candidate = (0.5 * locator.tuning.besideScore, Self.card(-209, 0).corners, "weak")
        let found = locator.besideCards([taken], among: [taken, beside, below, apart, weak], limit: 24).map(\.method)
        #expect(found == ["beside", "below"])
        #expect(locator.besideCards([taken], among: [taken, beside, below], limit: 2).map(\.method) == ["beside"], "no more than the limit")
    }

    @Test("cards apart, overlapping, out of line, of other sizes or turned a quarter show no step")
    func noStep() {
        let n = NeighbourCards()
        #expect(n.steps([Self.card(0, 0), Self.card(330, 0)]).across == nil, "most of a card's width apart: not neighbours, nor two steps")
        #expect(n.steps([Self.card(0, 0), Self.card(660, 0)]).across == nil, "two and a half cards' widths apart: neither")
        #expect(n.steps([Self.card(0, 0), Self.card(100, 0)]).across == nil, "overlapping")
        #expect(n.steps([Self.card(0, 0), Self.card(209, 120)]).across == nil, "out of line by almost half a card")
        #expect(n.steps([Self.card(0, 0), Self.card(209, 0, scale: 2)]).across == nil, "another size")
        #expect(n.steps([Self.card(0, 0), Self.card(209, 0).turned(by: 1)]).across == nil, "turned a quarter")
    }

    @Test("proposals lie one step across and down either way, inside the photo or a little beyond")
    func proposals() {
        let n = NeighbourCards()
        let card = Self.card(300, 300)
        let around = n.proposals(around: card, steps: (209.0 / 189, 294.0 / 264), imageWidth: 1000, imageHeight: 1000)
        #expect(around.count == 4)
        let xs = Set(around.map { Int($0[0].x.rounded()) }), ys = Set(around.map { Int($0[0].y.rounded()) })
        #expect(xs == [91, 300, 509] && ys == [6, 300, 594])
        // Only across known: a row; near the photo's left edge, the card beyond it is no proposal.
        let row = n.proposals(around: Self.card(20, 300), steps: (209.0 / 189, nil), imageWidth: 1000, imageHeight: 1000)
        #expect(row.map { Int($0[0].x.rounded()) } == [229])
    }

    @Test("a full page of cards closes its layout; a pocket unfound, room beside the page, a row or a lone card does not")
    func closedLayout() {
        let n = NeighbourCards()
        // A 3×3 page, cards 189 × 264 with 20 px seams across and 30 down, 20 px margins.
        let page = (0..<3).flatMap { row in (0..<3).map { column in Self.card(20 + 209 * Double(column), 20 + 294 * Double(row)) } }
        #expect(n.closes(page, imageWidth: 647, imageHeight: 892))
        for missing in [4, 0, 7] {
            var found = page
            found.remove(at: missing)
            #expect(!n.closes(found, imageWidth: 647, imageHeight: 892), "pocket \(missing) unfound")
        }
        #expect(!n.closes(page, imageWidth: 1200, imageHeight: 892), "room for a column more on the right")
        #expect(!n.closes(page, imageWidth: 647, imageHeight: 1050), "half a row more shown below: a cut card's title")
        var merged = page
        merged[4] = Self.card(20 + 209 - 95, 20 + 294 - 132, scale: 6)
        #expect(!n.closes(merged, imageWidth: 647, imageHeight: 892), "a region twice a card's size in a pocket")
        #expect(!n.closes([page[0]], imageWidth: 647, imageHeight: 892), "a lone card shows no step")
        // A row filling the photo's width: the places above and below lie outside it, but a row
        // shows no step down (an overlapping spread's cards above it).
        let row = (0..<3).map { column in Self.card(20 + 209 * Double(column), 20) }
        #expect(!n.closes(row, imageWidth: 647, imageHeight: 304))
    }

    @Test("the same place is told from a moved or resized one; shares of overlap are measured on the area")
    func samePlaceAndShare() {
        let n = NeighbourCards()
        let a = Self.card(100, 100)
        #expect(n.samePlace(a, Self.card(105, 103)))
        #expect(n.samePlace(a, Self.card(105, 103).turned(by: 2)), "in any turn")
        #expect(!n.samePlace(a, Self.card(130, 100)))
        #expect(!n.samePlace(a, Self.card(100, 100, scale: 2.7)), "an inner frame is not the card")
        #expect(NeighbourCards.share(of: a, in: a) == 1)
        #expect(NeighbourCards.share(of: a, in: Self.card(100 + 189.0 * 0.6, 100)) == 0.4)
        #expect(NeighbourCards.share(of: a, in: Self.card(400, 100)) == 0)
    }
}
