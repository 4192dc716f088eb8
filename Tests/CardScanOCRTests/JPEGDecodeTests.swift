import CJPEGDecode
import CTesseract
import Foundation
import TestSupport
import Testing

@testable import CardScanOCR

/// JPEGs are decoded by libjpeg through cardscan's own decoder (`CJPEGDecode`): the same pixels as
/// Leptonica made from the same libjpeg, bounded memory, no stderr output, every warning an error.
@Suite("JPEG decoder")
struct JPEGDecodeTests {
    /// Leptonica's decode of `data` as cardscan called it before (`pixReadMemJpeg`, luminance only
    /// for a grey load of a 1- or 3-sample file), normalised like `Image`: the reference.
    static func leptonica(_ data: Data, grayscale: Bool) -> Image? {
        let header = try? ImageFormat.checkSize(data, name: "x", format: .jpeg, maxPixels: 200_000_000)
        let hint = grayscale && header?.samplesPerPixel != 4 ? Int32(L_JPEG_READ_LUMINANCE) : 0
        var warnings: Int32 = 0
        let read = data.withUnsafeBytes { raw in
            CLibraryChatter.silenced { pixReadMemJpeg(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 0, 1, &warnings, hint) }
        }
        guard let pix = OwnedPix(read), warnings == 0 else { return nil }
        let normalised: OwnedPix?
        if grayscale, pix.depth == 32 {
            normalised = OwnedPix(pixConvertTo8(pix.pointer, 0))
        } else if !grayscale, pix.depth == 8 {
            normalised = OwnedPix(pixConvertTo32(pix.pointer))
        } else {
            return Image(owning: pix, name: "leptonica")
        }
        guard let normalised else { return nil }
        return Image(owning: normalised, name: "leptonica")
    }

