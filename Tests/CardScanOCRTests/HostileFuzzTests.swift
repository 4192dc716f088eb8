import Foundation
import TestSupport
import Testing

@testable import CardScanOCR

/// Property-based fuzzing with fixed seeds: EXIF parsing, format detection and decoding take random
/// and mutated bytes without crashing. A crash ends the test process, so "no crash" is the
/// property; the assertions check the only allowed outcomes (a value, or an `OCRError`).
/// `CARDSCAN_FUZZ_ITERATIONS` scales the counts (default 1).
@Suite("Hostile inputs: fuzzing")
struct HostileFuzzTests {
    static let scale = max(1, Int(ProcessInfo.processInfo.environment["CARDSCAN_FUZZ_ITERATIONS"] ?? "") ?? 1)

    /// `data` with `count` random bytes in `range` replaced, bits flipped or bytes set to 0x00/0xFF.
    static func mutate(_ data: [UInt8], in range: Range<Int>, count: Int, using rng: inout SeededGenerator) -> [UInt8] {
        var b = data
        guard !range.isEmpty else { return b }
        for _ in 0..<count {
            let i = Int.random(in: range, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: b[i] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            case 1: b[i] = UInt8.random(in: 0...255, using: &rng)
            case 2: b[i] = 0xFF
            default: b[i] = 0x00
            }
        }
        return b
    }

    /// Either decodes or throws an `OCRError`; anything else is recorded.
    static func decodeOrOCRError(_ bytes: [UInt8], name: String, grayscale: Bool, maxPixels: Int = 16_000_000) -> Bool? {
        do {
            let image = try Image(data: Data(bytes), name: name, options: .init(grayscale: grayscale, maxPixels: maxPixels))
            #expect(image.width > 0 && image.height > 0 && image.width * image.height <= maxPixels)
            return true
        } catch let error as OCRError {
            #expect(error.path == name, "\(error)")
            return false
        } catch {
            Issue.record("\(name): not an OCRError: \(error)")
            return nil
        }
    }

    @Test("EXIF: an APP1 segment whose length is shorter than its Exif header is ignored (was a range trap)")
    func shortAPP1() {
        for length in 0..<10 {
            let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, UInt8(length), 0x45, 0x78, 0x69, 0x66, 0, 0,
                                  0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
            #expect(EXIFOrientation.read(from: Data(bytes)) == .up, "length \(length)")
        }
        // The same segment with a proper length is read.
        let ok: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x20, 0x45, 0x78, 0x69, 0x66, 0, 0,
                           0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
        #expect(EXIFOrientation.read(from: Data(ok)) == .right)
    }

