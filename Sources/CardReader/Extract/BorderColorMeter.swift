import CardScanOCR

/// Tells a white-bordered card from a black-bordered one, from the brightness just inside and
/// outside each side of its quad.
///
/// The border is the card's outermost band, about 4% of its width, of one even colour between the
/// coloured frame and whatever the card lies on. The quad found for a card can sit on its outer
/// edge, inside the border or on the inner frame, so each side is searched for such a band within
/// 5% of the quad's side: an even run 2.4–6.4% of the card's width long, clearly brighter (a white
/// border) or clearly darker (a black border) than the profile on *both* sides of it; the outermost
/// such run is the border. A border the same colour as the table has no outer edge, and that side
/// casts no vote.
///
/// Measured on the shared photos (45 black-bordered labelled cards, 1 white-bordered; 142 cards
/// in all): with the longest run taken anywhere near the side, single sides voted white 13 times on
/// black-bordered or unlabelled cards (a light even frame inside the border, a strip of table),
/// though never on three sides of one card. With the outermost run, a white one reaching the side,
/// measured at the located quad: no side votes white but on the three white-bordered cards,
/// and none votes black there. Hence the rule: white needs three sides and no
/// side voting black, black needs two sides and none voting white.
struct BorderColorMeter {
    /// Offsets along each side's outward normal, as fractions of the card's short side.
    static let from = -0.10, to = 0.08, step = 0.004
    static let count = Int(((to - from) / step).rounded()) + 1
    /// Sample points along each side.
    static let along = 64

    /// `"white"` or `"black"` (Scryfall's words) with the share of the four sides that agreed, or
    /// nil when the sides do not decide it.
    func measure(_ corners: Quad, in image: GrayImage) -> ExtractedField<String>? {
        let short = min(Geometry.distance(corners[0], corners[1]), Geometry.distance(corners[1], corners[2]))
        guard short > 60 else { return nil }
        let offsets = (0..<Self.count).map { (Self.from + Double($0) * Self.step) * short }
        let votes = (0..<4).map { side -> String? in
            guard let line = Geometry.outwardLine(corners, side: side) else { return nil }
            let profile = SideProfile(image, from: corners.side(side).from, to: corners.side(side).to, normal: (line.a, line.b),
                                      offsets: offsets, points: Self.along)
            return Self.vote(levels: profile.levels, spreads: profile.spreads)
        }
        let white = votes.filter { $0 == "white" }.count, black = votes.filter { $0 == "black" }.count
        let sides = votes.map { $0 ?? "-" }.joined(separator: " ")
        if white >= 3, black == 0 { return ExtractedField(value: "white", confidence: Double(white) / 4, sources: [sides]) }
        if black >= 2, white == 0 { return ExtractedField(value: "black", confidence: Double(black) / 4, sources: [sides]) }
        return nil
    }

    /// The side's vote: the outermost even run near the quad's side that stands out from both its
    /// neighbours, brighter (`white`) or darker (`black`); nil when there is none. The outermost,
    /// because the border is the card's outermost band: a black-bordered white card shows a light
    /// even frame just inside its black border. A white run must also span the side (from at most 1%
    /// outside it to at least 1.5% inside): a light band further in is a frame inside a border the
    /// quad stopped at, one further out is no part of the card (a toploader's rim, a strip of table).
    static func vote(levels: [Double], spreads: [Double]) -> String? {
        let n = levels.count
        let near = 0.05, whiteSpan = -0.015...0.01, evenness = 14.0, contrast = 30.0
        var best: (vote: String, end: Int, length: Int)?
        for s in 4..<n {
            var low = levels[s], high = levels[s]
            for e in (s + 1)..<min(n, s + 16) {
                low = min(low, levels[e]); high = max(high, levels[e])
                if high - low > evenness || median(spreads[s...e]) > evenness { break }
                // At least 6 samples (2.4% of the card's width), with room for the neighbours.
                guard e - s >= 5, e + 4 < n else { continue }
                // Overlapping the band within 5% of the side.
                let start = from + Double(s) * step, end = from + Double(e) * step
                guard start <= near, end >= -near else { continue }
                let level = median(levels[s...e])
                let inner = (levels[s - 4] + levels[s - 3] + levels[s - 2]) / 3
                let outer = (levels[e + 2] + levels[e + 3] + levels[e + 4]) / 3
                let vote: String
                if inner - level <= -contrast, outer - level <= -contrast, start <= whiteSpan.upperBound, end >= whiteSpan.lowerBound { vote = "white" }
                else if inner - level >= contrast, outer - level >= contrast { vote = "black" }
                else { continue }
                if let b = best, (e, e - s) <= (b.end, b.length) { continue }
                best = (vote, e, e - s)
            }
        }
        return best?.vote
    }

    private static func median(_ values: ArraySlice<Double>) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
