import CardScanOCR

/// Moves each side of a located quad out to the card's real edge when the locator stopped at the
/// inner frame of a black-bordered card (common on dark backgrounds, where the black border
/// blends in). For each side it profiles the brightness (`SideProfile`) at growing outward
/// offsets; a dark, even band just outside followed by a clear change is a border.
struct BorderRefiner {
    func refine(_ corners: Quad, in image: GrayImage) -> Quad {
        let short = min(Geometry.distance(corners[0], corners[1]), Geometry.distance(corners[1], corners[2]))
        guard short > 40 else { return corners }
        var lines: [Geometry.Line] = []
        for i in 0..<4 {
            let (a, b) = corners.side(i)
            guard var line = Geometry.outwardLine(corners, side: i) else { return corners }
            let shift = outwardShift(a: a, b: b, normal: (line.a, line.b), short: short, image: image)
            line.c += shift
            lines.append(line)
        }
        var out: [PixelPoint] = []
        for i in 0..<4 {
            // Corner i is where the side before it meets side i.
            guard let p = Geometry.intersect(lines[(i + 3) % 4], lines[i]) else { return corners }
            out.append(p)
        }
        return Quad(out)
    }

    /// How far (pixels) to move the side outward; 0 when no border is detected.
    private func outwardShift(a: PixelPoint, b: PixelPoint, normal: (Double, Double), short: Double, image: GrayImage) -> Double {
        let step = max(1, short * 0.004)
        let maxSteps = Int(short * 0.09 / step)
        let measured = SideProfile(image, from: a, to: b, normal: normal, offsets: (0...maxSteps).map { Double($0) * step }, points: 48)
        let profile = measured.levels, spread = measured.spreads
        // The band just outside the current side (1–2.5% of the card width).
        let i0 = max(1, Int(short * 0.010 / step)), i1 = max(i0 + 1, Int(short * 0.025 / step))
        guard i1 < profile.count else { return 0 }
        let band = profile[i0...i1], bandSpread = spread[i0...i1]
        let border = band.reduce(0, +) / Double(band.count)
        let evenness = bandSpread.reduce(0, +) / Double(bandSpread.count)
        guard border < 70, evenness < 28 else { return 0 }
        // Walk outward until the brightness leaves the border level for good.
        for k in (i1 + 1)..<profile.count {
            if abs(profile[k] - border) > 22, k + 1 < profile.count, abs(profile[k + 1] - border) > 22 {
                return Double(k) * step - step / 2
            }
        }
        return 0
    }
}
