import Foundation

/// The EXIF orientation tag (0x0112): how the stored pixels must be transformed for display.
public enum EXIFOrientation: Int, Sendable, Codable {
    case up = 1, upMirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Reads the orientation from a JPEG's APP1 Exif segment (or a bare TIFF header).
    /// Returns `.up` when there is no tag or the data is not understood.
    public static func read(from data: Data) -> EXIFOrientation {
        EXIFMetadata.read(from: data).orientation
    }
}

/// The EXIF fields cardscan uses, from a JPEG's APP1 Exif segment or a bare TIFF header.
/// Anything missing, malformed or out of bounds reads as absent; no input makes it trap.
public struct EXIFMetadata: Sendable, Equatable {
    /// The orientation tag of the first image directory (`.up` when absent).
    public var orientation: EXIFOrientation = .up
    /// The day the photo was taken, `YYYY-MM-DD`: `DateTimeOriginal` (0x9003, in the Exif
    /// directory), else the image directory's `DateTime` (0x0132). Nil when absent or not a date.
    /// This is the camera's clock, which can be wrong; judging it is the caller's business.
    public var captureDay: String?

    /// Nothing read.
    public init() {}

    /// Reads the metadata of image bytes (only the segments before the image data are looked at).
    public static func read(from data: Data) -> EXIFMetadata {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let tiff = tiffBlock(bytes) else { return EXIFMetadata() }
            return TIFFDirectory.metadata(tiff)
        }
    }

    /// The TIFF structure holding the tags: a bare TIFF file, or a JPEG's APP1 `Exif\0\0` segment.
    private static func tiffBlock(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard b.count >= 4 else { return nil }
        if (b[0] == 0x49 && b[1] == 0x49) || (b[0] == 0x4D && b[1] == 0x4D) { return b }
        guard b[0] == 0xFF, b[1] == 0xD8 else { return nil }
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
                return UnsafeBufferPointer(rebasing: b[(start + 6)..<end])
            }
            i += 2 + length
        }
        return nil
    }
}

/// Bounds-checked reading of a TIFF structure's directories (offsets relative to its start).
private struct TIFFDirectory {
    let b: UnsafeBufferPointer<UInt8>
    let little: Bool

    static func metadata(_ b: UnsafeBufferPointer<UInt8>) -> EXIFMetadata {
        var out = EXIFMetadata()
        guard b.count >= 8 else { return out }
        let tiff = TIFFDirectory(b: b, little: b[0] == 0x49)
        guard tiff.u16(2) == 42, let ifd0 = tiff.u32(4) else { return out }
        let entries = tiff.entries(at: ifd0)
        if let o = entries.first(where: { $0.tag == 0x0112 }), let value = tiff.u16(o.offset + 8) {
            out.orientation = EXIFOrientation(rawValue: value) ?? .up
        }
        var original: String?
        if let pointer = entries.first(where: { $0.tag == 0x8769 }), let exif = tiff.u32(pointer.offset + 8),
           let o = tiff.entries(at: exif).first(where: { $0.tag == 0x9003 }) {
            original = tiff.day(entry: o.offset)
        }
        out.captureDay = original ?? entries.first { $0.tag == 0x0132 }.flatMap { tiff.day(entry: $0.offset) }
        return out
    }

    func u16(_ o: Int) -> Int? {
        guard o >= 0, o + 2 <= b.count else { return nil }
        return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
    }

    func u32(_ o: Int) -> Int? {
        guard let hi = u16(little ? o + 2 : o), let lo = u16(little ? o : o + 2) else { return nil }
        return hi << 16 | lo
    }

    /// The (tag, entry offset) pairs of the directory at `offset`, as far as they lie in bounds.
    func entries(at offset: Int) -> [(tag: Int, offset: Int)] {
        guard let count = u16(offset) else { return [] }
        var out: [(Int, Int)] = []
        for entry in 0..<min(count, 512) {
            let o = offset + 2 + entry * 12
            guard let tag = u16(o) else { break }
            out.append((tag, o))
        }
        return out
    }

    /// An ASCII `YYYY:MM:DD HH:MM:SS` entry's day as `YYYY-MM-DD`, if it is a calendar date.
    func day(entry o: Int) -> String? {
        // 20 bytes (19 and a NUL) do not fit in the entry: its value field holds their offset.
        guard u16(o + 2) == 2, let count = u32(o + 4), count >= 10, let start = u32(o + 8),
              start + 10 <= b.count else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<(start + 10)]), as: UTF8.self)
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              year >= 1900, (1...12).contains(month), (1...31).contains(day) else { return nil }
        return "\(parts[0])-\(parts[1])-\(parts[2])"
    }
}
