import CardScanOCR

/// A card-shaped region found in a photo.
struct LocatedCard {
    /// Corners in photo pixels, clockwise from the top-left, the card's long side vertical
    /// (TL, TR, BR, BL of the card if it is upright; it may still be upside down).
    var corners: Quad
    /// 0…1: how card-like the region is (aspect ratio, rectangularity, size).
    var confidence: Double
    /// Which segmentation found it (for debugging).
    var method: String
    /// For the main region (the first located), taken as the card around a more card-like region
    /// inside it (`choose`: the card around its art box), the two cards it may be instead: that
    /// inner region and its mirror image through the region's centre. Two cards side by side (two
    /// pockets of a page, two toploaders) are shaped as one card twice the size, the one card's
    /// art box turned. Read when the region as a whole reads as no card (`PhotoRead`).
    var parts: [LocatedCard] = []
    /// With `parts`: card-like regions of a part's size elsewhere in the photo (the other
    /// pockets of the page), read once a part is found to be a card.
    var partPeers: [LocatedCard] = []
    /// Another place the card may be, read when nothing recognisable was read at `corners` (for a
    /// proposal, the card the locator finds around the place stepped to: `NeighbourCards.refined`).
    var alsoAt: Quad? = nil
}

/// Finds the card in a photo on a downscaled copy: several segmentations (edges, dark, light)
/// propose regions; each is fitted with a quadrilateral and scored on the 63:88 aspect ratio,
/// how well it fills its quadrilateral, and its size. Its numbers are `Tuning.Locator`'s.
struct CardLocator {
    var tuning = Tuning.Locator()
    /// The steps between the cards of a page or a row (`besideCards`).
    var neighbours = Tuning.Neighbours()
    static let cardAspect = 63.0 / 88.0

    func locate(_ photo: GrayImage) -> LocatedCard? {
        locateAll(photo, limit: 1).first
    }

    /// The cards in a photo, most card-like first (the one `locate` finds), then others of a
    /// similar size that do not overlap the ones taken, up to `limit`.
    func locateAll(_ photo: GrayImage, limit: Int) -> [LocatedCard] {
        locateWithBeside(photo, limit: limit).cards
    }

    /// `locateAll`'s cards, and the less card-like regions lying beside them (`besideCards`,
    /// method `beside`): places to read after the cards, as `NeighbourCards`' proposals are.
    func locateWithBeside(_ photo: GrayImage, limit: Int) -> (cards: [LocatedCard], beside: [LocatedCard]) {
        let (thumb, factor) = thumbnail(photo)
        guard thumb.width >= 16, thumb.height >= 16 else { return ([], []) }
        var candidates: [Candidate] = []
        for (method, mask) in candidateMasks(thumb) {
            for comp in mask.components(minArea: thumb.width * thumb.height / tuning.componentAreaDivisor) {
                guard let (score, corners) = evaluate(comp, in: thumb) else { continue }
                candidates.append((score, corners, method))
            }
        }
        var picked: [Candidate] = []
        var remaining = candidates
        // The main region's more card-like region inside it, when it was taken around one.
        var mainInner: Candidate?
        while picked.count < limit, let (best, within) = chooseWithInner(remaining) {
            if picked.isEmpty { mainInner = within }
            picked.append(best)
            remaining.removeAll { Self.overlaps($0.corners, best.corners) }
            // Other cards are as card-like as the first and about its size.
            remaining.removeAll { !isOtherCard($0, like: picked[0]) }
        }
        let beside = besideCards(picked, among: candidates, limit: limit)
        DebugDump.log(candidates.sorted { $0.score > $1.score }.prefix(8).map { "candidate \($0.method) \(String(format: "%.3f", $0.score)) \($0.corners.map { "\(Int($0.x * Double(factor))),\(Int($0.y * Double(factor)))" }.joined(separator: " "))" }
            + ["chosen \(picked.map(\.method).joined(separator: ", "))"])
        let scale = Double(factor)
        func located(_ c: Candidate, method: String) -> LocatedCard {
            let full = c.corners.map { PixelPoint(x: $0.x * scale, y: $0.y * scale) }
            return LocatedCard(corners: Quad(portraitOrder(full, imageWidth: photo.width, imageHeight: photo.height)), confidence: min(1, c.score), method: method)
        }
        var cards = picked.map { located($0, method: $0.method) }
        if let part = mainInner, let main = picked.first {
            cards[0].parts = Self.parts(of: main, inner: part).map { located($0, method: Self.partMethod) }
            cards[0].partPeers = peers(ofPart: part, around: main, among: candidates, limit: limit).map { located($0, method: $0.method) }
        }
        return (cards, beside.map { located($0, method: Self.besideMethod) })
    }

