import Foundation
import Testing

@testable import CardScanOCR

@Suite("Image loading")
struct ImageLoadingTests {
    @Test("an empty file throws emptyFile naming it")
    func emptyFile() throws {
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("empty.jpg").path
        FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: OCRError.emptyFile(path: path)) { try Image(contentsOf: path) }
    }

    @Test("a text file named .jpg throws unsupportedFormat naming it")
    func textFileNamedJPEG() throws {
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.jpg").path
        try "this is not an image, just some words\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: OCRError.self) { try Image(contentsOf: path) }
        guard case .unsupportedFormat(let p, let detail)? = error else { Issue.record("wrong error \(String(describing: error))"); return }
        #expect(p == path)
        #expect(detail.contains("text"))
        #expect(error?.description.contains(path) == true)
    }

    @Test("a corrupt JPEG (valid header, garbage body) throws corruptImage naming it")
    func corruptJPEG() throws {
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try #require(try FixturePaths.truthRows().first { ($0["file"] ?? "").hasSuffix(".jpg") })
        let original = try Data(contentsOf: FixturePaths.synthetic.appendingPathComponent(source["file"]!))
        // Keep the headers, then cut the entropy-coded data short.
        let path = dir.appendingPathComponent("truncated.jpg").path
        try original.prefix(original.count / 3).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: OCRError.self) { try Image(contentsOf: path) }
        #expect(error.map { HostileInputTests.corruptJPEG($0, path) } == true, "\(String(describing: error))")
        // And a PNG signature followed by noise.
        let png = dir.appendingPathComponent("noise.png").path
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        try Data(bytes).write(to: URL(fileURLWithPath: png))
        #expect(throws: OCRError.corruptImage(path: png, format: "PNG")) { try Image(contentsOf: png) }
    }

    @Test("a missing file and a directory give unreadableFile")
    func unreadable() throws {
        #expect(throws: OCRError.unreadableFile(path: "/nonexistent/card.jpg", reason: "no such file")) {
            try Image(contentsOf: "/nonexistent/card.jpg")
        }
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: OCRError.unreadableFile(path: dir.path, reason: "is a directory")) { try Image(contentsOf: dir.path) }
    }

    @Test("EXIF orientation 6 is applied: the sideways-stored photo comes out upright")
    func exifOrientation() throws {
        let rows = try FixturePaths.truthRows()
        let rotated = try #require(rows.first { $0["variant"] == "exif6" })
        let path = FixturePaths.synthetic.appendingPathComponent(rotated["file"]!).path
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(EXIFOrientation.read(from: data) == .right)
        let upright = try Image(contentsOf: path)
        let stored = try Image(contentsOf: path, options: .init(applyEXIFOrientation: false))
        #expect(upright.width == stored.height && upright.height == stored.width)
    }

    @Test("a decompression bomb is refused from its header, before decoding")
    func pixelLimit() throws {
        let row = try #require(try FixturePaths.truthRows().first { $0["variant"] == "photo" })
        let path = FixturePaths.synthetic.appendingPathComponent(row["file"]!).path
        let error = #expect(throws: OCRError.self) { try Image(contentsOf: path, options: .init(maxPixels: 10_000)) }
        guard case .imageTooLarge? = error else { Issue.record("expected imageTooLarge, got \(String(describing: error))"); return }
    }
}

@Suite("Photo schedule for several workers")
struct PhotoScheduleTests {
    @Test("several workers take the largest file first; one worker keeps the order given")
    func largestFirst() throws {
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sizes = [("a.jpg", 10), ("b.jpg", 300), ("c.jpg", 20), ("d.jpg", 300)]
        for (name, size) in sizes { try Data(repeating: 1, count: size).write(to: dir.appendingPathComponent(name)) }
        let paths = sizes.map { dir.appendingPathComponent($0.0).path } + [dir.appendingPathComponent("missing.jpg").path]
        #expect(PhotoSchedule.order(paths, workers: 2) == [1, 3, 2, 0, 4], "equal sizes keep their order; a missing file goes last")
        #expect(PhotoSchedule.order(paths, workers: 1) == [0, 1, 2, 3, 4])
    }
}
