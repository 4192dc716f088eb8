/// A rectangle normalised to 0…1 with the origin at the **bottom-left** (Apple Vision's convention).
public struct NormalizedRect: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Left edge, 0…1 from the left.
    public var x: Double
    /// Bottom edge, 0…1 from the bottom.
    public var y: Double
    /// Width as a fraction of the image or region width.
    public var width: Double
    /// Height as a fraction of the image or region height.
    public var height: Double

    /// Creates a rectangle from its bottom-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge.
    public var maxX: Double { x + width }
    /// Top edge.
    public var maxY: Double { y + height }
    /// Horizontal centre.
    public var midX: Double { x + width / 2 }
    /// Vertical centre.
    public var midY: Double { y + height / 2 }

    public var description: String {
        func f(_ v: Double) -> String { String(format: "%.3f", v) }
        return "[x \(f(x)) y \(f(y)) w \(f(width)) h \(f(height))]"
    }
}

/// An integer pixel rectangle with the origin at the top-left (image memory order).
public struct PixelRect: Sendable, Equatable, Codable {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// This rectangle clipped to an image of the given size (may become empty).
    public func clipped(width w: Int, height h: Int) -> PixelRect {
        let x0 = max(0, min(x, w)), y0 = max(0, min(y, h))
        let x1 = max(x0, min(x + width, w)), y1 = max(y0, min(y + height, h))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// One piece of recognised text, as Apple Vision's `VNRecognizedTextObservation` reports it.
public struct TextObservation: Sendable, Equatable, Codable {
    /// The recognised text (never empty or whitespace only).
    public var text: String
    /// Tesseract's confidence scaled to 0…1.
    public var confidence: Double
    /// Where the text is, normalised to the image or region, bottom-left origin.
    public var boundingBox: NormalizedRect
    /// Confidence of each recognised character (0…1), in order; empty unless requested.
    public var characterConfidences: [Double]

    /// Creates an observation.
    public init(text: String, confidence: Double, boundingBox: NormalizedRect, characterConfidences: [Double] = []) {
        self.text = text
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.characterConfidences = characterConfidences
    }
}
