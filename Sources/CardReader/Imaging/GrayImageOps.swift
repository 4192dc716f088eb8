import CardScanOCR

extension GrayImage {
    /// Bilinear sample at (x, y) in pixel units, pixel centres at integer + 0.5 (pixel i spans
    /// i…i+1), edges clamped.
    @inline(__always) func bilinear(_ x: Double, _ y: Double) -> Double {
        pixels.withUnsafeBufferPointer { Self.bilinear($0, width: width, height: height, x, y) }
    }

    /// Bilinear sample of a `width` x `height` pixel buffer (for loops that hold the buffer open).
    @inline(__always) static func bilinear(_ p: UnsafeBufferPointer<UInt8>, width: Int, height: Int, _ x: Double, _ y: Double) -> Double {
        let xc = min(max(x - 0.5, 0), Double(width - 1)), yc = min(max(y - 0.5, 0), Double(height - 1))
        let x0 = Int(xc), y0 = Int(yc)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = xc - Double(x0), fy = yc - Double(y0)
        let a = Double(p[y0 * width + x0]), b = Double(p[y0 * width + x1])
        let c = Double(p[y1 * width + x0]), d = Double(p[y1 * width + x1])
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }

    /// Catmull-Rom (cubic convolution, a = −0.5) interpolation at (x, y), pixel centres at +0.5,
    /// edges clamped: sharper than `bilinear` where the image is much enlarged (small print read
    /// from a small card keeps its strokes' edges).
    @inline(__always) static func bicubic(_ p: UnsafeBufferPointer<UInt8>, width: Int, height: Int, _ x: Double, _ y: Double) -> Double {
        let xc = min(max(x - 0.5, 0), Double(width - 1)), yc = min(max(y - 0.5, 0), Double(height - 1))
        let x0 = Int(xc), y0 = Int(yc)
        let fx = xc - Double(x0), fy = yc - Double(y0)
        @inline(__always) func weights(_ t: Double) -> (Double, Double, Double, Double) {
            let t2 = t * t, t3 = t2 * t
            return (-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1, -1.5 * t3 + 2 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2)
        }
        let wx = weights(fx), wy = weights(fy)
        let xs = (max(x0 - 1, 0), x0, min(x0 + 1, width - 1), min(x0 + 2, width - 1))
        @inline(__always) func row(_ yy: Int) -> Double {
            let r = min(max(yy, 0), height - 1) * width
            return wx.0 * Double(p[r + xs.0]) + wx.1 * Double(p[r + xs.1]) + wx.2 * Double(p[r + xs.2]) + wx.3 * Double(p[r + xs.3])
        }
        return wy.0 * row(y0 - 1) + wy.1 * row(y0) + wy.2 * row(y0 + 1) + wy.3 * row(y0 + 2)
    }

