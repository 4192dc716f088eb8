import CJPEGDecode
import CPNGGray
import CTesseract
import Foundation

/// Format sniffing, header checks and decoding through Leptonica.
enum ImageFormat: Sendable {
    case jpeg, png, tiff, webp, bmp, gif, pnm, jp2

    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .tiff: "TIFF"
        case .webp: "WebP"
        case .bmp: "BMP"
        case .gif: "GIF"
        case .pnm: "PNM"
        case .jp2: "JPEG 2000"
        }
    }

    /// Identifies the format from magic bytes; throws for anything we cannot decode.
    static func detect(_ data: Data, name: String) throws -> ImageFormat {
        let head = [UInt8](data.prefix(16))
        if head.count >= 12, head[4...7] == [0x66, 0x74, 0x79, 0x70] { // ....ftyp
            let brand = String(decoding: head[8...11], as: UTF8.self)
            if ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].contains(brand) {
                throw OCRError.unsupportedFormat(path: name, detail: "HEIC/HEIF is not supported; convert it to JPEG first")
            }
            if brand == "avif" { throw OCRError.unsupportedFormat(path: name, detail: "AVIF is not supported") }
            throw OCRError.unsupportedFormat(path: name, detail: "ISO media file '\(brand)'")
        }
        var format: Int32 = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count >= 12 else { return false }
            return findFileFormatBuffer(base, &format) == 0
        }
        if ok {
            switch Int(format) {
            case IFF_JFIF_JPEG: return .jpeg
            case IFF_PNG: return .png
            case IFF_TIFF...IFF_TIFF_ZIP, IFF_TIFF_JPEG: return .tiff
            case IFF_WEBP: return .webp
            case IFF_BMP: return .bmp
            case IFF_GIF: return .gif
            case IFF_PNM: return .pnm
            case IFF_JP2: return .jp2
            default: break
            }
        }
        throw OCRError.unsupportedFormat(path: name, detail: sniffDescription(head))
    }

    private static func sniffDescription(_ head: [UInt8]) -> String {
        if head.starts(with: Array("%PDF".utf8)) { return "a PDF document, not an image" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive, not an image" }
        let printable = head.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable { return "looks like a text file, not an image" }
        return "unrecognised content"
    }

    /// What the header says, read before any pixel is decoded.
    struct Header: Sendable, Equatable {
        var width: Int
        var height: Int
        /// Samples per pixel: 1 grey, 3 RGB, 4 RGBA (PNG) or CMYK/YCCK (JPEG).
        var samplesPerPixel: Int
        /// Bytes libjpeg keeps while decoding a progressive (multi-scan) JPEG: the coefficients of
        /// the whole image, 2 bytes a sample, whatever output is asked for; 0 for other files.
        var decoderBytes: Int = 0
    }

    /// Reads width and height from the header and refuses images above the pixel limit.
    @discardableResult
    static func checkSize(_ data: Data, name: String, format: ImageFormat, maxPixels: Int) throws -> Header {
        let header = format == .jpeg ? try jpegHeader(data, name: name) : try leptonicaHeader(data, name: name, format: format)
        if header.width * header.height > maxPixels {
            throw OCRError.imageTooLarge(path: name, width: header.width, height: header.height, limit: maxPixels)
        }
        if header.width < 8 || header.height < 8 { throw OCRError.imageTooSmall(path: name, width: header.width, height: header.height) }
        return header
    }

    /// A header read by Leptonica; the libraries under it print on their own (`CLibraryChatter`).
    private static func leptonicaHeader(_ data: Data, name: String, format: ImageFormat) throws -> Header {
        var fmt: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
            return CLibraryChatter.silenced { pixReadHeaderMem(base, raw.count, &fmt, &w, &h, &bps, &spp, &cmap) == 0 }
        }
        guard ok, w > 0, h > 0 else { throw OCRError.corruptImage(path: name, format: format.name) }
        return Header(width: Int(w), height: Int(h), samplesPerPixel: Int(spp))
    }

    /// A JPEG header read by libjpeg with cardscan's error manager (`CJPEGDecode`).
    private static func jpegHeader(_ data: Data, name: String) throws -> Header {
        var info = cardscan_jpeg_header()
        var message = [CChar](repeating: 0, count: Int(CARDSCAN_JPEG_MESSAGE_LENGTH))
        let code = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return cardscan_jpeg_read_header(base, raw.count, &info, &message)
        }
        guard code == 0, info.width > 0, info.height > 0 else {
            throw OCRError.corruptImage(path: name, format: ImageFormat.jpeg.name, reason: reason(message))
        }
        return Header(width: Int(info.width), height: Int(info.height), samplesPerPixel: Int(info.components),
                      decoderBytes: Int(info.coefficient_bytes))
    }

    /// libjpeg's message, or nil when it gave none.
    private static func reason(_ message: [CChar]) -> String? {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// The most scans a JPEG may have. A progressive file's scans each pass over the whole image,
    /// and encoders write about ten (libjpeg's default script) to a few dozen; thousands are a file
    /// made to keep the decoder busy.
    static let maxJPEGScans: Int32 = 500

    /// A JPEG decoded by libjpeg row by row into a Leptonica image (`cardscan_jpeg_decode`): grey
    /// is libjpeg's luminance output (nothing else is made, whatever the photo's size), colour is
    /// 32-bit RGB. A CMYK/YCCK file cannot be decoded to luminance by libjpeg ("Unsupported color
    /// conversion request"), so it is decoded to RGB and made grey afterwards. Any warning
    /// (truncated or damaged data, also after the last row) fails the decode with libjpeg's
    /// message, and libjpeg prints nothing. `maxMemory` bounds libjpeg's buffers. `reduction`
    /// (1, 2, 4, 8) decodes the image that many times smaller (`reduction(_:side:)`).
    static func decodeJPEG(_ data: Data, name: String, header: Header, grayscale: Bool, reduction: Int = 1,
                           maxMemory: Int) throws -> OwnedPix {
        let gray = grayscale && header.samplesPerPixel != 4
        let depth: Int32 = gray || header.samplesPerPixel == 1 ? 8 : 32
        let width = (header.width + reduction - 1) / reduction, height = (header.height + reduction - 1) / reduction
        guard let pix = OwnedPix(width: width, height: height, depth: depth), let raster = pix.data else {
            throw OCRError.corruptImage(path: name, format: ImageFormat.jpeg.name, reason: "no memory for \(width)x\(height) pixels")
        }
        var message = [CChar](repeating: 0, count: Int(CARDSCAN_JPEG_MESSAGE_LENGTH))
        let code = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return cardscan_jpeg_decode(base, raw.count, gray ? 1 : 0, Int32(reduction), UInt32(width), UInt32(height),
                                        raster, pix.wordsPerLine, maxMemory, maxJPEGScans, &message)
        }
        if code == 0 { return pix }
        throw OCRError.corruptImage(path: name, format: ImageFormat.jpeg.name, reason: reason(message))
    }

    /// How many times smaller (1, 2, 4 or 8) an image of `header`'s size can be decoded while its
    /// longer side stays at least `side` pixels.
    static func reduction(_ header: Header, side: Int) -> Int {
        let longer = max(header.width, header.height)
        return [8, 4, 2].first { longer / $0 >= side } ?? 1
    }

    /// A PNG decoded straight to 8-bit grey by libpng, row by row (`cardscan_png_read_gray`); the
    /// kinds it leaves aside (interlaced with transparency) go through Leptonica.
    static func decodeGrayPNG(_ data: Data, width: Int, height: Int) -> OwnedPix? {
        guard let pix = OwnedPix(width: width, height: height, depth: 8), let raster = pix.data else { return nil }
        let code = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return cardscan_png_read_gray(base, raw.count, UInt32(width), UInt32(height), raster, pix.wordsPerLine)
        }
        if code == 0 { return pix }
        return code == -2 ? decode(data) : nil
    }

    /// A PNG decoded to 32-bit RGB `reduction` times smaller by libpng, row by row, keeping every
    /// `reduction`-th pixel (`cardscan_png_read_rgb_reduced`); nil for an interlaced PNG, which
    /// the caller decodes whole.
    static func decodeReducedPNG(_ data: Data, name: String, header: Header, reduction: Int) throws -> OwnedPix? {
        let width = (header.width + reduction - 1) / reduction, height = (header.height + reduction - 1) / reduction
        guard let pix = OwnedPix(width: width, height: height, depth: 32), let raster = pix.data else {
            throw OCRError.corruptImage(path: name, format: ImageFormat.png.name, reason: "no memory for \(width)x\(height) pixels")
        }
        let code = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return cardscan_png_read_rgb_reduced(base, raw.count, UInt32(header.width), UInt32(header.height), UInt32(reduction),
                                                 raster, pix.wordsPerLine)
        }
        if code == 0 { return pix }
        if code == -2 { return nil }
        throw OCRError.corruptImage(path: name, format: ImageFormat.png.name)
    }

    /// Decodes any format but JPEG through Leptonica (`pixReadMem`); nil on failure. Whatever the C decoders
    /// under it print on stderr (libpng's "libpng error: …", libtiff's warnings) is kept off the
    /// terminal: the caller reports one error naming the file.
    static func decode(_ data: Data) -> OwnedPix? {
        let read = data.withUnsafeBytes { raw -> UnsafeMutablePointer<PIX>? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return CLibraryChatter.silenced { pixReadMem(base, raw.count) }
        }
        return OwnedPix(read)
    }
}
