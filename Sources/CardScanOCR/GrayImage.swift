/// An 8-bit greyscale image held in Swift memory (row-major, `width` bytes per row, 0 = black).
///
/// The card reader does its geometry (thumbnails, edge maps, projective warps) on these buffers and
/// hands the small rectified regions to ``TextRecognizer``.
public struct GrayImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` luminance values, row by row from the top.
    public var pixels: [UInt8]

    /// Wraps existing pixels; `pixels.count` must equal `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "GrayImage size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A new image filled with one value.
    public init(width: Int, height: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    /// The value at (x, y), top-left origin. No bounds clamping.
    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Light text on dark ground turned into dark on light.
    public func inverted() -> GrayImage {
        GrayImage(width: width, height: height, pixels: pixels.map { 255 &- $0 })
    }
}

/// A 24-bit colour image held in Swift memory (row-major RGB triplets, top-left origin).
public struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes: R, G, B for each pixel, row by row from the top.
    public var pixels: [UInt8]

    /// Wraps existing pixels; `pixels.count` must equal `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "RGBImage size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