    /// The image turned `quarterTurns` × 90° clockwise.
    func turned(quarterTurns: Int) -> GrayImage {
        let k = ((quarterTurns % 4) + 4) % 4
        guard k != 0 else { return self }
        let w = width, h = height
        let (ow, oh) = k == 2 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let (ox, oy) = k == 1 ? (h - 1 - y, x) : k == 2 ? (w - 1 - x, h - 1 - y) : (y, w - 1 - x)
                        dst[oy * ow + ox] = src[y * w + x]
                    }
                }
            }
        }
        return GrayImage(width: ow, height: oh, pixels: out)
    }

    /// The part of the image `width` x `height` pixels from (`x`, `y`) (top-left origin; the
    /// rectangle must lie inside the image).
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> GrayImage {
        precondition(x >= 0 && y >= 0 && w >= 0 && h >= 0 && x + w <= width && y + h <= height, "crop outside the image")
        var out = [UInt8]()
        out.reserveCapacity(w * h)
        for row in y..<(y + h) { out += pixels[(row * width + x)..<(row * width + x + w)] }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// The part of the image around `points`: their bounding box grown by `margin` pixels on each
    /// side, kept inside the image, with its top-left corner in the image; nil when that leaves no
    /// pixel.
    func cropped(around points: [PixelPoint], margin: Double) -> (image: GrayImage, x: Int, y: Int)? {
        let xs = points.map(\.x), ys = points.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        let x0 = max(0, Int(minX - margin)), x1 = min(width, Int((maxX + margin).rounded(.up)))
        let y0 = max(0, Int(minY - margin)), y1 = min(height, Int((maxY + margin).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return (cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0), x0, y0)
    }

    /// The image scaled by about `wanted` for a read (enlarged bilinearly, or reduced by the
    /// whole factor nearest it: up to 1.5 times the scale wanted), scaled at most `maximumScale`
    /// times and to at most `maximumPixels`; with the scale it was given. A wanted scale that is
    /// not a positive number leaves it as it is. (Reduced by the factor above it, a patch wanted
    /// at 0.9 was halved: its lines at 55% of the size asked.)
    func scaled(by wanted: Double, maximumScale: Double, maximumPixels: Int) -> (image: GrayImage, scale: Double) {
        let fits = (Double(maximumPixels) / Double(max(1, width * height))).squareRoot()
        let scale = min(wanted, maximumScale, fits)
        guard scale.isFinite, scale > 0 else { return (self, 1) }
        if scale > 1 { return (enlarged(by: scale), scale) }
        var factor = max(1, Int((1 / scale).rounded()), Int((1 / maximumScale).rounded(.up)))
        while 1 / Double(factor) > fits { factor += 1 }
        return (reduced(by: factor), 1 / Double(factor))
    }

    /// The image enlarged by `factor` (> 1), bilinear: for text too small for Tesseract.
    func enlarged(by factor: Double) -> GrayImage {
        guard factor > 1 else { return self }
        let w = max(1, Int(Double(width) * factor)), h = max(1, Int(Double(height) * factor))
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<h {
                    let y = (Double(oy) + 0.5) / factor
                    for ox in 0..<w {
                        let v = Self.bilinear(src, width: width, height: height, (Double(ox) + 0.5) / factor, y)
                        dst[oy * w + ox] = UInt8(max(0, min(255, v + 0.5)))
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// The image with every pixel inside one of `quads` set to `value`: regions already read,
    /// blanked so that a read of the whole image finds only what lies elsewhere.
    func blanking(_ quads: [Quad], with value: UInt8) -> GrayImage {
        var out = pixels
        for quad in quads {
            let xs = quad.corners.map(\.x), ys = quad.corners.map(\.y)
            let x0 = max(0, Int(xs.min()!)), x1 = min(width - 1, Int(xs.max()!.rounded(.up)))
            let y0 = max(0, Int(ys.min()!)), y1 = min(height - 1, Int(ys.max()!.rounded(.up)))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0...y1 {
                for x in x0...x1 where quad.contains(PixelPoint(x: Double(x), y: Double(y))) {
                    out[y * width + x] = value
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Area-average reduction by an integer factor.
    func reduced(by factor: Int) -> GrayImage {
        guard factor > 1 else { return self }
        let w = width / factor, h = height / factor
        var out = [UInt8](repeating: 0, count: w * h)
        let area = factor * factor
        pixels.withUnsafeBufferPointer { src in
            var sums = [Int](repeating: 0, count: w)
            for oy in 0..<h {
                for i in 0..<w { sums[i] = 0 }
                for dy in 0..<factor {
                    let row = (oy * factor + dy) * width
                    for ox in 0..<w {
                        var s = 0
                        let base = row + ox * factor
                        for dx in 0..<factor { s += Int(src[base + dx]) }
                        sums[ox] += s
                    }
                }
                for ox in 0..<w { out[oy * w + ox] = UInt8(sums[ox] / area) }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Ink separated from an uneven ground by local contrast, as black on white: a pixel is ink
    /// when it is lighter (`lightText`) or darker than the mean of the `window` x `window` square
    /// around it by more than `margin` grey levels. For lettering that a global threshold loses,
    /// such as the pale, outlined titles of 1993–1997 cards on a textured coloured bar.
    func localContrastBinarized(window: Int, margin: Int, lightText: Bool) -> GrayImage {
        let w = width, h = height, r = max(1, window / 2)
        // Summed-area table with a zero first row and column.
        var sums = [Int](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var row = 0
            for x in 0..<w {
                row += Int(pixels[y * w + x])
                sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row
            }
        }
        var out = [UInt8](repeating: 255, count: w * h)
        for y in 0..<h {
            let y0 = max(0, y - r), y1 = min(h, y + r + 1)
            for x in 0..<w {
                let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                let total = sums[y1 * (w + 1) + x1] - sums[y0 * (w + 1) + x1] - sums[y1 * (w + 1) + x0] + sums[y0 * (w + 1) + x0]
                let difference = Int(pixels[y * w + x]) * (x1 - x0) * (y1 - y0) - total
                let contrast = lightText ? difference : -difference
                if contrast > margin * (x1 - x0) * (y1 - y0) { out[y * w + x] = 0 }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Whether the text (the minority class after Otsu thresholding) is lighter than its ground.
    func hasLightText() -> Bool {
        let t = otsuThreshold()
        var bright = 0
        for p in pixels where p > t { bright += 1 }
        return bright * 2 < pixels.count
    }

    /// Median grey value.
    func median() -> UInt8 {
        var hist = [Int](repeating: 0, count: 256)
        for p in pixels { hist[Int(p)] += 1 }
        var acc = 0
        for (v, n) in hist.enumerated() {
            acc += n
            if acc * 2 >= pixels.count { return UInt8(v) }
        }
        return 255
    }

    /// The mean grey of the rows in `rows` (every column); 0 for no rows.
    func mean(rows: Range<Int>) -> Double {
        let values = pixels[rows.lowerBound * width..<rows.upperBound * width]
        return values.isEmpty ? 0 : Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count)
    }

    /// Removes dark rows and columns along the edges (frame lines and border pieces caught by a
    /// band on light ground), which otherwise disturb Tesseract's line finding.
    func trimmingDarkEdges() -> GrayImage {
        guard width > 8, height > 8 else { return self }
        func rowMean(_ y: Int) -> Double { mean(rows: y..<y + 1) }
        func colMean(_ x: Int) -> Double { var s = 0; for y in 0..<height { s += Int(pixels[y * width + x]) }; return Double(s) / Double(height) }
        let level = Double(median()) * 0.75
        var top = 0, bottom = height, left = 0, right = width
        while top < height / 3, rowMean(top) < level { top += 1 }
        while bottom > height * 2 / 3, rowMean(bottom - 1) < level { bottom -= 1 }
        while left < width / 4, colMean(left) < level { left += 1 }
        while right > width * 3 / 4, colMean(right - 1) < level { right -= 1 }
        if top == 0, bottom == height, left == 0, right == width { return self }
        var out = [UInt8](repeating: 0, count: (right - left) * (bottom - top))
        for y in top..<bottom {
            for x in left..<right { out[(y - top) * (right - left) + (x - left)] = pixels[y * width + x] }
        }
        return GrayImage(width: right - left, height: bottom - top, pixels: out)
    }
}