    /// Whether `c` may be another card of a photo whose cards are like `card`: as card-like as
    /// other cards are (`Tuning.Locator.peerScore`) and about its size.
    private func isOtherCard(_ c: Candidate, like card: Candidate) -> Bool {
        let ratio = Geometry.area(c.corners) / Geometry.area(card.corners)
        return c.score >= tuning.peerScore && ratio >= tuning.otherCardMinimumRatio && ratio <= tuning.otherCardMaximumRatio
    }

    /// The two cards `region` may be (`LocatedCard.parts`): `inner`, and its mirror image through
    /// the region's centre (a rectangle holding two cards side by side holds one in each half).
    static func parts(of region: Candidate, inner: Candidate) -> [Candidate] {
        let centre = Self.centre(region.corners)
        return [inner, (0, inner.corners.map { PixelPoint(x: 2 * centre.x - $0.x, y: 2 * centre.y - $0.y) }, inner.method)]
    }

    /// Regions as card-like as other cards are (`Tuning.Locator.peerScore`) and of `part`'s size,
    /// outside `region` and apart from each other, most card-like first (`LocatedCard.partPeers`).
    func peers(ofPart part: Candidate, around region: Candidate, among candidates: [Candidate], limit: Int) -> [Candidate] {
        var taken: [Candidate] = []
        for c in candidates.sorted(by: { $0.score > $1.score }) where taken.count < limit
            && isOtherCard(c, like: part) && !Self.overlaps(c.corners, region.corners)
            && !taken.contains(where: { Self.overlaps($0.corners, c.corners) }) {
            taken.append(c)
        }
        return taken
    }

    /// The `LocatedCard.method` of a region taken beside a card (`besideCards`).
    static let besideMethod = "beside"
    /// The `LocatedCard.method` of a part of a region that may be two cards (`LocatedCard.parts`).
    static let partMethod = "part"

    typealias Candidate = (score: Double, corners: [PixelPoint], method: String)

    /// Card-like regions lying one step beside a card taken, of its size and turned as it is
    /// (`NeighbourCards.isBeside`), taken on a lower score (`Tuning.Locator.besideScore`): in a
    /// page of pockets or toploaders, or a row on a table, a card's outline merges with its
    /// holder's or its neighbour's, and its region is less card-like than a loose card's. Each
    /// one taken may have its own neighbours, up to `limit` regions with the cards.
    func besideCards(_ picked: [Candidate], among candidates: [Candidate], limit: Int) -> [Candidate] {
        let layout = NeighbourCards(tuning: neighbours)
        var taken = picked, added: [Candidate] = []
        while taken.count < limit {
            let beside = candidates.filter { c in
                c.score >= tuning.besideScore && !taken.contains { Self.overlaps($0.corners, c.corners) }
                    && taken.contains { layout.isBeside(Quad(Self.portraitOrder(c.corners)), Quad(Self.portraitOrder($0.corners))) }
            }
            guard let best = beside.max(by: { $0.score < $1.score }) else { break }
            taken.append(best)
            added.append(best)
        }
        return added
    }

    /// The working copy of the photo and its reduction factor.
    private func thumbnail(_ photo: GrayImage) -> (GrayImage, Int) {
        let factor = max(1, Int((Double(max(photo.width, photo.height)) / Double(tuning.thumbnailSide)).rounded(.up)))
        return (photo.reduced(by: factor), factor)
    }

