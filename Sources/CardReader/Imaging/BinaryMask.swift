import CardScanOCR

/// A binary image (1 = set) on the locator's thumbnail grid, with the few morphology operations
/// the card locator needs.
struct BinaryMask {
    let width: Int
    let height: Int
    var bits: [UInt8]

    init(width: Int, height: Int, bits: [UInt8]) {
        self.width = width
        self.height = height
        self.bits = bits
    }

    /// Pixels of `image` for which `predicate` holds.
    init(_ image: GrayImage, where predicate: (UInt8) -> Bool) {
        self.init(width: image.width, height: image.height, bits: image.pixels.map { predicate($0) ? 1 : 0 })
    }

    /// 3x3 dilation, `times` times.
    func dilated(_ times: Int = 1) -> BinaryMask { morph(times, set: true) }
    /// 3x3 erosion, `times` times.
    func eroded(_ times: Int = 1) -> BinaryMask { morph(times, set: false) }

    /// 3x3 dilation or erosion as two separable 3-tap passes (rows, then columns); pixels outside
    /// the image count as unset. A mask under 2 pixels a side comes back unchanged.
    private func morph(_ times: Int, set: Bool) -> BinaryMask {
        let w = width, h = height
        // (The locator's thumbnails are at least 16 pixels a side.)
        guard w >= 2, h >= 2 else { return self }
        var cur = bits
        var tmp = [UInt8](repeating: 0, count: w * h)
        // Bits are 0 or 1: OR dilates, AND erodes. The interior loops have no branches (they
        // vectorise); the first and last column and row see an unset pixel beyond the image.
        @inline(__always) func combine(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 { set ? (a | b | c) : (a & b & c) }
        for _ in 0..<times {
            cur.withUnsafeMutableBufferPointer { c in
                tmp.withUnsafeMutableBufferPointer { t in
                    for y in 0..<h {
                        let r = y * w
                        t[r] = combine(0, c[r], c[r + 1])
                        if set {
                            for x in 1..<(w - 1) { t[r + x] = c[r + x - 1] | c[r + x] | c[r + x + 1] }
                        } else {
                            for x in 1..<(w - 1) { t[r + x] = c[r + x - 1] & c[r + x] & c[r + x + 1] }
                        }
                        t[r + w - 1] = combine(c[r + w - 2], c[r + w - 1], 0)
                    }
                    for x in 0..<w {
                        c[x] = combine(0, t[x], t[w + x])
                        c[(h - 1) * w + x] = combine(t[(h - 2) * w + x], t[(h - 1) * w + x], 0)
                    }
                    for y in 1..<(h - 1) {
                        let r = y * w
                        if set {
                            for x in 0..<w { c[r + x] = t[r - w + x] | t[r + x] | t[r + w + x] }
                        } else {
                            for x in 0..<w { c[r + x] = t[r - w + x] & t[r + x] & t[r + w + x] }
                        }
                    }
                }
            }
        }
        return BinaryMask(width: w, height: h, bits: cur)
    }

    /// Fills holes: every 0 pixel not connected (4-way) to the image border becomes 1.
    func holesFilled() -> BinaryMask {
        let w = width, h = height
        var out = [UInt8](repeating: 1, count: w * h) // 1 = not reached from the border
        var stack = [Int32](repeating: 0, count: w * h)
        bits.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in
                stack.withUnsafeMutableBufferPointer { s in
                    // Each pixel is pushed at most once, so the stack never outgrows the image.
                    var top = 0
                    @inline(__always) func push(_ i: Int) { if b[i] == 0 && o[i] == 1 { o[i] = 0; s[top] = Int32(i); top += 1 } }
                    for x in 0..<w { push(x); push((h - 1) * w + x) }
                    for y in 0..<h { push(y * w); push(y * w + w - 1) }
                    while top > 0 {
                        top -= 1
                        let i = Int(s[top]), x = i % w
                        if x > 0 { push(i - 1) }
                        if x < w - 1 { push(i + 1) }
                        if i >= w { push(i - w) }
                        if i < (h - 1) * w { push(i + w) }
                    }
                }
            }
        }
        return BinaryMask(width: w, height: h, bits: out)
    }

    /// A connected component: its pixel count and boundary pixels (pixel centres).
    struct Component {
        var area: Int
        var boundary: [PixelPoint]
        var minX, minY, maxX, maxY: Int
    }

    /// 4-connected components with at least `minArea` pixels.
    func components(minArea: Int) -> [Component] {
        let w = width, h = height
        // The mask inside a one-pixel frame of unset pixels: every pixel has four neighbours, and
        // a pixel on the image's edge borders an unset one (it is a boundary pixel).
        let paddedWidth = w + 2
        var padded = [UInt8](repeating: 0, count: paddedWidth * (h + 2))
        for y in 0..<h { padded.replaceSubrange((y + 1) * paddedWidth + 1..<(y + 1) * paddedWidth + 1 + w, with: bits[y * w..<(y + 1) * w]) }
        var members = [Int32](repeating: 0, count: w * h) // the current component, used as the stack too
        var result: [Component] = []
        padded.withUnsafeMutableBufferPointer { b in
            members.withUnsafeMutableBufferPointer { m in
                // A set pixel, once visited, is marked 2.
                for start in paddedWidth..<(paddedWidth * (h + 1)) where b[start] == 1 {
                    // Depth-first fill: m[0..<count] are the members, m[next..<count] still to expand.
                    b[start] = 2
                    m[0] = Int32(start)
                    var count = 1, next = 0
                    while next < count {
                        let i = Int(m[next]); next += 1
                        if b[i - 1] == 1 { b[i - 1] = 2; m[count] = Int32(i - 1); count += 1 }
                        if b[i + 1] == 1 { b[i + 1] = 2; m[count] = Int32(i + 1); count += 1 }
                        if b[i - paddedWidth] == 1 { b[i - paddedWidth] = 2; m[count] = Int32(i - paddedWidth); count += 1 }
                        if b[i + paddedWidth] == 1 { b[i + paddedWidth] = 2; m[count] = Int32(i + paddedWidth); count += 1 }
                    }
                    guard count >= minArea else { continue }
                    // The extreme pixels are boundary pixels: only those need coordinates.
                    var comp = Component(area: count, boundary: [], minX: w, minY: h, maxX: 0, maxY: 0)
                    for k in 0..<count {
                        let i = Int(m[k])
                        guard b[i - 1] == 0 || b[i + 1] == 0 || b[i - paddedWidth] == 0 || b[i + paddedWidth] == 0 else { continue }
                        let y = i / paddedWidth - 1, x = i % paddedWidth - 1
                        comp.minX = min(comp.minX, x); comp.maxX = max(comp.maxX, x)
                        comp.minY = min(comp.minY, y); comp.maxY = max(comp.maxY, y)
                        comp.boundary.append(PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    }
                    result.append(comp)
                }
            }
        }
        return result
    }
}

