import CardScanOCR

/// A projective map from the unit square (card coordinates u, v in 0…1, top-left origin of the
/// upright card) to photo pixels, built from the card's four corners (Heckbert's square-to-quad).
struct Homography: Sendable {
    private let a, b, c, d, e, f, g, h: Double

    /// The homography of a card read with these corners (TL, TR, BR, BL).
    init(_ quad: Quad) {
        self.init(corners: quad.corners)
    }

    /// `corners`: TL (0,0), TR (1,0), BR (1,1), BL (0,1) in photo pixels.
    init(corners p: [PixelPoint]) {
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (p[0].x, p[0].y, p[1].x, p[1].y, p[2].x, p[2].y, p[3].x, p[3].y)
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
        let det = dx1 * dy2 - dx2 * dy1
        var g = 0.0, h = 0.0
        if abs(sx) > 1e-9 || abs(sy) > 1e-9, abs(det) > 1e-12 {
            g = (sx * dy2 - dx2 * sy) / det
            h = (dx1 * sy - sx * dy1) / det
        }
        self.g = g
        self.h = h
        a = x1 - x0 + g * x1
        b = x3 - x0 + h * x3
        c = x0
        d = y1 - y0 + g * y1
        e = y3 - y0 + h * y3
        f = y0
    }

    /// The numerators and the denominator of `map(u, v)` (the pixel is x / w, y / w).
    @inline(__always) func terms(_ u: Double, _ v: Double) -> (x: Double, y: Double, w: Double) {
        (a * u + b * v + c, d * u + e * v + f, g * u + h * v + 1)
    }

    /// How `terms` change when u grows by `du`.
    func uStep(_ du: Double) -> (x: Double, y: Double, w: Double) { (a * du, d * du, g * du) }

    /// The photo pixel for card coordinates (u, v).
    @inline(__always) func map(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        let w = g * u + h * v + 1
        return ((a * u + b * v + c) / w, (d * u + e * v + f) / w)
    }
}

/// A rectangle in card coordinates (u, v in 0…1, top-left origin of the upright card).
struct CardRegion: Sendable, Equatable {
    var u0, v0, u1, v1: Double

    /// This region in card coordinates with a bottom-left origin (for reporting).
    func toBottomLeft(_ box: (x: Double, y: Double, w: Double, h: Double)) -> (x: Double, y: Double, w: Double, h: Double) {
        let x = u0 + box.x * (u1 - u0)
        let w = box.w * (u1 - u0)
        let h = box.h * (v1 - v0)
        // box.y is bottom-left within the region; convert to card bottom-left.
        let yTopInRegion = 1 - box.y - box.h
        let vTop = v0 + yTopInRegion * (v1 - v0)
        return (x, 1 - vTop - h, w, h)
    }
}

/// Samples rectified regions of the card from the full-resolution photo.
enum Rectifier {
    /// Warps `region` of the card into a `width`-pixel-wide image whose height follows the card's
    /// aspect ratio (63:88) so the result is undistorted. Bilinear, with 2x2 supersampling when the
    /// source is being reduced by more than 1.5x; with `cubicWhenEnlarged`, Catmull-Rom when the
    /// region's centre is enlarged more than 2x (one choice per patch).
    static func warp(_ image: GrayImage, homography: Homography, region: CardRegion, cardHeightPixels: Int, cubicWhenEnlarged: Bool = false) -> GrayImage {
        let cardH = Double(cardHeightPixels)
        let cardW = cardH * 63.0 / 88.0
        let outW = max(1, Int((region.u1 - region.u0) * cardW))
        let outH = max(1, Int((region.v1 - region.v0) * cardH))
        // Estimate the source step per output pixel at the region centre.
        let mid = homography.map((region.u0 + region.u1) / 2, (region.v0 + region.v1) / 2)
        let next = homography.map((region.u0 + region.u1) / 2 + 1 / cardW, (region.v0 + region.v1) / 2)
        let step = ((next.x - mid.x) * (next.x - mid.x) + (next.y - mid.y) * (next.y - mid.y)).squareRoot()
        let samples = step > 1.5 ? 2 : 1
        // Much enlarged, where asked (small print): cubic interpolation keeps the strokes' edges
        // that bilinear blurs.
        let enlarging = cubicWhenEnlarged && step < 0.5
        var out = [UInt8](repeating: 0, count: outW * outH)
        let du = (region.u1 - region.u0) / Double(outW), dv = (region.v1 - region.v0) / Double(outH)
        let inv = 1.0 / Double(samples * samples)
        let w = image.width, h = image.height
        // Along a row of the output the map's numerators and denominator are linear in u: they
        // advance by a constant step per output pixel, and only the division is left per sample.
        let advance = homography.uStep(du)
        var sums = [Double](repeating: 0, count: outW) // one output row's samples
        image.pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                sums.withUnsafeMutableBufferPointer { acc in
                    for oy in 0..<outH {
                        for ox in 0..<outW { acc[ox] = 0 }
                        for sy in 0..<samples {
                            let v = region.v0 + (Double(oy) + (Double(sy) + 0.5) / Double(samples)) * dv
                            for sx in 0..<samples {
                                var t = homography.terms(region.u0 + (Double(sx) + 0.5) / Double(samples) * du, v)
                                for ox in 0..<outW {
                                    acc[ox] += enlarging ? GrayImage.bicubic(p, width: w, height: h, t.x / t.w, t.y / t.w)
                                        : GrayImage.bilinear(p, width: w, height: h, t.x / t.w, t.y / t.w)
                                    t.x += advance.x; t.y += advance.y; t.w += advance.w
                                }
                            }
                        }
                        let row = oy * outW
                        for ox in 0..<outW { o[row + ox] = UInt8(max(0, min(255, acc[ox] * inv + 0.5))) }
                    }
                }
            }
        }
        return GrayImage(width: outW, height: outH, pixels: out)
    }
}
