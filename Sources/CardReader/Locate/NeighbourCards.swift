import CardScanOCR

/// Cards proposed beside the cards already read in a photo: in a binder page, a grid or a row on a
/// table, the cards lie at one step from each other, across and down, so where two read cards show
/// that step (or, failing them, regions located: `PhotoRead`), a card is looked for one step
/// beyond each read card, also where the locator found no region (cards whose edges merge with
/// their pocket or their neighbour). A proposal is only a place to read: it becomes a card when
/// something recognisable is read on it, as any other region.
struct NeighbourCards {
    var tuning = Tuning.Neighbours()
    /// The `LocatedCard.method` of a proposal.
    static let method = "neighbour"

    /// The step between neighbouring cards, across (in card widths) and down (in card heights),
    /// each the median over pairs of `cards` (cards read, or regions located) of about one size
    /// and the same axes that lie side by side (or one above the other) at a step in
    /// `Tuning.Neighbours`' range, else over pairs two such steps apart (the card between them
    /// unread: a page's first and third pocket), a direction no pair shows completed from the
    /// other (`completed`); nil for both when no pair shows a step, or fewer than `minimumPairs`
    /// pairs do.
    func steps(_ cards: [Quad], minimumPairs: Int = 1) -> (across: Double?, down: Double?) {
        Self.completed(shownSteps(cards, minimumPairs: minimumPairs), range: stepRange)
    }

    /// The steps pairs of `cards` show (`steps`), a direction no pair shows nil (both nil when
    /// fewer than `minimumPairs` pairs show one).
    func shownSteps(_ cards: [Quad], minimumPairs: Int = 1) -> (across: Double?, down: Double?) {
        var across: [[Double]] = [[], []], down: [[Double]] = [[], []]
        var pairs = 0
        for (i, a) in cards.enumerated() {
            for b in cards[(i + 1)...] {
                // Where two steps and three fit alike (3.0–3.2 cards apart: cards with a half-card
                // gap two apart, or touching cards three apart), two: the fewer unread cards between.
                var shows = false
                for apart in [1, 2] {
                    let s = step(of: b, from: a, steps: Double(apart))
                    if let x = s.across { across[apart - 1].append(x) }
                    if let y = s.down { down[apart - 1].append(y) }
                    shows = shows || s.across != nil || s.down != nil
                }
                if shows { pairs += 1 }
            }
        }
        guard pairs >= minimumPairs else { return (nil, nil) }
        func median(_ v: [[Double]]) -> Double? {
            guard let found = v.first(where: { !$0.isEmpty }) else { return nil }
            return found.sorted()[found.count / 2]
        }
        return (median(across), median(down))
    }

    /// The steps of the tuning's range, in card widths or heights.
    var stepRange: ClosedRange<Double> { tuning.minimumStep...tuning.maximumStep }

    /// A direction no pair shows takes the gap the other shows, in pixels (the pockets of a page
    /// and cards laid out in rows are spaced about alike both ways), kept within `range`: a row of
    /// two read cards proposes the cards above and below them too.
    static func completed(_ steps: (across: Double?, down: Double?), range: ClosedRange<Double>) -> (across: Double?, down: Double?) {
        let aspect = CardLocator.cardAspect // a card's width over its height
        func clamped(_ step: Double) -> Double { min(range.upperBound, max(range.lowerBound, step)) }
        switch steps {
        case let (across?, nil): return (across, clamped(1 + (across - 1) * aspect))
        case let (nil, down?): return (clamped(1 + (down - 1) / aspect), down)
        default: return steps
        }
    }

    /// The step at which `b` lies `steps` steps from `a`, across (in `a`'s widths) or down (in
    /// its heights): a step in the tuning's range with the other way within its skew, `b` of about
    /// `a`'s size and turned as it is; nil for a way it does not lie that many steps.
    func step(of b: Quad, from a: Quad, steps: Double = 1) -> (across: Double?, down: Double?) {
        guard let (x, y) = offset(of: b, from: a) else { return (nil, nil) }
        let across = abs(x) / steps, down = abs(y) / steps
        return (abs(y) < tuning.maximumSkew && stepRange.contains(across) ? across : nil,
                abs(x) < tuning.maximumSkew && stepRange.contains(down) ? down : nil)
    }

