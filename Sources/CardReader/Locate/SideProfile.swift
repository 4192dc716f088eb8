import CardScanOCR

/// Brightness across one side of a card's quad: at each offset along the side's outward normal, the
/// median of points spread over the side's middle 70% (away from the rounded corners), and their
/// interquartile spread (how even that line is). Medians, not means: the collector text and the
/// P/T box in the bottom border, or a glare spot, do not move them.
struct SideProfile {
    /// Median brightness at each offset.
    private(set) var levels: [Double] = []
    /// Interquartile spread of the points at each offset.
    private(set) var spreads: [Double] = []

    /// The profile of side `a`→`b` at `offsets` (pixels along the unit `normal`), from `points`
    /// points along the side.
    init(_ image: GrayImage, from a: PixelPoint, to b: PixelPoint, normal: (x: Double, y: Double), offsets: [Double], points: Int) {
        levels.reserveCapacity(offsets.count)
        spreads.reserveCapacity(offsets.count)
        var samples = [Double](repeating: 0, count: points)
        for d in offsets {
            for j in 0..<points {
                let t = 0.15 + 0.7 * Double(j) / Double(points - 1)
                samples[j] = image.bilinear(a.x + (b.x - a.x) * t + normal.x * d, a.y + (b.y - a.y) * t + normal.y * d)
            }
            samples.sort()
            levels.append(samples[points / 2])
            spreads.append(samples[points * 3 / 4] - samples[points / 4])
        }
    }
}

extension Geometry {
    /// The line through side `side` of a quad (from corner `side` to the next), its normal
    /// `(a, b)` pointing away from the quad's centre; nil for a side of no length.
    static func outwardLine(_ quad: Quad, side: Int) -> Line? {
        let (a, b) = quad.side(side)
        guard a != b, var line = fitLine([a, b]) else { return nil }
        let c = quad.centre
        if line.a * c.x + line.b * c.y > line.c { line = Line(a: -line.a, b: -line.b, c: -line.c) }
        return line
    }
}