extension GrayImage {
    /// Sobel gradient magnitude (clamped to 255), borders zero.
    func sobelMagnitude() -> GrayImage {
        let w = width, h = height
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { p in
            for y in 1..<max(1, h - 1) {
                for x in 1..<max(1, w - 1) {
                    let i = y * w + x
                    let gx = Int(p[i - w + 1]) + 2 * Int(p[i + 1]) + Int(p[i + w + 1]) - Int(p[i - w - 1]) - 2 * Int(p[i - 1]) - Int(p[i + w - 1])
                    let gy = Int(p[i + w - 1]) + 2 * Int(p[i + w]) + Int(p[i + w + 1]) - Int(p[i - w - 1]) - 2 * Int(p[i - w]) - Int(p[i - w + 1])
                    out[i] = UInt8(min(255, (abs(gx) + abs(gy)) / 4))
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Otsu's threshold of the grey histogram.
    func otsuThreshold() -> UInt8 {
        var hist = [Double](repeating: 0, count: 256)
        for p in pixels { hist[Int(p)] += 1 }
        let total = Double(pixels.count)
        var sum = 0.0
        for i in 0..<256 { sum += Double(i) * hist[i] }
        var sumB = 0.0, wB = 0.0, best = 0.0, threshold = 0
        for t in 0..<256 {
            wB += hist[t]
            if wB == 0 { continue }
            let wF = total - wB
            if wF == 0 { break }
            sumB += Double(t) * hist[t]
            let mB = sumB / wB, mF = (sum - sumB) / wF
            let between = wB * wF * (mB - mF) * (mB - mF)
            if between > best { best = between; threshold = t }
        }
        return UInt8(threshold)
    }
}