    /// Light, solid rectangles shaped like a card's text box (about twice as wide as tall), most
    /// box-like first, as quads in photo pixels (clockwise, in no particular rotation). Where a
    /// dark-bordered card on a dark background is lost in it, its light text box still stands out;
    /// `CardLayout.cardsAround(textBox:)` places the card around one.
    func textBoxes(_ photo: GrayImage, limit: Int) -> [Quad] {
        let (thumb, factor) = thumbnail(photo)
        guard thumb.width >= 16, thumb.height >= 16 else { return [] }
        let imageArea = Double(thumb.width * thumb.height)
        var found: [(score: Double, quad: [PixelPoint])] = []
        for (_, mask) in candidateMasks(thumb, lightOnly: true) {
            for comp in mask.components(minArea: thumb.width * thumb.height / tuning.textBoxAreaDivisor) {
                let m = tuning.textBoxEdgeMargin
                let touches = [comp.minX <= m, comp.minY <= m, comp.maxX >= thumb.width - (m + 1), comp.maxY >= thumb.height - (m + 1)]
                guard !touches.contains(true) else { continue }
                guard let rect = Geometry.minAreaRectangle(Geometry.convexHull(comp.boundary)) else { continue }
                let side1 = Geometry.distance(rect[0], rect[1]), side2 = Geometry.distance(rect[1], rect[2])
                guard side1 > 0, side2 > 0 else { continue }
                let aspect = min(side1, side2) / max(side1, side2)
                let fill = Double(comp.area) / (side1 * side2)
                guard fill > tuning.textBoxFill, aspect > tuning.textBoxMinimumAspect, aspect < tuning.textBoxMaximumAspect,
                      side1 * side2 < imageArea * tuning.textBoxMaximumShare else { continue }
                found.append((fill * exp(-pow((aspect - tuning.textBoxAspect) / tuning.textBoxAspectSpread, 2)), Self.expand(rect, by: 1.0)))
            }
        }
        var picked: [[PixelPoint]] = []
        for box in found.sorted(by: { $0.score > $1.score }) where picked.count < limit {
            if !picked.contains(where: { Self.overlaps($0, box.quad) }) { picked.append(box.quad) }
        }
        return picked.map { Quad($0.map { PixelPoint(x: $0.x * Double(factor), y: $0.y * Double(factor)) }) }
    }

    /// Whether two regions are (parts of) the same card: either's centre lies in the other.
    static func overlaps(_ a: [PixelPoint], _ b: [PixelPoint]) -> Bool {
        Geometry.contains(a, centre(b)) || Geometry.contains(b, centre(a))
    }

    /// Whether two quads are (parts of) the same card.
    static func overlaps(_ a: Quad, _ b: Quad) -> Bool {
        overlaps(a.corners, b.corners)
    }

    static func centre(_ q: [PixelPoint]) -> PixelPoint {
        PixelPoint(x: q.reduce(0) { $0 + $1.x } / 4, y: q.reduce(0) { $0 + $1.y } / 4)
    }

    /// The segmentations tried, each with holes filled so a card becomes one solid region:
    /// edge maps at three strengths and brightness thresholds at several levels, both polarities.
    /// `lightOnly`: only the light thresholds (no edge maps, no dark thresholds).
    private func candidateMasks(_ thumb: GrayImage, lightOnly: Bool = false) -> [(String, BinaryMask)] {
        var masks: [(String, BinaryMask)] = []
        if !lightOnly {
            let edges = thumb.sobelMagnitude()
            let otsuEdge = Double(max(12, edges.otsuThreshold()))
            for k in [tuning.edgeStrengthLow, tuning.edgeStrengthMid, tuning.edgeStrengthHigh] {
                let t = UInt8(min(250, otsuEdge * k))
                let filled = BinaryMask(edges) { $0 >= t }.dilated(1).holesFilled()
                let eroded = filled.eroded(1)
                masks.append(("edges\(k)", eroded))
                masks.append(("edges\(k)-split", eroded.eroded(2)))
            }
        }
        let otsu = Int(thumb.otsuThreshold())
        let spread = tuning.thresholdSpread
        for level in Set([otsu, otsu - spread, otsu + spread, tuning.fixedDarkLevel, tuning.fixedLightLevel].map { max(20, min(235, $0)) }).sorted() {
            let t = UInt8(level)
            let light = BinaryMask(thumb) { $0 >= t }.holesFilled()
            let dark = lightOnly ? nil : BinaryMask(thumb) { $0 < t }.holesFilled()
            for (name, mask) in [("dark\(level)", dark), ("light\(level)", light)] {
                guard let mask else { continue }
                let eroded = mask.eroded(1)
                masks.append((name, eroded))
                masks.append(("\(name)-split", eroded.eroded(2)))
            }
        }
        return masks
    }

