import CardScanOCR
import Foundation

/// Which way up a quad is, the other quads a card may have, and the quad of a whole image.
extension ReadPipeline {
    /// How much lighter (grey levels) the card's text box (v 0.62–0.88) is than its art box
    /// (v 0.12–0.38), the quad's way up: positive on an upright card of most frames, negative upside
    /// down. From a 57x76 rectified copy of the card's middle (far cheaper than one OCR call).
    static func textBoxLightness(_ corners: Quad, gray: GrayImage) -> Double {
        let middle = CardRegion(u0: 0.1, v0: 0.12, u1: 0.9, v1: 0.88)
        let small = Rectifier.warp(gray, homography: Homography(corners), region: middle, cardHeightPixels: 100)
        // The mean grey of the copy's rows between v0 and v1 (card coordinates).
        func mean(_ v0: Double, _ v1: Double) -> Double {
            let row = { (v: Double) in Int((v - middle.v0) / (middle.v1 - middle.v0) * Double(small.height)) }
            return small.mean(rows: row(v0)..<row(v1))
        }
        return mean(0.62, 0.88) - mean(0.12, 0.38)
    }

    /// The card around a quad that is its inner frame (2015+ frames: the black border is about 4%
    /// of the width at the sides, 3% of the height at the top and 5.5% at the bottom).
    static func innerFrameExpanded(_ corners: Quad) -> Quad {
        let h = Homography(corners)
        return Quad([(-0.041, -0.029), (1.041, -0.029), (1.041, 1.059), (-0.041, 1.059)].map { u, v in
            let p = h.map(u, v)
            return PixelPoint(x: p.x, y: p.y)
        })
    }

    /// The quad with its bottom edge moved so the region it outlines has the card's 63:88 shape
    /// (judged through the perspective), or nil when it already has.
    static func aspectCompleted(_ corners: Quad, imageWidth: Int, imageHeight: Int) -> Quad? {
        let seen = Geometry.rectifiedAspect(corners.corners, imageWidth: imageWidth, imageHeight: imageHeight)
        guard seen > 0.4, seen < 1 else { return nil }
        // The quad's width is taken as the card's: its height should be width * 88/63.
        let bottom = seen / CardLocator.cardAspect
        guard abs(bottom - 1) > 0.025, bottom < 1.25, bottom > 0.85 else { return nil }
        let h = Homography(corners)
        let left = h.map(0, bottom), right = h.map(1, bottom)
        return Quad([corners[0], corners[1], PixelPoint(x: right.x, y: right.y), PixelPoint(x: left.x, y: left.y)])
    }

    /// A 63:88 rectangle hanging from the quad's top edge (its sides square to that edge), or nil
    /// when the quad's bottom corners are already within 4% of the card's width of it.
    static func hungFromTop(_ corners: Quad) -> Quad? {
        let tl = corners[0], tr = corners[1]
        let dx = tr.x - tl.x, dy = tr.y - tl.y
        let width = (dx * dx + dy * dy).squareRoot()
        guard width > 0 else { return nil }
        // The edge's normal pointing into the card (towards the quad's bottom edge).
        var nx = -dy / width, ny = dx / width
        let mid = PixelPoint(x: (corners[2].x + corners[3].x) / 2 - tl.x, y: (corners[2].y + corners[3].y) / 2 - tl.y)
        if nx * mid.x + ny * mid.y < 0 { nx = -nx; ny = -ny }
        let height = width / CardLocator.cardAspect
        let br = PixelPoint(x: tr.x + nx * height, y: tr.y + ny * height)
        let bl = PixelPoint(x: tl.x + nx * height, y: tl.y + ny * height)
        let moved = max(Geometry.distance(br, corners[2]), Geometry.distance(bl, corners[3]))
        return moved > 0.04 * width ? Quad([tl, tr, br, bl]) : nil
    }

    /// The whole image as the card (flat scans), long side vertical.
    static func wholeImage(_ gray: GrayImage) -> Quad {
        wholeImage(width: gray.width, height: gray.height)
    }

    /// The whole of an image of this size as the card, long side vertical.
    static func wholeImage(width: Int, height: Int) -> Quad {
        let w = Double(width), h = Double(height)
        return Quad(CardLocator.portraitOrder([PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]))
    }

    /// Whether `corners` are the whole image's (in any order): the photo read as a flat scan.
    static func isWholeImage(_ corners: Quad, _ gray: GrayImage) -> Bool {
        corners.corners.allSatisfy(wholeImage(gray).corners.contains)
    }

    /// Clockwise rotation of the card in the photo, snapped to 0/90/180/270.
    static func rotation(of corners: Quad) -> Int {
        let dx = corners[1].x - corners[0].x, dy = corners[1].y - corners[0].y
        let degrees = atan2(dy, dx) * 180 / .pi
        let snapped = Int((degrees / 90).rounded()) * 90
        return (snapped % 360 + 360) % 360
    }
}
