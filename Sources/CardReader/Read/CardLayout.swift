/// Where text sits on a card, in card coordinates (u right, v down, 0…1 of the upright card),
/// and how large the rectified copies are made so text is about 30 px tall for Tesseract.
enum CardLayout {
    /// Title line (left part of the title bar; the mana cost at the right is left out).
    static let title = CardRegion(u0: 0.04, v0: 0.035, u1: 0.80, v1: 0.105)
    /// Card height in pixels at which the title's letters are about 30 px tall.
    static let titleCardHeight = 1100

    /// The 2003–2014 copyright line (centre/right of the bottom edge), holding `181/350`.
    static let copyright = CardRegion(u0: 0.30, v0: 0.925, u1: 0.975, v1: 0.990)
    /// Card height in pixels at which the bottom lines' capitals are about 30 px tall.
    static let bottomCardHeight = 2300

    /// The 2015+ collector lines (bottom left), read as a block of two lines.
    /// It reaches past the card's bottom edge: when the locator stopped at the inner frame of a
    /// black-bordered card the real lines sit just below the quad.
    static let collector = CardRegion(u0: 0.01, v0: 0.91, u1: 0.48, v1: 1.035)

    /// Where the rules text box sits (2003 and later frames, and close on older ones): it starts
    /// ~7.5% of the width in from either side and ends ~7% of the height above the bottom edge
    /// (measured on a 2015 card: the light region there is the type line and the text box).
    static let textBoxInset = 0.075
    static let textBoxBottomMargin = 0.07

    /// Where the art sits (2003 and later frames, and close on older ones): ~7.8% of the width
    /// in from either side, its bottom edge ~44% of the height above the card's (measured on a
    /// 2015 card; its top edge ~11.4% down). A card whose edges merge with the table is found as
    /// its art, the strongest rectangle on it.
    static let artInset = 0.078
    static let artBottomMargin = 0.44

    /// The two cards a text box can belong to (photo pixels, TL, TR, BR, BL of the upright card):
    /// one for each of the box's long sides taken as its bottom. The card is as wide as the box
    /// allows, 63:88, squared on the box's sides; perspective is ignored, so the quads are rough.
    static func cardsAround(textBox box: Quad) -> [Quad] {
        cardsAround(box, inset: textBoxInset, bottomMargin: textBoxBottomMargin)
    }

    /// The two cards a region found as a card may be the art of (as `cardsAround(textBox:)`).
    static func cardsAround(art box: Quad) -> [Quad] {
        cardsAround(box, inset: artInset, bottomMargin: artBottomMargin)
    }

    /// The cards around a box that lies `inset` of the card's width in from either side and
    /// `bottomMargin` of its height above its bottom edge, each of the box's long sides taken
    /// as its bottom.
    private static func cardsAround(_ box: Quad, inset: Double, bottomMargin: Double) -> [Quad] {
        let c = Quad(Geometry.orderClockwise(box.corners))
        let first = Geometry.distance(c[0], c[1]) >= Geometry.distance(c[1], c[2]) ? 0 : 1
        return [first, first + 2].map { start in
            let tl = c[start], tr = c[start + 1], br = c[start + 2], bl = c[start + 3]
            // The card's width vector, and its height along the box's sides.
            let scale = 1 / (1 - 2 * inset) / 2
            let wx = (br.x - bl.x + tr.x - tl.x) * scale, wy = (br.y - bl.y + tr.y - tl.y) * scale
            let width = (wx * wx + wy * wy).squareRoot()
            var dx = (bl.x - tl.x + br.x - tr.x) / 2, dy = (bl.y - tl.y + br.y - tr.y) / 2
            let side = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let height = width / CardLocator.cardAspect
            dx = dx / side * height
            dy = dy / side * height
            let cbl = PixelPoint(x: bl.x - inset * wx + bottomMargin * dx, y: bl.y - inset * wy + bottomMargin * dy)
            let cbr = PixelPoint(x: br.x + inset * wx + bottomMargin * dx, y: br.y + inset * wy + bottomMargin * dy)
            return Quad([PixelPoint(x: cbl.x - dx, y: cbl.y - dy), PixelPoint(x: cbr.x - dx, y: cbr.y - dy), cbr, cbl])
        }
    }

    /// The type line and the text box below it, read as one block: from the type line's top
    /// (2015 frames ~0.56, 1993–2003 frames ~0.555) to the text box's bottom (~0.90), inside the
    /// frame. The expansion symbol at the type line's right end reads as a short word of noise.
    static let textBlock = CardRegion(u0: 0.06, v0: 0.545, u1: 0.94, v1: 0.915)
    /// Card height in pixels at which rules text is about 25 px tall.
    static let textCardHeight = 1500

    /// The bottom lines across the whole card: the artist credit (`Illus.` on 1993–2014 frames,
    /// after the pen on 2015+ frames) and the copyright line with its year.
    static let credits = CardRegion(u0: 0.02, v0: 0.905, u1: 0.98, v1: 0.995)

    /// Bands to try when the standard ones read nothing convincing: the locator may have stopped
    /// at the card's inner frame, so the title can sit above the quad and the collector lines
    /// below it.
    static let extendedTitle = CardRegion(u0: 0.04, v0: -0.015, u1: 0.80, v1: 0.11)
    static let extendedCollector = CardRegion(u0: 0.01, v0: 0.91, u1: 0.48, v1: 1.08)
}