    /// The best-scoring candidate, except that a card-like region 1.6–4x larger that contains it
    /// wins (the art box or text box of a card is itself card-shaped; the card contains it).
    func choose(_ candidates: [Candidate]) -> Candidate? {
        chooseWithInner(candidates)?.chosen
    }

    /// `choose`'s region, and the most card-like region when a region around it was chosen
    /// instead (`LocatedCard.parts`).
    func chooseWithInner(_ candidates: [Candidate]) -> (chosen: Candidate, inner: Candidate?)? {
        guard let first = candidates.max(by: { $0.score < $1.score }) else { return nil }
        var best = first
        var changed = true
        while changed {
            changed = false
            let area = Geometry.area(best.corners)
            let centre = Self.centre(best.corners)
            // A region holding a second card-like region of the same size beside this one is a
            // group of cards (a binder page, a row on a table), not the card around its art box.
            let peers = candidates.filter { c in
                let a = Geometry.area(c.corners)
                return c.score > tuning.peerScore && a > area * tuning.peerMinimumRatio && a < area * tuning.peerMaximumRatio
                    && !Self.overlaps(c.corners, best.corners)
            }
            let containing = candidates.filter { c in
                let a = Geometry.area(c.corners)
                return a > area * tuning.containingMinimumRatio && a < area * tuning.containingMaximumRatio
                    && c.score > tuning.containingScore && Geometry.contains(c.corners, centre)
                    && !peers.contains { Geometry.contains(c.corners, Self.centre($0.corners)) }
            }
            if let outer = containing.max(by: { $0.score < $1.score }) { best = outer; changed = true }
        }
        return (best, best.corners == first.corners ? nil : first)
    }

    /// Scores a region; returns the score and its fitted quad (thumbnail pixels).
    private func evaluate(_ comp: BinaryMask.Component, in thumb: GrayImage) -> (Double, [PixelPoint])? {
        let imageArea = Double(thumb.width * thumb.height)
        // Regions that run into two or more edges of the photo are background, not a card.
        let m = tuning.edgeMargin
        let touches = [comp.minX <= m, comp.minY <= m, comp.maxX >= thumb.width - (m + 1), comp.maxY >= thumb.height - (m + 1)].filter { $0 }.count
        guard touches < 2 else { return nil }
        let hull = Geometry.convexHull(comp.boundary)
        guard let rect = Geometry.minAreaRectangle(hull) else { return nil }
        let side1 = Geometry.distance(rect[0], rect[1]), side2 = Geometry.distance(rect[1], rect[2])
        let aspect = min(side1, side2) / max(side1, side2)
        let rectArea = side1 * side2
        let hullArea = Geometry.area(hull)
        guard rectArea > 0 else { return nil }
        let fill = Double(comp.area) / rectArea
        let convexity = hullArea / rectArea
        let areaFraction = rectArea / imageArea
        guard areaFraction > tuning.minimumAreaShare, areaFraction < tuning.maximumAreaShare else { return nil }
        var score = shapeScore(aspect: aspect, fill: fill, convexity: convexity, areaFraction: areaFraction)
        var fitted = refine(rect: rect, boundary: comp.boundary)
        if fitted == nil, fill > tuning.trapezoidFill, let trapezoid = Geometry.largestInscribedQuadrilateral(Self.decimated(hull, to: 120)) {
            // A trapezoid's sides lie too far from its rectangle's: fit from the hull's corners.
            fitted = refine(rect: trapezoid, boundary: comp.boundary)
        }
        if let fitted {
            // A card seen at an angle is a trapezoid: its rectangle is loosely filled and has the
            // wrong shape. Score the fitted quadrilateral too, on the aspect of the rectangle it
            // is a perspective view of.
            let quadArea = Geometry.area(fitted)
            if quadArea > 0 {
                let seen = Geometry.rectifiedAspect(fitted, imageWidth: thumb.width, imageHeight: thumb.height)
                score = max(score, shapeScore(aspect: seen, fill: min(1, Double(comp.area) / quadArea),
                                                   convexity: min(1, hullArea / quadArea), areaFraction: quadArea / imageArea))
            }
        }
        if touches == 1 { score *= tuning.edgeTouchPenalty }
        guard score > tuning.minimumScore else { return nil }
        let quad = fitted ?? rect
        // Grow by the erosion applied to the mask (about one thumbnail pixel).
        return (score, Self.expand(quad, by: 1.0))
    }