    /// Whether `b` lies one step from `a` across or down (`step(of:from:)`).
    func isBeside(_ b: Quad, _ a: Quad) -> Bool {
        let s = step(of: b, from: a)
        return s.across != nil || s.down != nil
    }

    /// Where `b`'s centre lies from `a`'s, in `a`'s card widths (across) and heights (down); nil
    /// when the two are not of about one size or their sides do not run the same ways.
    func offset(of b: Quad, from a: Quad) -> (x: Double, y: Double)? {
        let ratio = b.area / max(1, a.area)
        guard ratio > tuning.minimumSizeRatio, ratio < 1 / tuning.minimumSizeRatio else { return nil }
        let (u, v) = Self.axes(a), (ub, _) = Self.axes(b)
        let uu = u.x * u.x + u.y * u.y, vv = v.x * v.x + v.y * v.y, ubub = ub.x * ub.x + ub.y * ub.y
        guard uu > 0, vv > 0, ubub > 0 else { return nil }
        // Cards turned a quarter from each other are no row (a half turn is: the axes only flip).
        let cosine = abs(u.x * ub.x + u.y * ub.y) / (uu * ubub).squareRoot()
        guard cosine > tuning.minimumAxisCosine else { return nil }
        let d = PixelPoint(x: b.centre.x - a.centre.x, y: b.centre.y - a.centre.y)
        return ((d.x * u.x + d.y * u.y) / uu, (d.x * v.x + d.y * v.y) / vv)
    }

    /// The quads one step across and one step down from `card` (either way), whose centres lie
    /// in the photo and whose corners lie within `Tuning.Neighbours.outsideShare` of a card's size
    /// of it (a card cut by the frame may still show its title or its collector line).
    func proposals(around card: Quad, steps: (across: Double?, down: Double?), imageWidth: Int, imageHeight: Int) -> [Quad] {
        let size = Self.size(card), margin = tuning.outsideShare * min(size.width, size.height)
        return places(around: card, steps: steps).filter { q in
            let c = q.centre
            guard c.x >= 0, c.y >= 0, c.x < Double(imageWidth), c.y < Double(imageHeight) else { return false }
            return q.corners.allSatisfy { p in
                p.x > -margin && p.y > -margin && p.x < Double(imageWidth) + margin && p.y < Double(imageHeight) + margin
            }
        }
    }

    /// The quads one step across and one step down from `card`, either way.
    func places(around card: Quad, steps: (across: Double?, down: Double?)) -> [Quad] {
        let (u, v) = Self.axes(card)
        var moves: [PixelPoint] = []
        if let s = steps.across { moves += [PixelPoint(x: u.x * s, y: u.y * s), PixelPoint(x: -u.x * s, y: -u.y * s)] }
        if let s = steps.down { moves += [PixelPoint(x: v.x * s, y: v.y * s), PixelPoint(x: -v.x * s, y: -v.y * s)] }
        return moves.map { m in card.map { PixelPoint(x: $0.x + m.x, y: $0.y + m.y) } }
    }

    /// Whether `cards` close their layout: a grid, pairs of them showing the step both across and
    /// down (`shownSteps`), each of them a step beside another, and every place a step beside one
    /// of them (`places`) on one of them of about its size, or nearly all beyond the photo (less
    /// than `Tuning.Neighbours.closedInsideShare` of it inside): a binder page whose every pocket
    /// holds a card found, no card of the layout left to find outside them. (Not a row: the
    /// cards of an overlapping spread lie less than a step apart, their title strips above or
    /// beside the cards found; not where a card cut by the photo's edge may show its title.)
    func closes(_ cards: [Quad], imageWidth: Int, imageHeight: Int) -> Bool {
        let steps = shownSteps(cards)
        guard steps.across != nil, steps.down != nil else { return false }
        let photo = ReadPipeline.wholeImage(width: imageWidth, height: imageHeight)
        return cards.enumerated().allSatisfy { i, card in
            cards.indices.contains { $0 != i && isBeside(cards[$0], card) }
                && places(around: card, steps: steps).allSatisfy { place in
                    Self.share(of: place, in: photo) < tuning.closedInsideShare
                        || cards.contains { offset(of: $0, from: place) != nil && CardLocator.overlaps(place, $0) }
                }
        }
    }

