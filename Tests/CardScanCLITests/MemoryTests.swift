import CardReader
import CardScanOCR
import Foundation
import Testing

/// Issue 8: many consecutive photos through one `CardReader` keep resident memory flat.
///
/// A full read costs ~1.4 s per photo in a debug build (the Swift geometry is unoptimised), so the
/// always-on tests are split:
/// - the C-interop layer (decode through Leptonica + Tesseract on a region) over 300 photos;
/// - the whole `CardReader` over 40 photos (8 distinct files cycling, with bad ones).
/// `CARDSCAN_LONG_TESTS=1` runs 1,000 photos through `CardReader` over all synthetic fixtures
/// (~25 min in debug). `CARDSCAN_MEMORY_PHOTOS=N` sets that count directly.
@Suite("Memory: consecutive photos through CardReader", .serialized)
struct MemoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let env = ProcessInfo.processInfo.environment
    static let long = env["CARDSCAN_LONG_TESTS"] == "1"
    static var readerPhotoCount: Int {
        if let n = env["CARDSCAN_MEMORY_PHOTOS"].flatMap(Int.init), n > 0 { return n }
        return long ? 1000 : 40
    }

    /// The synthetic fixtures plus a truncated JPEG, a truncated PNG and the CMYK JPEG.
    static func cycle(in dir: URL, distinct: Int?) throws -> [String] {
        let synthetic = root.appendingPathComponent("Fixtures/synthetic")
        var photos = try FileManager.default.contentsOfDirectory(atPath: synthetic.path)
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
            .map { synthetic.appendingPathComponent($0).path }
        #expect(photos.count >= 20)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: photos.first { $0.hasSuffix("_photo.jpg") }!))
        let truncated = dir.appendingPathComponent("truncated.jpg").path
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: truncated))
        let png = try Data(contentsOf: URL(fileURLWithPath: photos.first { $0.hasSuffix(".png") }!))
        let badPNG = dir.appendingPathComponent("bad.png").path
        try png.prefix(png.count / 2).write(to: URL(fileURLWithPath: badPNG))
        let cmyk = root.appendingPathComponent("Fixtures/hostile/cmyk.jpg").path
        if let distinct {
            // A spread of kinds: photos, flats, EXIF-rotated, dark, small.
            let kinds = ["_photo.jpg", "_flat.png", "_exif6.jpg", "_dark.jpg", "_small.jpg"]
            photos = kinds.compactMap { kind in photos.first { $0.hasSuffix(kind) } }.prefix(distinct - 3).map { $0 }
        }
        return photos + [truncated, badPNG, cmyk]
    }

    /// Samples RSS after the warm-up and after every cycle; checks the end and the trend.
    static func checkFlat(_ label: String, total: Int, warmUp: Int, cycleLength: Int, tolerance: Double, step: (Int) -> Void) {
        var samples: [(Int, Double)] = []
        var baseline = 0.0
        let start = Date()
        for i in 0..<total {
            step(i)
            if i + 1 == warmUp { baseline = residentMB() }
            if i + 1 > warmUp, (i + 1) % cycleLength == 0 { samples.append((i + 1, residentMB())) }
        }
        let end = residentMB()
        print(String(format: "memory (%@): %d photos in %.1f s; RSS after %d warm-up photos %.1f MB, at the end %.1f MB; per cycle: %@",
                     label, total, Date().timeIntervalSince(start), warmUp, baseline, end,
                     samples.map { String(format: "%d:%.1f", $0.0, $0.1) }.joined(separator: " ")))
        // Flat: a leak of one 1600x1200 grey image per photo would add ~2 MB per photo.
        #expect(end - baseline < tolerance, "\(label): RSS grew from \(baseline) MB to \(end) MB")
        if samples.count >= 4 {
            let half = samples.count / 2
            let first = samples[..<half].map(\.1).max()!, second = samples[half...].map(\.1).max()!
            #expect(second - first < tolerance / 2, "\(label): RSS still rising: \(first) MB → \(second) MB")
        }
    }

    /// VmRSS of this process in MB.
    static func residentMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Double(line.split(separator: " ").compactMap { Int($0) }.first ?? 0) / 1024
        }
        return 0
    }

    @Test("C-interop layer: 300 decodes + region recognitions keep resident memory flat")
    func interopLayerFlat() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cycle = try Self.cycle(in: dir, distinct: nil)
        let recognizer = try TextRecognizer()
        var errors = 0
        Self.checkFlat("decode + OCR", total: 300, warmUp: cycle.count, cycleLength: cycle.count, tolerance: 20) { i in
            do {
                let image = try Image(contentsOf: cycle[i % cycle.count], options: .init(grayscale: i % 2 == 0))
                // The title band of a flat card / a band of a photo: a small region, as the reader does.
                let band = PixelRect(x: 0, y: image.height / 20, width: image.width, height: image.height / 10)
                _ = try recognizer.recognize(image, region: band, options: .init(pageSegmentation: .singleBlock, deadlineMilliseconds: 5000))
                _ = image.grayPixels()
            } catch is OCRError {
                errors += 1
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(errors >= 2 * (300 / cycle.count))
    }

    @Test("CardReader: consecutive photos keep resident memory flat (40 always; 1,000 with CARDSCAN_LONG_TESTS=1)")
    func cardReaderFlat() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let total = Self.readerPhotoCount
        let cycle = try Self.cycle(in: dir, distinct: total >= 200 ? nil : 8)
        let reader = try CardReader()
        var errors = 0
        Self.checkFlat("CardReader", total: total, warmUp: min(total / 2, 2 * cycle.count) / cycle.count * cycle.count,
                       cycleLength: cycle.count, tolerance: 20) { i in
            do {
                _ = try reader.read(contentsOf: cycle[i % cycle.count])
            } catch is OCRError {
                errors += 1
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(errors >= 2 * (total / cycle.count))
    }
}