    /// Fits a line to the boundary points near each side of the rectangle and intersects them,
    /// which follows perspective better than the rectangle itself.
    private func refine(rect: [PixelPoint], boundary: [PixelPoint]) -> [PixelPoint]? {
        let band = max(2.0, tuning.fitBand * min(Geometry.distance(rect[0], rect[1]), Geometry.distance(rect[1], rect[2])))
        var lines: [Geometry.Line] = []
        for i in 0..<4 {
            let a = rect[i], b = rect[(i + 1) % 4]
            guard let side = Geometry.fitLine([a, b]) else { return nil }
            let len = Geometry.distance(a, b)
            // Points close to this side and within its middle (corners are rounded).
            let near = boundary.filter { p in
                let d = abs(side.a * p.x + side.b * p.y - side.c)
                guard d < band else { return false }
                let t = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (len * len)
                return t > tuning.fitSideStart && t < tuning.fitSideEnd
            }
            guard near.count >= tuning.fitMinimumPoints, let line = Geometry.fitLine(near) else { return nil }
            lines.append(line)
        }
        var corners: [PixelPoint] = []
        for i in 0..<4 {
            guard let p = Geometry.intersect(lines[(i + 3) % 4], lines[i]) else { return nil }
            corners.append(p)
        }
        // Reject a wild fit: every corner must stay near the rectangle's.
        for (p, q) in zip(corners, rect) where Geometry.distance(p, q) > band * tuning.fitCornerBands { return nil }
        return corners
    }

    /// How card-like a region is: aspect near 63:88, solidly filled, convex, not tiny.
    func shapeScore(aspect: Double, fill: Double, convexity: Double, areaFraction: Double) -> Double {
        let aspectScore = exp(-pow((aspect - Self.cardAspect) / tuning.aspectSpread, 2))
        let sizeScore = min(1, 0.5 + areaFraction / tuning.sizeShare)
        return aspectScore * pow(fill, 2) * convexity * sizeScore
    }

    /// Every k-th point, so no more than `limit` remain.
    static func decimated(_ points: [PixelPoint], to limit: Int) -> [PixelPoint] {
        guard points.count > limit else { return points }
        let step = Double(points.count) / Double(limit)
        return (0..<limit).map { points[Int(Double($0) * step)] }
    }

    /// Moves each corner away from the centre by `d` pixels.
    static func expand(_ quad: [PixelPoint], by d: Double) -> [PixelPoint] {
        let c = centre(quad)
        return quad.map { p in
            let len = max(1e-9, Geometry.distance(p, c))
            return PixelPoint(x: p.x + (p.x - c.x) / len * d * 1.41, y: p.y + (p.y - c.y) / len * d * 1.41)
        }
    }

    /// Clockwise from the top-left, rotated so the first side (TL→TR) is a short side.
    static func portraitOrder(_ quad: [PixelPoint]) -> [PixelPoint] {
        let c = Geometry.orderClockwise(quad)
        let top = Geometry.distance(c[0], c[1]) + Geometry.distance(c[2], c[3])
        let right = Geometry.distance(c[1], c[2]) + Geometry.distance(c[3], c[0])
        return top <= right ? c : [c[3], c[0], c[1], c[2]]
    }

    /// The same for a quad in a photo of that size, the short side judged on the rectangle the
    /// quad is a perspective view of: a card seen from low down looks wider than tall (its far
    /// half foreshortened) and, turned by its sides' lengths, would be read sideways (the reader
    /// tries it only upright and turned half-way round). The quad is turned back only when that
    /// rectangle is clearly wider than tall: near square, the fallback focal length could decide.
    func portraitOrder(_ quad: [PixelPoint], imageWidth: Int, imageHeight: Int) -> [PixelPoint] {
        let c = Self.portraitOrder(quad)
        let ratio = Geometry.rectifiedWidthOverHeight(c, imageWidth: imageWidth, imageHeight: imageHeight)
        guard ratio > tuning.decisiveRectifiedRatio else { return c }
        return [c[1], c[2], c[3], c[0]]
    }
}

#if canImport(Glibc)
import Glibc
#endif
