/// Small planar geometry used by the card locator (thumbnail pixel units).
enum Geometry {
    /// Convex hull (Andrew's monotone chain), counter-clockwise in a y-down frame.
    static func convexHull(_ points: [PixelPoint]) -> [PixelPoint] {
        let pts = points.sorted { $0.x == $1.x ? $0.y < $1.y : $0.x < $1.x }
        guard pts.count > 2 else { return pts }
        func cross(_ o: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [PixelPoint] = [], upper: [PixelPoint] = []
        for p in pts {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in pts.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Polygon area (shoelace), absolute.
    static func area(_ poly: [PixelPoint]) -> Double {
        guard poly.count > 2 else { return 0 }
        var s = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            s += a.x * b.y - b.x * a.y
        }
        return abs(s) / 2
    }

    /// The minimum-area enclosing rectangle of a convex hull: four corners in hull order.
    static func minAreaRectangle(_ hull: [PixelPoint]) -> [PixelPoint]? {
        guard hull.count >= 3 else { return nil }
        var best: (area: Double, corners: [PixelPoint])?
        for i in 0..<hull.count {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            guard len > 1e-9 else { continue }
            let ux = (b.x - a.x) / len, uy = (b.y - a.y) / len
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for p in hull {
                let u = (p.x - a.x) * ux + (p.y - a.y) * uy
                let v = -(p.x - a.x) * uy + (p.y - a.y) * ux
                minU = min(minU, u); maxU = max(maxU, u); minV = min(minV, v); maxV = max(maxV, v)
            }
            let area = (maxU - minU) * (maxV - minV)
            if best == nil || area < best!.area {
                func pt(_ u: Double, _ v: Double) -> PixelPoint { PixelPoint(x: a.x + u * ux - v * uy, y: a.y + u * uy + v * ux) }
                best = (area, [pt(minU, minV), pt(maxU, minV), pt(maxU, maxV), pt(minU, maxV)])
            }
        }
        return best?.corners
    }

    /// A line a·x + b·y = c with (a, b) of unit length.
    struct Line { var a, b, c: Double }

    /// Total-least-squares line through points; nil for fewer than two distinct points.
    static func fitLine(_ pts: [PixelPoint]) -> Line? {
        guard pts.count >= 2 else { return nil }
        let n = Double(pts.count)
        let mx = pts.reduce(0) { $0 + $1.x } / n, my = pts.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in pts { sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my) }
        // Direction = principal eigenvector; normal is perpendicular.
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        let dx = cos(theta), dy = sin(theta)
        let a = -dy, b = dx
        return Line(a: a, b: b, c: a * mx + b * my)
    }

    /// Intersection of two lines; nil when (nearly) parallel.
    static func intersect(_ l: Line, _ m: Line) -> PixelPoint? {
        let det = l.a * m.b - l.b * m.a
        guard abs(det) > 1e-9 else { return nil }
        return PixelPoint(x: (l.c * m.b - l.b * m.c) / det, y: (l.a * m.c - l.c * m.a) / det)
    }

    /// Whether a point lies inside a convex polygon (either winding).
    static func contains(_ poly: [PixelPoint], _ p: PixelPoint) -> Bool {
        var sign = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross != 0 {
                if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
            }
        }
        return true
    }

    /// Euclidean distance.
    static func distance(_ p: PixelPoint, _ q: PixelPoint) -> Double {
        ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }

    /// Orders four corners clockwise (y down) starting from the one nearest the top-left.
    static func orderClockwise(_ c: [PixelPoint]) -> [PixelPoint] {
        let cx = c.reduce(0) { $0 + $1.x } / 4, cy = c.reduce(0) { $0 + $1.y } / 4
        let sorted = c.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        // atan2 with y down increases clockwise; start from the corner with the smallest x + y.
        let start = sorted.indices.min { sorted[$0].x + sorted[$0].y < sorted[$1].x + sorted[$1].y }!
        return (0..<4).map { sorted[(start + $0) % 4] }
    }

    /// Short-to-long side ratio of the rectangle that a quadrilateral (corners in order around it)
    /// is a perspective image of (see `rectifiedWidthOverHeight`).
    static func rectifiedAspect(_ q: [PixelPoint], imageWidth: Int, imageHeight: Int) -> Double {
        let ratio = rectifiedWidthOverHeight(q, imageWidth: imageWidth, imageHeight: imageHeight)
        return ratio > 0 ? min(ratio, 1 / ratio) : 0
    }

