import CTesseract
import CardScanFiles
import Foundation

/// A decoded image (JPEG, PNG, TIFF, WebP, BMP, GIF, PNM) with its EXIF orientation applied.
///
/// JPEGs are decoded by libjpeg row by row (`CJPEGDecode`); large PNGs loaded grey, and PNGs
/// loaded smaller in colour, by libpng row by row (`CPNGGray`); everything else by Leptonica. The
/// instance owns the Leptonica pixels and frees them when it is released. It is immutable after
/// creation, so it may be shared across threads.
public final class Image: @unchecked Sendable {
    /// Options for loading.
    public struct LoadOptions: Sendable {
        /// Decode to 8-bit grey (faster for JPEG: luminance only). Otherwise 32-bit RGB.
        public var grayscale: Bool
        /// Images with more pixels than this are refused before decoding (decompression bombs).
        public var maxPixels: Int
        /// Apply the EXIF orientation tag so the pixels are upright as a viewer shows them.
        public var applyEXIFOrientation: Bool
        /// Grey loads of PNGs with at least this many pixels are decoded to grey row by row
        /// (libpng) instead of through a full 32-bit colour image: 4 bytes a pixel less at the
        /// peak, 576 MB for a 144 MP photo. Below it Leptonica decodes as before. (JPEGs are
        /// always decoded row by row, by libjpeg.)
        public var rowByRowGrayPNGPixels: Int
        /// The most memory libjpeg may take for its buffers. A baseline JPEG needs a few rows'
        /// worth; a progressive one keeps the coefficients of the whole image (2 bytes a sample:
        /// 420 MB for a 140 MP photo with half-size colour, 840 MB with full-size colour), so one
        /// above this is refused before decoding, naming what it needs.
        public var maxDecoderMemory: Int
        /// When set, a JPEG, or a colour load of a PNG, is decoded 2, 4 or 8 times smaller in each
        /// direction (libjpeg's scaled decode; for a PNG, libpng row by row keeping every n-th
        /// pixel: no full-size image is made), the most that keeps its longer side at least this
        /// many pixels; `Image.reduction` says by how much. For a picture drawn smaller anyway
        /// (`--annotate`). Other formats, and interlaced PNGs, are decoded whole.
        public var reducedSide: Int?

        /// Defaults: colour, 150 megapixels, EXIF applied, row-by-row grey PNG from 32 megapixels,
        /// 256 MB for libjpeg (a progressive JPEG of up to 85 megapixels with half-size colour,
        /// 42 with full-size colour; the photo's own grey pixels come on top).
        public init(grayscale: Bool = false, maxPixels: Int = 150_000_000, applyEXIFOrientation: Bool = true,
                    rowByRowGrayPNGPixels: Int = 32_000_000, maxDecoderMemory: Int = 256_000_000, reducedSide: Int? = nil) {
            self.grayscale = grayscale
            self.maxPixels = maxPixels
            self.applyEXIFOrientation = applyEXIFOrientation
            self.rowByRowGrayPNGPixels = rowByRowGrayPNGPixels
            self.maxDecoderMemory = maxDecoderMemory
            self.reducedSide = reducedSide
        }
    }

    /// The Leptonica image (8 bpp grey or 32 bpp RGB), destroyed with this instance.
    private let owned: OwnedPix
    /// Leptonica pixels (8 bpp grey or 32 bpp RGB), for C calls that read them while the image
    /// lives. Package-internal: no C type leaves the package.
    package var pix: UnsafeMutablePointer<PIX> { owned.pointer }
    /// Width in pixels, after orientation.
    public let width: Int
    /// Height in pixels, after orientation.
    public let height: Int
    /// True for 32-bit RGB pixels, false for 8-bit grey.
    public let isColor: Bool
    /// 1, or how many times smaller than the file it was decoded (`LoadOptions.reducedSide`):
    /// pixel (x, y) covers the file's pixels from (x·reduction, y·reduction).
    public let reduction: Int
    /// The orientation tag found in the file (`.up` when absent).
    public let orientation: EXIFOrientation
    /// The day the photo was taken by the camera's clock (`YYYY-MM-DD`, from EXIF), if recorded.
    public let captureDay: String?
    /// The file the image came from, or the name given with the bytes.
    public let name: String