    /// `proposal` moved onto the card the locator finds around it: the locator run again on the
    /// photo around the proposal only (`Tuning.Neighbours.refineMargin` of a card's size beyond
    /// it on each side), where its levels are the neighbourhood's rather than the whole photo's,
    /// takes the card-like region nearest the proposal's centre, of about its size
    /// (`minimumSizeRatio`) and within `refineShift` of a card's height of it, not on one of
    /// `cards` (the cards read: two cards side by side also make a region of a card's size). A
    /// step measured from one card puts the next only about where it is (pockets hold their cards
    /// askew; a row on a table is seldom straight), and a title band a few pixels off reads
    /// nothing. Nil when no such region is found.
    func refined(_ proposal: Quad, in gray: GrayImage, locator: CardLocator, besides cards: [Quad]) -> Quad? {
        let (width, height) = Self.size(proposal)
        guard case let (crop, x0, y0)? = gray.cropped(around: proposal.corners, margin: tuning.refineMargin * max(width, height)),
              crop.width >= 32, crop.height >= 32 else { return nil }
        let centre = proposal.centre
        let found = locator.locateAll(crop, limit: 4).map { found in
            found.corners.map { PixelPoint(x: $0.x + Double(x0), y: $0.y + Double(y0)) }
        }.filter { q in
            let ratio = q.area / max(1, proposal.area)
            return ratio > tuning.minimumSizeRatio && ratio < 1 / tuning.minimumSizeRatio
                && Geometry.distance(q.centre, centre) < tuning.refineShift * height
                && !cards.contains { liesOn(q, $0) }
        }
        return found.min { Geometry.distance($0.centre, centre) < Geometry.distance($1.centre, centre) }
    }

    /// Whether `quad` lies on `card`: the same card (either's centre in the other), or over more
    /// than `Tuning.Neighbours.maximumSharedArea` of it (cards side by side share none: a quad
    /// straddling two cards, or placed wrong around a card's title).
    func liesOn(_ quad: Quad, _ card: Quad) -> Bool {
        CardLocator.overlaps(quad, card) || Self.share(of: quad, in: card) > tuning.maximumSharedArea
    }

    /// Whether two quads are the same place to read: their corners (in any turn) lie within
    /// `Tuning.Neighbours.samePlaceShare` of a card's height of each other on average.
    func samePlace(_ a: Quad, _ b: Quad) -> Bool {
        let height = Self.size(a).height
        let nearest = b.turns.map { t in zip(a.corners, t.corners).reduce(0) { $0 + Geometry.distance($1.0, $1.1) } / 4 }.min() ?? .infinity
        return nearest < tuning.samePlaceShare * height
    }

    /// The share of `a` that lies in `b`, on a 5 × 5 grid of points across `a`.
    static func share(of a: Quad, in b: Quad) -> Double {
        var inside = 0
        for i in 0..<5 {
            for j in 0..<5 {
                let s = (Double(i) + 0.5) / 5, t = (Double(j) + 0.5) / 5
                let top = PixelPoint(x: a[0].x + (a[1].x - a[0].x) * s, y: a[0].y + (a[1].y - a[0].y) * s)
                let bottom = PixelPoint(x: a[3].x + (a[2].x - a[3].x) * s, y: a[3].y + (a[2].y - a[3].y) * s)
                if b.contains(PixelPoint(x: top.x + (bottom.x - top.x) * t, y: top.y + (bottom.y - top.y) * t)) { inside += 1 }
            }
        }
        return Double(inside) / 25
    }

    /// The lengths of the card's width and height (`axes`).
    static func size(_ q: Quad) -> (width: Double, height: Double) {
        let (u, v) = axes(q)
        return ((u.x * u.x + u.y * u.y).squareRoot(), (v.x * v.x + v.y * v.y).squareRoot())
    }

    /// The card's width (top and bottom sides averaged, left to right) and height (left and right
    /// sides averaged, top to bottom) as vectors.
    static func axes(_ q: Quad) -> (u: PixelPoint, v: PixelPoint) {
        (PixelPoint(x: (q[1].x - q[0].x + q[2].x - q[3].x) / 2, y: (q[1].y - q[0].y + q[2].y - q[3].y) / 2),
         PixelPoint(x: (q[3].x - q[0].x + q[2].x - q[1].x) / 2, y: (q[3].y - q[0].y + q[2].y - q[1].y) / 2))
    }
}