    /// Width over height of the rectangle a quadrilateral (clockwise from the top-left) is a
    /// perspective image of: its first side over its second. Seen at a steep angle a card's long
    /// sides can look the shorter ones; this ratio still tells them apart. 0 when degenerate.
    /// Square pixels and the principal point at the image centre are assumed (Zhang & He,
    /// "Whiteboard scanning and image enhancement", 2007); the focal length is solved for, and
    /// when the view is too close to affine for that, a phone's main camera's stands in
    /// (f ≈ 0.8 x the long side).
    static func rectifiedWidthOverHeight(_ q: [PixelPoint], imageWidth: Int, imageHeight: Int) -> Double {
        rectifiedWidthOverHeight(q, centre: PixelPoint(x: Double(imageWidth) / 2, y: Double(imageHeight) / 2),
                                 focal: 0.8 * Double(max(imageWidth, imageHeight)))
    }

    /// The same with an explicit principal point and fallback focal length (pixels).
    static func rectifiedWidthOverHeight(_ q: [PixelPoint], centre: PixelPoint, focal: Double) -> Double {
        typealias V = (Double, Double, Double)
        // m1 top-left, m2 top-right, m3 bottom-left, m4 bottom-right (rectangle corners
        // (0,0), (w,0), (0,h), (w,h)), relative to the principal point.
        func v(_ p: PixelPoint) -> V { (p.x - centre.x, p.y - centre.y, 1) }
        let m1 = v(q[0]), m2 = v(q[1]), m4 = v(q[2]), m3 = v(q[3])
        func cross(_ a: V, _ b: V) -> V { (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0) }
        func dot(_ a: V, _ b: V) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }
        let d2 = dot(cross(m2, m4), m3), d3 = dot(cross(m3, m4), m2)
        guard abs(d2) > 1e-12, abs(d3) > 1e-12 else { return 0 }
        let k2 = dot(cross(m1, m4), m3) / d2, k3 = dot(cross(m1, m4), m2) / d3
        let n2 = (k2 * m2.0 - m1.0, k2 * m2.1 - m1.1, k2 * m2.2 - m1.2)
        let n3 = (k3 * m3.0 - m1.0, k3 * m3.1 - m1.1, k3 * m3.2 - m1.2)
        var f2 = focal * focal
        if abs(n2.2 * n3.2) > 1e-12 {
            let solved = -(n2.0 * n3.0 + n2.1 * n3.1) / (n2.2 * n3.2)
            if solved.isFinite, solved > f2 / 9, solved < f2 * 9 { f2 = solved }
        }
        let w2 = (n2.0 * n2.0 + n2.1 * n2.1) / f2 + n2.2 * n2.2
        let h2 = (n3.0 * n3.0 + n3.1 * n3.1) / f2 + n3.2 * n3.2
        guard w2 > 0, h2 > 0 else { return 0 }
        return (w2 / h2).squareRoot()
    }

    /// The largest-area quadrilateral with its corners on a convex polygon's vertices (a card seen
    /// in perspective: its hull is a rounded trapezoid, which a bounding rectangle fits badly).
    /// Rotating pointers make it O(n²) in the number of vertices.
    static func largestInscribedQuadrilateral(_ hull: [PixelPoint]) -> [PixelPoint]? {
        let n = hull.count
        guard n >= 4 else { return nil }
        func p(_ i: Int) -> PixelPoint { hull[i % n] }
        func tri(_ a: Int, _ b: Int, _ c: Int) -> Double {
            let u = p(a), v = p(b), w = p(c)
            return abs((v.x - u.x) * (w.y - u.y) - (w.x - u.x) * (v.y - u.y)) / 2
        }
        var best = (area: -1.0, corners: [0, 1, 2, 3])
        for i in 0..<n {
            var j = i + 1, l = i + 3
            for k in (i + 2)..<(i + n - 1) {
                if j >= k { j = k - 1 }
                while j + 1 < k, tri(i, j + 1, k) >= tri(i, j, k) { j += 1 }
                if l <= k { l = k + 1 }
                while l + 1 < i + n, tri(k, l + 1, i) >= tri(k, l, i) { l += 1 }
                let area = tri(i, j, k) + tri(k, l, i)
                if area > best.area { best = (area, [i, j, k, l]) }
            }
        }
        return best.corners.map { p($0) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
