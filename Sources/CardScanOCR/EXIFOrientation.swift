import Foundation

/// The EXIF orientation tag (0x0112): how the stored pixels must be transformed for display.
public enum EXIFOrientation: Int, Sendable, Codable {
    case up = 1, upMirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Reads the orientation from a JPEG's APP1 Exif segment (or a bare TIFF header).
    /// Returns `.up` when there is no tag or the data is not understood.
    public static func read(from data: Data) -> EXIFOrientation {
        data.withUnsafeBytes { raw -> EXIFOrientation in
            let bytes = raw.bindMemory(to: UInt8.self)
            return parse(bytes) ?? .up
        }
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> EXIFOrientation? {
        guard b.count >= 4 else { return nil }
        if b[0] == 0xFF, b[1] == 0xD8 { return parseJPEG(b) }
        if (b[0] == 0x49 && b[1] == 0x49) || (b[0] == 0x4D && b[1] == 0x4D) { return parseTIFF(b, at: 0) }
        return nil
    }

    private static func parseJPEG(_ b: UnsafeBufferPointer<UInt8>) -> EXIFOrientation? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }            // fill byte
            if marker == 0xD9 || marker == 0xDA { return nil } // end of image / start of scan
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return nil }
            let start = i + 4
            if marker == 0xE1, start + 6 <= b.count,
               b[start] == 0x45, b[start + 1] == 0x78, b[start + 2] == 0x69, b[start + 3] == 0x66,
               b[start + 4] == 0, b[start + 5] == 0 {
                let end = min(b.count, i + 2 + length)
                guard end >= start + 6 else { return nil } // a segment length shorter than "Exif\0\0"
                let segment = UnsafeBufferPointer(rebasing: b[(start + 6)..<end])
                return parseTIFF(segment, at: 0)
            }
            i += 2 + length
        }
        return nil
    }

    private static func parseTIFF(_ b: UnsafeBufferPointer<UInt8>, at base: Int) -> EXIFOrientation? {
        guard b.count >= base + 8 else { return nil }
        let little = b[base] == 0x49
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let hi = u16(little ? o + 2 : o), let lo = u16(little ? o : o + 2) else { return nil }
            return hi << 16 | lo
        }
        guard u16(base + 2) == 42, let ifd = u32(base + 4), let count = u16(base + ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let o = base + ifd + 2 + entry * 12
            guard let tag = u16(o) else { return nil }
            if tag == 0x0112, let value = u16(o + 8) { return EXIFOrientation(rawValue: value) }
        }
        return nil
    }
}
