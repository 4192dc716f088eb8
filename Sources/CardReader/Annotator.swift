import CardScanOCR
import Foundation

/// Draws what the reader saw onto the photo: the card outline, the regions read with their text
/// boxes, and the extracted values, so a user can see why a scan went wrong.
public enum Annotator {
    /// Writes an annotated PNG of `image` with `reading` drawn on it, and `verdict` (what the
    /// photo was identified as) above the values read when given.
    /// - Throws: ``OCRError/writeFailed(path:reason:)``.
    /// `image` may be decoded smaller than the photo read (`Image.reduction`, `reducedSide`
    /// `maxSide`): the reading's coordinates are the full photo's.
    public static func write(_ reading: CardReading, on image: Image, verdict: String? = nil, to path: String) throws {
        let (drawn, scale) = drawing(of: image, enlarging: false)
        var canvas = drawn
        var labels: [ImageLabel] = []
        if let quad = reading.quad {
            let pts = quad.corners.map { PixelPoint(x: $0.x * scale, y: $0.y * scale) }
            for i in 0..<4 { canvas.line(pts[i], pts[(i + 1) % 4], color: (0, 255, 0), thickness: 3) }
            canvas.disc(pts[0], radius: 7, color: (255, 0, 0)) // the card's top-left
            let homography = Homography(corners: pts)
            // A label per distinct text (the collector retries read the same lines again), moved
            // down past the labels already placed so none covers another.
            var placed: [(x: Int, y: Int, width: Int)] = [], seen = Set<String>()
            for obs in reading.observations where seen.insert(obs.observation.text).inserted {
                let b = obs.observation.boundingBox // card coords, bottom-left origin
                let corners = [(b.x, 1 - b.maxY), (b.maxX, 1 - b.maxY), (b.maxX, 1 - b.y), (b.x, 1 - b.y)]
                    .map { homography.map($0.0, $0.1) }.map { PixelPoint(x: $0.x, y: $0.y) }
                for i in 0..<4 { canvas.line(corners[i], corners[(i + 1) % 4], color: (255, 160, 0), thickness: 2) }
                let text = "\(obs.observation.text) (\(Int(obs.observation.confidence * 100))%)"
                let x = Int(corners[3].x), width = Self.glyphWidth * text.count
                var y = Int(corners[3].y) + Self.lineHeight / 2
                while placed.contains(where: { abs($0.y - y) < Self.lineHeight && x < $0.x + $0.width && $0.x < x + width }) { y += Self.lineHeight }
                placed.append((x, y, width))
                labels.append(ImageLabel(text: text, x: x, y: y, color: 0xFF00FF))
            }
        }
        let f = reading.fields
        let summary = [verdict].compactMap { $0 } + [
            "title: \(f.title?.value ?? "-")",
            "number: \(f.collectorNumber?.value ?? "-")\(f.setSize.map { "/\($0.value)" } ?? "")  rarity: \(f.rarity?.value ?? "-")",
            "set: \(f.setCode?.value ?? "-")  lang: \(f.language?.value ?? "-")  frame: \(f.frameEra.rawValue)",
            "border: \(f.borderColor?.value ?? "-")  rotation: \(reading.rotation)",
        ]
        try write(canvas, labels: labels, summary: summary, to: path)
    }

    /// Writes an annotated PNG of `image` with every card found in it: each outline numbered
    /// from 1 in the order given and coloured by `status` (green identified, yellow ambiguous,
    /// red anything else), and a list of the numbers with each `label` (the card's name, or why
    /// it failed). A card without a quad is listed only.
    /// - Throws: ``OCRError/writeFailed(path:reason:)``.
    public static func write(cards: [(reading: CardReading, status: String, label: String)], on image: Image, to path: String) throws {
        // A small photo (a webcam frame, a binder page off the web) is enlarged, so the numbers
        // do not cover its cards.
        let (drawn, scale) = drawing(of: image, enlarging: true)
        var canvas = drawn
        var labels: [ImageLabel] = []
        var summary: [String] = []
        for (i, card) in cards.enumerated() {
            let colour: (UInt8, UInt8, UInt8) = card.status == "identified" ? (0, 220, 0) : card.status == "ambiguous" ? (255, 200, 0) : (255, 40, 40)
            summary.append("#\(i + 1) \(card.label)")
            guard let quad = card.reading.quad else { continue }
            let pts = quad.corners.map { PixelPoint(x: $0.x * scale, y: $0.y * scale) }
            for j in 0..<4 { canvas.line(pts[j], pts[(j + 1) % 4], color: colour, thickness: 3) }
            canvas.disc(pts[0], radius: 7, color: colour) // the card's top-left as read
            // The number inside the card, below its top-most corner, on white.
            let x = Int(pts.map(\.x).min() ?? 0) + 8, y = Int(pts.map(\.y).min() ?? 0) + 8
            let text = "#\(i + 1)"
            canvas.fillRect(x: x, y: y, width: glyphWidth * text.count + 8, height: lineHeight + 4, color: (255, 255, 255))
            labels.append(ImageLabel(text: text, x: x + 4, y: y + lineHeight - 4, color: 0x0000C0))
        }
        try write(canvas, labels: labels, summary: summary, to: path)
    }

