import CTesseract
import Foundation

/// A text label to burn into an output image.
public struct ImageLabel: Sendable {
    /// The text (ASCII renders best).
    public var text: String
    /// Left edge of the text baseline, pixels.
    public var x: Int
    /// Baseline, pixels from the top.
    public var y: Int
    /// Colour as 0xRRGGBB.
    public var color: UInt32

    /// Creates a label.
    public init(text: String, x: Int, y: Int, color: UInt32) {
        self.text = text
        self.x = x
        self.y = y
        self.color = color
    }
}

/// Writes RGB buffers as PNG files through Leptonica, optionally with text labels.
public enum ImageWriter {
    /// Writes a greyscale image to `path` as PNG (through the RGB writer; a failure leaves no half file).
    /// - Throws: ``OCRError/writeFailed(path:reason:)``.
    public static func writePNG(_ image: GrayImage, to path: String) throws {
        try writePNG(RGBImage(width: image.width, height: image.height, pixels: image.pixels.flatMap { [$0, $0, $0] }), to: path)
    }

    /// Writes `image` to `path` as PNG with `labels` drawn in Leptonica's bitmap font.
    /// The file is written to a temporary name first and renamed, so a failure leaves no half file.
    /// - Throws: ``OCRError/writeFailed(path:reason:)``.
    public static func writePNG(_ image: RGBImage, labels: [ImageLabel] = [], fontSize: Int = 14, to path: String) throws {
        try write(image, labels: labels, fontSize: fontSize, format: IFF_PNG, to: path)
    }

    /// Writes `image` to `path` as a baseline JPEG (Leptonica's default quality), the same way:
    /// a temporary name first, then renamed.
    /// - Throws: ``OCRError/writeFailed(path:reason:)``.
    public static func writeJPEG(_ image: RGBImage, to path: String) throws {
        try write(image, labels: [], fontSize: 14, format: IFF_JFIF_JPEG, to: path)
    }

    /// Copies `image` into a new Leptonica image (`pixCreate`), draws `labels` with a bitmap font
    /// (`bmfCreate`, `pixSetTextline`) and writes it to a temporary file (`pixWrite`) renamed to `path`.
    private static func write(_ image: RGBImage, labels: [ImageLabel], fontSize: Int, format: Int, to path: String) throws {
        LeptonicaSetup.once()
        guard let pix = OwnedPix(width: image.width, height: image.height, depth: 32) else {
            throw OCRError.writeFailed(path: path, reason: "out of memory")
        }
        let wpl = Int(pix.wordsPerLine)
        if let data = pix.data {
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let o = (y * image.width + x) * 3
                    data[y * wpl + x] = UInt32(image.pixels[o]) << 24 | UInt32(image.pixels[o + 1]) << 16 | UInt32(image.pixels[o + 2]) << 8
                }
            }
        }
        if !labels.isEmpty, let bmf = bmfCreate(nil, Int32(fontSize)) {
            defer { var b: UnsafeMutablePointer<L_BMF>? = bmf; bmfDestroy(&b) }
            for label in labels {
                var width: Int32 = 0, overflow: Int32 = 0
                let ascii = String(label.text.unicodeScalars.map { $0.isASCII ? Character($0) : "?" })
                _ = pixSetTextline(pix.pointer, bmf, ascii, label.color << 8, Int32(label.x), Int32(label.y), &width, &overflow)
            }
        }
        // (Unique per write: two threads of one process may write the same file, e.g. a crop asked twice.)
        let temp = path + ".part-\(getpid())-\(UUID().uuidString.prefix(8))"
        guard pixWrite(temp, pix.pointer, Int32(format)) == 0 else {
            unlink(temp)
            throw OCRError.writeFailed(path: path, reason: "\(format == IFF_PNG ? "PNG" : "JPEG") encoding or file creation failed")
        }
        guard rename(temp, path) == 0 else {
            unlink(temp)
            throw OCRError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
