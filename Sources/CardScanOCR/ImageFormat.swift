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
    }

    /// Reads width and height from the header and refuses images above the pixel limit.
    @discardableResult
    static func checkSize(_ data: Data, name: String, format: ImageFormat, maxPixels: Int) throws -> Header {
        var fmt: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
            return CLibraryChatter.silenced { pixReadHeaderMem(base, raw.count, &fmt, &w, &h, &bps, &spp, &cmap) == 0 }
        }
        guard ok, w > 0, h > 0 else { throw OCRError.corruptImage(path: name, format: format.name) }
        if Int(w) * Int(h) > maxPixels {
            throw OCRError.imageTooLarge(path: name, width: Int(w), height: Int(h), limit: maxPixels)
        }
        if w < 8 || h < 8 { throw OCRError.imageTooSmall(path: name, width: Int(w), height: Int(h)) }
        return Header(width: Int(w), height: Int(h), samplesPerPixel: Int(spp))
    }

    /// Decodes; nil on failure. JPEGs with decoder warnings (truncated or damaged data) count as
    /// failures, including warnings libjpeg prints after the last scanline, which Leptonica does not
    /// count (see ``CLibraryChatter``). `samplesPerPixel` comes from the header: a 4-sample
    /// (CMYK/YCCK) JPEG cannot be decoded to luminance by libjpeg ("Unsupported color conversion
    /// request"), so it is decoded to RGB and converted to grey afterwards. Whatever the C decoders
    /// print on stderr is kept off the terminal: the caller reports one error naming the file.
    /// A PNG decoded straight to 8-bit grey by libpng, row by row (`cardscan_png_read_gray`); the
    /// kinds it leaves aside (interlaced with transparency) go through Leptonica.
    static func decodeGrayPNG(_ data: Data, width: Int, height: Int) -> UnsafeMutablePointer<PIX>? {
        guard let pix = pixCreate(Int32(width), Int32(height), 8), let raster = pixGetData(pix) else { return nil }
        let code = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return -1 }
            return cardscan_png_read_gray(base, raw.count, UInt32(width), UInt32(height), raster, pixGetWpl(pix))
        }
        if code == 0 { return pix }
        var bad: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&bad)
        return code == -2 ? decode(data, format: .png, grayscale: true) : nil
    }

    static func decode(_ data: Data, format: ImageFormat, grayscale: Bool, samplesPerPixel: Int = 3) -> UnsafeMutablePointer<PIX>? {
        data.withUnsafeBytes { raw -> UnsafeMutablePointer<PIX>? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            if format == .jpeg {
                var warnings: Int32 = 0
                let hint = grayscale && samplesPerPixel != 4 ? Int32(L_JPEG_READ_LUMINANCE) : 0
                let (pix, messages) = CLibraryChatter.capturing { pixReadMemJpeg(base, raw.count, 0, 1, &warnings, hint) }
                if warnings > 0 || CLibraryChatter.containsJPEGWarning(messages) {
                    var bad: UnsafeMutablePointer<PIX>? = pix
                    pixDestroy(&bad)
                    return nil
                }
                return pix
            }
            return CLibraryChatter.silenced { pixReadMem(base, raw.count) }
        }
    }
}