    @Test("EXIF: random buffers (bare, JPEG-prefixed, TIFF-prefixed) never crash")
    func exifRandom() {
        var rng = SeededGenerator(seed: 0xE81F)
        let prefixes: [[UInt8]] = [[], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xE1], [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],
                                   [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x40, 0x45, 0x78, 0x69, 0x66, 0, 0, 0x49, 0x49, 0x2A, 0x00]]
        var found = 0
        for n in 0..<(20_000 * Self.scale) {
            let prefix = prefixes[n % prefixes.count]
            let bytes = prefix + rng.bytes(Int.random(in: 0...96, using: &rng))
            if EXIFOrientation.read(from: Data(bytes)) != .up { found += 1 }
        }
        print("EXIF random: \(found) of \(20_000 * Self.scale) buffers gave an orientation")
    }

    @Test("EXIF: generated well-formed JPEG/TIFF structures read the first orientation entry (property)")
    func exifStructured() {
        var rng = SeededGenerator(seed: 0x0112)
        var seen = Set<EXIFOrientation>()
        for _ in 0..<(5_000 * Self.scale) {
            let little = Bool.random(using: &rng)
            func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
            func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
            // IFD0 after some padding, with random entries; maybe orientation among them.
            let padding = Int.random(in: 0...12, using: &rng)
            var expected: EXIFOrientation = .up
            var decided = false
            var entries: [UInt8] = []
            let count = Int.random(in: 0...12, using: &rng)
            for _ in 0..<count {
                let isOrientation = Int.random(in: 0..<4, using: &rng) == 0
                let tag = isOrientation ? 0x0112 : [0x010F, 0x0110, 0x0131, 0x8769, 0x0132, Int.random(in: 0...0xFFFF, using: &rng)].randomElement(using: &rng)!
                let value = isOrientation ? Int.random(in: 0...10, using: &rng) : Int.random(in: 0...0xFFFF, using: &rng)
                entries += u16(tag) + u16(3) + u32(1) + u16(value) + [0, 0]
                if tag == 0x0112, !decided { decided = true; expected = EXIFOrientation(rawValue: value) ?? .up }
            }
            let tiff = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8 + padding)
                + [UInt8](repeating: 0xAB, count: padding) + u16(count) + entries + u32(0)
            let app1Body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
            var jpeg: [UInt8] = [0xFF, 0xD8]
            if Bool.random(using: &rng) { jpeg += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] }
            if Bool.random(using: &rng) { jpeg += [0xFF, 0xFF] } // fill byte before a marker
            jpeg += [0xFF, 0xE1] + [UInt8((app1Body.count + 2) >> 8), UInt8((app1Body.count + 2) & 0xFF)] + app1Body
            jpeg += [0xFF, 0xDA, 0x00, 0x02] + rng.bytes(Int.random(in: 0...32, using: &rng))
            let got = EXIFOrientation.read(from: Data(jpeg))
            #expect(got == expected, "little=\(little) entries=\(count)")
            // A bare TIFF header reads the same.
            #expect(EXIFOrientation.read(from: Data(tiff)) == expected)
            seen.insert(got)
        }
        #expect(seen.count == 8, "every orientation generated: \(seen)")
    }

    @Test("EXIF: the fixture's APP1 segment with flipped bytes never crashes; unmutated it reads 6")
    func exifMutated() throws {
        for name in ["exif6_small.jpg"] {
            let original = [UInt8](try HostileBytes.fixture(name))
            #expect(EXIFOrientation.read(from: Data(original)) == .right)
            let sos = try #require(HostileBytes.sosOffset(original))
            let app1 = try #require((2..<sos).first { original[$0] == 0xFF && original[$0 + 1] == 0xE1 })
            var rng = SeededGenerator(seed: 0xA991)
            var outcomes: [EXIFOrientation: Int] = [:]
            for _ in 0..<(5_000 * Self.scale) {
                // The APP1 segment starts at byte 2; mutate 1–8 bytes of everything before the scan.
                var bytes = Self.mutate(original, in: 2..<sos, count: Int.random(in: 1...8, using: &rng), using: &rng)
                // Segment lengths are where parsers go wrong: often make APP1's length small or huge.
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    bytes[app1 + 2] = Bool.random(using: &rng) ? 0 : UInt8.random(in: 0...255, using: &rng)
                    bytes[app1 + 3] = UInt8.random(in: 0...40, using: &rng)
                }
                outcomes[EXIFOrientation.read(from: Data(bytes)), default: 0] += 1
                // Also cut at a random point inside the headers.
                let cut = Array(bytes.prefix(Int.random(in: 0..<sos, using: &rng)))
                _ = EXIFOrientation.read(from: Data(cut))
            }
            #expect(outcomes[.right, default: 0] > 0)
            print("EXIF mutations of \(name): \(outcomes.sorted { $0.key.rawValue < $1.key.rawValue })")
        }
    }

    @Test("format detection: random bytes and random bytes behind real magic numbers give a format or unsupportedFormat")
    func detectRandom() {
        var rng = SeededGenerator(seed: 0xDE7EC7)
        let magics: [[UInt8]] = [[], [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8),
                                 Array("BM".utf8), [0x49, 0x49, 0x2A, 0x00], Array("RIFF\0\0\0\0WEBP".utf8), Array("P5\n".utf8),
                                 [0, 0, 0, 0x18] + Array("ftypheic".utf8), [0, 0, 0, 0x18] + Array("ftyp".utf8),
                                 [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20], Array("%PDF-1.7".utf8)]
        for n in 0..<(20_000 * Self.scale) {
            let bytes = magics[n % magics.count] + rng.bytes(Int.random(in: 0...40, using: &rng))
            do {
                _ = try ImageFormat.detect(Data(bytes), name: "fuzz")
            } catch let error as OCRError {
                guard case .unsupportedFormat("fuzz", _) = error else { Issue.record("\(error)"); continue }
            } catch {
                Issue.record("not an OCRError: \(error)")
            }
        }
    }

    @Test("decoding: random bytes behind real magic numbers never crash")
    func decodeRandom() {
        var rng = SeededGenerator(seed: 0x5EED)
        let magics: [[UInt8]] = [[0xFF, 0xD8, 0xFF, 0xE0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8),
                                 Array("BM".utf8), [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], Array("RIFF\u{40}\0\0\0WEBPVP8 ".utf8),
                                 Array("P5\n16 16\n255\n".utf8), Array("P6\n9 9\n255\n".utf8)]
        var decoded = 0
        for n in 0..<(3_000 * Self.scale) {
            let bytes = magics[n % magics.count] + rng.bytes(Int.random(in: 0...600, using: &rng))
            if Self.decodeOrOCRError(bytes, name: "random-\(n)", grayscale: n % 2 == 0) == true { decoded += 1 }
        }
        print("random decode: \(decoded) decoded")
    }

    @Test("decoding: mutated headers, APP1 and scan data of real JPEGs and PNGs decode or throw OCRError")
    func decodeMutated() throws {
        var rng = SeededGenerator(seed: 0x1D0C)
        let smallPNG = [UInt8](HostileBytes.png(width: 24, height: 12, colorType: 2, bitDepth: 8,
                                                 rows: (0..<12).map { y in (0..<72).map { UInt8(($0 * 7 + y * 13) & 0xFF) } }))
        let seeds: [(String, [UInt8], Int)] = [
            ("exif6_small.jpg", [UInt8](try HostileBytes.fixture("exif6_small.jpg")), 2000),
            ("progressive.jpg", [UInt8](try HostileBytes.fixture("progressive.jpg")), 1000),
            ("cmyk.jpg", [UInt8](try HostileBytes.fixture("cmyk.jpg")), 500),
            ("small.png", smallPNG, 1000),
            // A real 1600x1200 photo: fewer rounds (each decode is a few tens of milliseconds).
            ("broodhunter_wurm_exif6.jpg", [UInt8](try HostileBytes.synthetic("broodhunter_wurm_exif6.jpg")), 80),
        ]
        for (name, original, rounds) in seeds {
            let header = name.hasSuffix(".png") ? 8..<min(original.count, 60) : 2..<(HostileBytes.sosOffset(original) ?? 600) + 12
            var tally = [0, 0]
            for round in 0..<(rounds * Self.scale) {
                let bytes: [UInt8]
                switch round % 4 {
                case 0, 1: bytes = Self.mutate(original, in: header, count: Int.random(in: 1...4, using: &rng), using: &rng)
                case 2: bytes = Self.mutate(original, in: header.upperBound..<original.count, count: Int.random(in: 1...16, using: &rng), using: &rng)
                default: bytes = Array(Self.mutate(original, in: 2..<original.count, count: 3, using: &rng)
                                        .prefix(Int.random(in: 1...original.count, using: &rng)))
                }
                if let ok = Self.decodeOrOCRError(bytes, name: "\(name)#\(round)", grayscale: round % 3 == 0) { tally[ok ? 0 : 1] += 1 }
            }
            print("mutations of \(name): \(tally[0]) decoded, \(tally[1]) OCRError")
            #expect(tally[0] + tally[1] == rounds * Self.scale)
        }
    }
}
