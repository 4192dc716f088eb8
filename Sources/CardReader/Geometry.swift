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
}

#if canImport(Glibc)
import Glibc
#endif