    /// The canvas a photo is drawn on, and the scale from the photo's coordinates to it: at most
    /// ~`maxSide` px so lines and labels stay legible (the photo drawn a whole number of times
    /// smaller, whatever part of it the decode already did), and with `enlarging`, a smaller
    /// photo drawn larger to about `maxSide`.
    private static func drawing(of image: Image, enlarging: Bool) -> (Canvas, Double) {
        let full = Double(max(image.width, image.height) * image.reduction)
        let factor = full > Double(maxSide) ? (full / Double(maxSide)).rounded(.up) : enlarging ? full / Double(maxSide) : 1
        return (Canvas(image.rgbPixels(), reducedBy: factor / Double(image.reduction)), 1 / factor)
    }

    /// `summary` in a white box at the top left, then the drawing with `labels` written as a PNG.
    private static func write(_ canvas: Canvas, labels: [ImageLabel], summary: [String], to path: String) throws {
        var canvas = canvas, labels = labels
        let longest = summary.map(\.count).max() ?? 0
        canvas.fillRect(x: 0, y: 0, width: min(canvas.width, 16 + glyphWidth * longest), height: lineHeight * summary.count + 12,
                        color: (255, 255, 255))
        for (i, line) in summary.enumerated() { labels.append(ImageLabel(text: line, x: 8, y: lineHeight * (i + 1), color: 0x0000C0)) }
        try ImageWriter.writePNG(canvas.image, labels: labels, fontSize: 10, to: path)
    }

    /// The longer side of the drawing, at most (about): a photo is drawn smaller than this only
    /// by whole factors.
    public static let maxSide = 1600

    /// Leptonica's size-10 bitmap font: glyphs up to ~30 px tall above the baseline, at most ~19
    /// px wide; labels are laid out on these.
    static let lineHeight = 34, glyphWidth = 19
}

/// A minimal RGB drawing surface.
struct Canvas {
    private(set) var image: RGBImage
    var width: Int { image.width }
    var height: Int { image.height }

    /// `source` drawn `factor` times smaller (nearest pixel; a factor need not be whole, and one
    /// under 1 draws it larger).
    init(_ source: RGBImage, reducedBy factor: Double) {
        guard factor != 1 else { image = source; return }
        let w = Int(Double(source.width) / factor), h = Int(Double(source.height) / factor)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let sy = min(source.height - 1, Int(Double(y) * factor))
            for x in 0..<w {
                let s = (sy * source.width + min(source.width - 1, Int(Double(x) * factor))) * 3
                out[(y * w + x) * 3] = source.pixels[s]
                out[(y * w + x) * 3 + 1] = source.pixels[s + 1]
                out[(y * w + x) * 3 + 2] = source.pixels[s + 2]
            }
        }
        image = RGBImage(width: w, height: h, pixels: out)
    }

    mutating func set(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let o = (y * width + x) * 3
        image.pixels[o] = c.0; image.pixels[o + 1] = c.1; image.pixels[o + 2] = c.2
    }

    mutating func line(_ a: PixelPoint, _ b: PixelPoint, color: (UInt8, UInt8, UInt8), thickness: Int) {
        let steps = max(1, Int(max(abs(b.x - a.x), abs(b.y - a.y))))
        let r = thickness / 2
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            let x = Int(a.x + (b.x - a.x) * t), y = Int(a.y + (b.y - a.y) * t)
            for dy in -r...r { for dx in -r...r { set(x + dx, y + dy, color) } }
        }
    }

    mutating func disc(_ c: PixelPoint, radius: Int, color: (UInt8, UInt8, UInt8)) {
        for dy in -radius...radius { for dx in -radius...radius where dx * dx + dy * dy <= radius * radius { set(Int(c.x) + dx, Int(c.y) + dy, color) } }
    }

    mutating func fillRect(x: Int, y: Int, width w: Int, height h: Int, color: (UInt8, UInt8, UInt8)) {
        for yy in y..<(y + h) { for xx in x..<(x + w) { set(xx, yy, color) } }
    }
}
