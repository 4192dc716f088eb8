import Foundation

/// Byte-level builders for hostile test inputs: tiny PNG encoder (stored deflate), header patching
/// for decompression bombs, a HEIC box, and a seeded random generator for the fuzz tests.
enum HostileBytes {
    static let hostileFixtures = FixturePaths.packageRoot.appendingPathComponent("Fixtures/hostile")

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// A zlib stream made of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(b << 16 | a)
    }

    /// A PNG from raw rows (each `rowBytes` long, without the filter byte).
    /// colour types: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    static func png(width: Int, height: Int, colorType: UInt8, bitDepth: UInt8, rows: [[UInt8]], palette: [UInt8]? = nil) -> Data {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            out += be32(UInt32(body.count)) + typed + be32(crc32(typed))
        }
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [bitDepth, colorType, 0, 0, 0])
        if let palette { chunk("PLTE", palette) }
        chunk("IDAT", zlibStored(rows.flatMap { [0] + $0 }))
        chunk("IEND", [])
        return Data(out)
    }

    /// A valid 8-bit grey PNG of the given size, filled with `value`.
    static func grayPNG(width: Int, height: Int, value: UInt8 = 200) -> Data {
        png(width: width, height: height, colorType: 0, bitDepth: 8,
            rows: Array(repeating: [UInt8](repeating: value, count: width), count: height))
    }

    /// The PNG with IHDR's width and height replaced and the chunk CRC recomputed (a bomb header).
    static func patchPNGSize(_ data: Data, width: UInt32, height: UInt32) -> Data {
        var b = [UInt8](data)
        precondition(Array(b[12..<16]) == Array("IHDR".utf8))
        b.replaceSubrange(16..<20, with: be32(width))
        b.replaceSubrange(20..<24, with: be32(height))
        b.replaceSubrange(29..<33, with: be32(crc32(b[12..<29])))
        return Data(b)
    }

    /// Offset of the first start-of-frame marker (SOF0…SOF15 except DHT/JPG/DAC), or nil.
    static func sofOffset(_ b: [UInt8]) -> Int? {
        var i = 2
        while i + 9 < b.count, b[i] == 0xFF {
            let m = b[i + 1]
            if (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC { return i }
            if m == 0xDA { return nil }
            i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
        }
        return nil
    }

    /// The JPEG with its SOF height and width replaced (a bomb header over a small real body).
    static func patchJPEGSize(_ data: Data, width: UInt16, height: UInt16) -> Data {
        var b = [UInt8](data)
        let sof = sofOffset(b)!
        b[sof + 5] = UInt8(height >> 8); b[sof + 6] = UInt8(height & 0xFF)
        b[sof + 7] = UInt8(width >> 8); b[sof + 8] = UInt8(width & 0xFF)
        return Data(b)
    }

    /// Offset of the first start-of-scan marker.
    static func sosOffset(_ b: [UInt8]) -> Int? {
        var i = 2
        while i + 4 < b.count, b[i] == 0xFF {
            if b[i + 1] == 0xDA { return i }
            i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
        }
        return nil
    }

    /// An ISO-BMFF `ftyp` box with the HEIC brand, as an iPhone writes it, followed by junk.
    static func heic() -> Data {
        var b: [UInt8] = be32(24) + Array("ftypheic".utf8) + be32(0) + Array("mif1heic".utf8)
        b += be32(16) + Array("meta".utf8) + [UInt8](repeating: 0, count: 8)
        return Data(b)
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: hostileFixtures.appendingPathComponent(name))
    }

    static func synthetic(_ name: String) throws -> Data {
        try Data(contentsOf: FixturePaths.synthetic.appendingPathComponent(name))
    }
}