    static func fixtureJPEGs() throws -> [URL] {
        let hostile = FixturePaths.packageRoot.appendingPathComponent("Fixtures/hostile")
        let dirs = [FixturePaths.synthetic, hostile]
        return try dirs.flatMap { dir in
            try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil).filter { $0.pathExtension == "jpg" }
        }.sorted { $0.path < $1.path }
    }

    static func expectSamePixels(_ url: URL, grayscale: Bool) throws {
        let data = try Data(contentsOf: url)
        let mine = try Image(data: data, name: url.path, options: .init(grayscale: grayscale, applyEXIFOrientation: false))
        let reference = try #require(leptonica(data, grayscale: grayscale), "\(url.lastPathComponent)")
        #expect(mine.width == reference.width && mine.height == reference.height && mine.isColor == reference.isColor)
        if grayscale {
            #expect(mine.grayPixels().pixels == reference.grayPixels().pixels, "\(url.lastPathComponent) grey")
        } else {
            #expect(mine.rgbPixels().pixels == reference.rgbPixels().pixels, "\(url.lastPathComponent) colour")
        }
    }

    @Test("the same pixels as Leptonica's decode, grey and colour, for every fixture JPEG (RGB, CMYK, progressive, EXIF)")
    func sameAsLeptonica() throws {
        let files = try Self.fixtureJPEGs()
        #expect(files.count >= 20)
        for url in files {
            for grey in [true, false] { try Self.expectSamePixels(url, grayscale: grey) }
        }
    }

    @Test("the same grey pixels as Leptonica's decode for every JPEG photo in ../shared/photos",
          .tags(.sharedData), .needsSharedData)
    func sharedPhotos() throws {
        let files = FileManager.default.enumerator(at: FixturePaths.sharedPhotos, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { ["jpg", "jpeg"].contains($0.pathExtension.lowercased()) } ?? []
        var jpegs = 0
        for url in files where (try? ImageFormat.detect(Data(contentsOf: url), name: url.path)) == .jpeg {
            jpegs += 1 // (a few scans named .jpg are PNGs)
            try Self.expectSamePixels(url, grayscale: true)
        }
        #expect(jpegs > 100)
    }

    @Test("a grey JPEG (one sample) decodes to grey in both modes, as before")
    func greyFile() throws {
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Leptonica writes the reference grey JPEG (libjpeg, one component).
        let grey = try Image(contentsOf: FixturePaths.synthetic.appendingPathComponent("broodhunter_wurm_photo.jpg").path,
                             options: .init(grayscale: true))
        let path = dir.appendingPathComponent("grey.jpg").path
        #expect(pixWrite(path, grey.pix, Int32(IFF_JFIF_JPEG)) == 0)
        let header = try ImageFormat.checkSize(try Data(contentsOf: URL(fileURLWithPath: path)), name: path, format: .jpeg, maxPixels: 150_000_000)
        #expect(header.samplesPerPixel == 1)
        for mode in [true, false] { try Self.expectSamePixels(URL(fileURLWithPath: path), grayscale: mode) }
    }

    @Test("a progressive JPEG whose coefficients exceed the decoder's memory bound is refused before decoding, saying what it needs")
    func progressiveMemoryBound() throws {
        let path = FixturePaths.packageRoot.appendingPathComponent("Fixtures/hostile/progressive.jpg").path
        let header = try ImageFormat.checkSize(try Data(contentsOf: URL(fileURLWithPath: path)), name: path, format: .jpeg, maxPixels: 150_000_000)
        // 160x120, half-size colour: 20x15 luminance blocks (rounded up to 16 rows, the sampling
        // unit) + 2 x 10x8 colour blocks, 128 bytes each.
        #expect(header.decoderBytes == (20 * 16 + 2 * 10 * 8) * 128)
        #expect(throws: OCRError.decoderMemory(path: path, format: "JPEG", needed: header.decoderBytes, limit: 1000)) {
            try Image(contentsOf: path, options: .init(grayscale: true, maxDecoderMemory: 1000))
        }
        #expect(OCRError.decoderMemory(path: path, format: "JPEG", needed: 840_000_000, limit: 256_000_000).description
                == "\(path): this progressive JPEG needs 840 MB to decode (every coefficient of the image is kept), above the limit of 256 MB; refused before decoding. As a baseline JPEG it decodes row by row: jpegtran -copy all IN > OUT")
        // A baseline JPEG keeps no coefficients.
        let rgb = FixturePaths.packageRoot.appendingPathComponent("Fixtures/hostile/rgb.jpg")
        #expect(try ImageFormat.checkSize(try Data(contentsOf: rgb), name: "rgb", format: .jpeg, maxPixels: 150_000_000).decoderBytes == 0)
        _ = try Image(contentsOf: rgb.path, options: .init(grayscale: true, maxDecoderMemory: 1000))
    }

    @Test("libjpeg's warnings and errors come back as the reason, also one raised after the last row; a scan limit")
    func warningsAreErrors() throws {
        let rgb = [UInt8](try Data(contentsOf: FixturePaths.packageRoot.appendingPathComponent("Fixtures/hostile/rgb.jpg")))
        #expect(rgb.suffix(2) == [0xFF, 0xD9])
        // Bytes before the end marker, after a comment that ends the scan's data: libjpeg warns
        // only in jpeg_finish_decompress, after every row was delivered (Leptonica counted
        // warnings before it, so the image passed as good).
        let extraneous = Data(rgb.dropLast(2) + [0xFF, 0xFE, 0x00, 0x04, 0x41, 0x42, 0x12, 0x34, 0x56, 0xFF, 0xD9])
        let error = #expect(throws: OCRError.self) { try Image(data: extraneous, name: "extra.jpg", options: .init(grayscale: true)) }
        guard case let .corruptImage(_, _, reason?)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.contains("extraneous bytes"), "\(reason)")

        // A scan limit: the C decoder refuses a progressive file with more scans than allowed.
        let progressive = try Data(contentsOf: FixturePaths.packageRoot.appendingPathComponent("Fixtures/hostile/progressive.jpg"))
        let header = try ImageFormat.checkSize(progressive, name: "p", format: .jpeg, maxPixels: 150_000_000)
        var out = [UInt32](repeating: 0, count: (header.width + 3) / 4 * header.height)
        var message = [CChar](repeating: 0, count: Int(CARDSCAN_JPEG_MESSAGE_LENGTH))
        let decode = { (scans: Int32) -> Int32 in
            progressive.withUnsafeBytes { raw in
                cardscan_jpeg_decode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 1, 1, UInt32(header.width), UInt32(header.height),
                                     &out, Int32((header.width + 3) / 4), 0, scans, &message)
            }
        }
        #expect(decode(2) == -1)
        #expect(String(cString: message) == "more than 2 scans")
        #expect(decode(ImageFormat.maxJPEGScans) == 0)
    }
}