    /// Loads an image file.
    /// - Throws: ``OCRError`` naming the file: unreadable, empty, unsupported, corrupt, too large.
    public convenience init(contentsOf path: String, options: LoadOptions = LoadOptions()) throws {
        // Only regular files: reading a FIFO would block for ever and a device (/dev/zero) never ends.
        if let reason = Self.notARegularFile(path) { throw OCRError.unreadableFile(path: path, reason: reason) }
        // Empty files are refused from their size: Foundation's Data(contentsOf:) leaks a 4 KB read
        // buffer for every 0-byte file (LeakSanitizer; 20 MB over a folder of 5,000 empty files).
        if Self.fileSize(path) == 0 { throw OCRError.emptyFile(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw OCRError.unreadableFile(path: path, reason: Self.describe(error, path: path))
        }
        try self.init(data: data, name: path, options: options)
    }

    /// Decodes image bytes; `name` is used in errors.
    public convenience init(data: Data, name: String, options: LoadOptions = LoadOptions()) throws {
        LeptonicaSetup.once()
        guard !data.isEmpty else { throw OCRError.emptyFile(path: name) }
        let format = try ImageFormat.detect(data, name: name)
        let header = try ImageFormat.checkSize(data, name: name, format: format, maxPixels: options.maxPixels)
        if header.decoderBytes > options.maxDecoderMemory {
            throw OCRError.decoderMemory(path: name, format: format.name, needed: header.decoderBytes, limit: options.maxDecoderMemory)
        }
        let metadata = EXIFMetadata.read(from: data)
        let orientation = options.applyEXIFOrientation ? metadata.orientation : .up
        var reduction = options.reducedSide.map { ImageFormat.reduction(header, side: $0) } ?? 1
        let decoded: OwnedPix
        if format == .jpeg {
            // Its own buffers within the bound checked above, plus a little for the rest of libjpeg.
            decoded = try ImageFormat.decodeJPEG(data, name: name, header: header, grayscale: options.grayscale,
                                                 reduction: reduction, maxMemory: options.maxDecoderMemory + 16_000_000)
        } else if format == .png, !options.grayscale, reduction > 1,
                  let pix = try ImageFormat.decodeReducedPNG(data, name: name, header: header, reduction: reduction) {
            decoded = pix
        } else {
            reduction = 1
            let rowByRow = options.grayscale && format == .png && header.width * header.height >= options.rowByRowGrayPNGPixels
            guard let pix = rowByRow ? ImageFormat.decodeGrayPNG(data, width: header.width, height: header.height)
                    : ImageFormat.decode(data) else {
                throw OCRError.corruptImage(path: name, format: format.name)
            }
            decoded = pix
        }
        self.init(owning: Self.apply(orientation, to: Self.normalise(decoded, grayscale: options.grayscale)), name: name,
                  reduction: reduction, orientation: orientation, captureDay: metadata.captureDay)
    }

    /// Takes ownership of a Leptonica image (8 or 32 bpp), destroyed with this instance.
    package init(owning pix: consuming OwnedPix, name: String, reduction: Int = 1, orientation: EXIFOrientation = .up,
                 captureDay: String? = nil) {
        self.width = pix.width
        self.height = pix.height
        self.isColor = pix.depth == 32
        self.owned = pix
        self.reduction = reduction
        self.orientation = orientation
        self.captureDay = captureDay
        self.name = name
    }

    /// The luminance of every pixel as a Swift buffer.
    public func grayPixels() -> GrayImage {
        var out = [UInt8](repeating: 0, count: width * height)
        let wpl = Int(owned.wordsPerLine)
        guard let data = owned.data else { return GrayImage(width: width, height: height, pixels: out) }
        let w = width
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let line = data + y * wpl
                let row = y * w
                if isColor {
                    for x in 0..<w {
                        let v = line[x] // 0xRRGGBBAA
                        let r = Int((v >> 24) & 0xFF), g = Int((v >> 16) & 0xFF), b = Int((v >> 8) & 0xFF)
                        dst[row + x] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                    }
                } else {
                    // 8 bpp: bytes are packed big-endian within each 32-bit word; copy whole
                    // words byte-swapped, then the tail.
                    let words = w / 4
                    UnsafeMutableRawPointer(dst.baseAddress! + row).withMemoryRebound(to: UInt8.self, capacity: w) { out in
                        for i in 0..<words {
                            let v = line[i].bigEndian
                            withUnsafeBytes(of: v) { b in
                                out[4 * i] = b[0]; out[4 * i + 1] = b[1]; out[4 * i + 2] = b[2]; out[4 * i + 3] = b[3]
                            }
                        }
                    }
                    for x in (words * 4)..<w {
                        dst[row + x] = UInt8((line[x >> 2] >> UInt32(24 - 8 * (x & 3))) & 0xFF)
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The pixels as RGB triplets (grey images are expanded).
    public func rgbPixels() -> RGBImage {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let wpl = Int(owned.wordsPerLine)
        guard let data = owned.data else { return RGBImage(width: width, height: height, pixels: out) }
        let w = width
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let line = data + y * wpl
                for x in 0..<w {
                    let o = (y * w + x) * 3
                    if isColor {
                        let v = line[x]
                        dst[o] = UInt8((v >> 24) & 0xFF); dst[o + 1] = UInt8((v >> 16) & 0xFF); dst[o + 2] = UInt8((v >> 8) & 0xFF)
                    } else {
                        let g = UInt8((line[x >> 2] >> UInt32(24 - 8 * (x & 3))) & 0xFF)
                        dst[o] = g; dst[o + 1] = g; dst[o + 2] = g
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    // MARK: - Internals

    /// `pix` as 8-bit grey (`pixConvertTo8`) or 32-bit RGB (`pixConvertTo32`), transparent pixels
    /// blended over white first (`pixAlphaBlendUniform`); `pix` itself when it already is, or when a
    /// conversion fails.
    private static func normalise(_ pix: consuming OwnedPix, grayscale: Bool) -> OwnedPix {
        let depth = pix.depth
        let hasColormap = pixGetColormap(pix.pointer) != nil
        if grayscale, depth == 8, !hasColormap { return pix }
        if !grayscale, depth == 32, pixGetSpp(pix.pointer) == 3 { return pix }
        let converted: OwnedPix?
        if depth == 32, pixGetSpp(pix.pointer) == 4, let blended = OwnedPix(pixAlphaBlendUniform(pix.pointer, 0xFFFF_FF00)) {
            // Transparent pixels over white in both modes (as a viewer shows them); the grey
            // conversion alone would keep whatever colour hides under alpha 0 (often black).
            pixSetSpp(blended.pointer, 3)
            if grayscale { converted = OwnedPix(pixConvertTo8(blended.pointer, 0)) } else { converted = consume blended }
        } else if grayscale {
            converted = OwnedPix(pixConvertTo8(pix.pointer, 0))
        } else {
            converted = OwnedPix(pixConvertTo32(pix.pointer))
        }
        guard let converted else { return pix }
        if !grayscale { pixSetSpp(converted.pointer, 3) }
        return converted
    }

    /// `pix` turned upright for `orientation`: mirrored (`pixFlipLR`), then turned by quarter
    /// turns (`pixRotateOrth`); a step that fails is skipped.
    private static func apply(_ orientation: EXIFOrientation, to pix: consuming OwnedPix) -> OwnedPix {
        let quads: Int32
        let flip: Bool
        switch orientation {
        case .up: return pix
        case .upMirrored: quads = 0; flip = true
        case .down: quads = 2; flip = false
        case .downMirrored: quads = 2; flip = true
        case .leftMirrored: quads = 1; flip = true
        case .right: quads = 1; flip = false
        case .rightMirrored: quads = 3; flip = true
        case .left: quads = 3; flip = false
        }
        var current = pix
        if flip, let flipped = OwnedPix(pixFlipLR(nil, current.pointer)) { current = flipped }
        if quads != 0, let rotated = OwnedPix(pixRotateOrth(current.pointer, quads)) { current = rotated }
        return current
    }

    static func describe(_ error: Error, path: String) -> String {
        if let reason = notARegularFile(path) { return reason }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }

    /// The size of the file `path` points to, or nil when it cannot be determined.
    static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    /// Why `path` cannot be read as an image file, or nil for a regular file (stat follows links;
    /// `RegularFile.problem`). Callers that read the file for another purpose first (hashing)
    /// check too: reading a FIFO blocks for ever and a device such as /dev/zero never ends.
    public static func notARegularFile(_ path: String) -> String? { RegularFile.problem(path) }
}

/// One-time Leptonica configuration: silence its stderr messages (we report errors ourselves).
enum LeptonicaSetup {
    private static let configured: Bool = {
        _ = setMsgSeverity(Int32(L_SEVERITY_NONE))
        return true
    }()

    static func once() { _ = configured }
}
