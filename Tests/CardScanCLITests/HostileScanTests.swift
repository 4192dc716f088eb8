import Foundation
import TestSupport
import Testing

/// Hostile files for the tests of the real binary (run with `CLI.run` and a time limit).
enum HostileCLI {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func crc32<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    /// A 16x16 grey PNG (stored deflate) with IHDR claiming `width` x `height`.
    static func png(width: UInt32 = 16, height: UInt32 = 16) -> Data {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            out += be32(UInt32(body.count)) + typed + be32(crc32(typed))
        }
        chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])
        let raw = (0..<16).flatMap { _ in [UInt8(0)] + [UInt8](repeating: 180, count: 16) }
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let n = raw.count
        chunk("IDAT", [0x78, 0x01, 1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + raw + be32(b << 16 | a))
        chunk("IEND", [])
        return Data(out)
    }
}

@Suite("Hostile inputs: cardscan scan on bad files (real binary)", .serialized)
struct HostileScanTests {
    static let hostile = CLI.root.appendingPathComponent("Fixtures/hostile")
    static let synthetic = CLI.root.appendingPathComponent("Fixtures/synthetic")

    @Test("a folder of bad files: one stderr line per bad file naming it and the cause, nothing else; the batch goes on; exit 1")
    func mixedFolder() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        func put(_ data: Data, _ name: String) throws { try data.write(to: dir.appendingPathComponent(name)) }
        let photo = try Data(contentsOf: Self.synthetic.appendingPathComponent("broodhunter_wurm_photo.jpg"))
        let rgb = [UInt8](try Data(contentsOf: Self.hostile.appendingPathComponent("rgb.jpg")))
        let progressive = try Data(contentsOf: Self.hostile.appendingPathComponent("progressive.jpg"))
        var flipped = rgb
        let sos = rgb.indices.first { rgb[$0] == 0xFF && rgb[$0 + 1] == 0xDA }!
        for i in (sos + 40)..<(sos + 80) { flipped[i] ^= 0x5A } // "Corrupt JPEG data: premature end of data segment"
        var badCRC = [UInt8](HostileCLI.png()); badCRC[50] ^= 0xFF   // "libpng error: …"
        var jpegBomb = rgb
        let sof = rgb.indices.first { rgb[$0] == 0xFF && (rgb[$0 + 1] == 0xC0 || rgb[$0 + 1] == 0xC2) }!
        jpegBomb[sof + 5] = 0x75; jpegBomb[sof + 6] = 0x30; jpegBomb[sof + 7] = 0x75; jpegBomb[sof + 8] = 0x30 // 30000x30000

        var bad: [String: String] = [:] // file name → a word its error line must contain
        try put(Data(), "zero bytes.jpg"); bad["zero bytes.jpg"] = "empty"
        try put(photo.prefix(photo.count / 2), "truncated.jpg"); bad["truncated.jpg"] = "truncated"
        try put(Data(flipped), "flipped.jpg"); bad["flipped.jpg"] = "corrupt"
        // libjpeg warns about these bytes only after the last row (it printed the warning itself,
        // and the photo was read as good).
        try put(Data(rgb.dropLast(2) + [0xFF, 0xFE, 0x00, 0x04, 0x41, 0x42, 0x12, 0x34, 0x56, 0xFF, 0xD9]), "extra bytes.jpg")
        bad["extra bytes.jpg"] = "extraneous bytes before marker"
        try put(progressive.prefix(progressive.count * 2 / 3), "progressive-cut.jpg"); bad["progressive-cut.jpg"] = "corrupt"
        try put(Data(badCRC), "bad crc.png"); bad["bad crc.png"] = "corrupt"
        try put(Data("just some words\n".utf8), "notes.jpg"); bad["notes.jpg"] = "text file"
        try put(HostileCLI.png(width: 1, height: 1).prefix(33) + HostileCLI.png().dropFirst(33), "one pixel.png"); bad["one pixel.png"] = "1x1"
        try put(HostileCLI.png(width: 30_000, height: 30_000), "bomb.png"); bad["bomb.png"] = "30000x30000"
        try put(Data(jpegBomb), "bomb.jpg"); bad["bomb.jpg"] = "30000x30000"
        try put(Data(HostileCLI.be32(24) + Array("ftypheic".utf8) + HostileCLI.be32(0) + Array("mif1heic".utf8) + [UInt8](repeating: 0, count: 64)),
                "IMG_0001.HEIC"); bad["IMG_0001.HEIC"] = "HEIC"
        #expect(mkfifo(dir.appendingPathComponent("pipe.jpg").path, 0o644) == 0); bad["pipe.jpg"] = "FIFO"
        try fm.createDirectory(at: dir.appendingPathComponent("folder.jpg"), withIntermediateDirectories: false); bad["folder.jpg"] = "directory"
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("loop.jpg").path, withDestinationPath: "loop.jpg"); bad["loop.jpg"] = "symbolic link loop"
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("gone.png").path, withDestinationPath: "nowhere.png"); bad["gone.png"] = "broken symbolic link"

        // Files that must not fail: a real card under a non-ASCII name with spaces, CMYK, 16-bit grey.
        try fm.copyItem(at: Self.synthetic.appendingPathComponent("broodhunter_wurm_flat.png"), to: dir.appendingPathComponent("Ünïcödé card ✓ 日本.png"))
        try fm.copyItem(at: Self.hostile.appendingPathComponent("cmyk.jpg"), to: dir.appendingPathComponent("cmyk.jpg"))
        try fm.copyItem(at: Self.hostile.appendingPathComponent("gray16.png"), to: dir.appendingPathComponent("gray16.png"))
        let good = ["Ünïcödé card ✓ 日本.png", "cmyk.jpg", "gray16.png"]

        let home = dir.appendingPathComponent(".home").path
        let r = try CLI.run(["scan", dir.path, "--json", "--jobs", "2"], environment: ["CARDSCAN_HOME": home], timeout: 180)
        #expect(!r.timedOut, "scan hung (killed after \(r.seconds) s); stderr:\n\(r.err)")
        #expect(r.status == 1, "some files failed, so the exit status is 1")

        // stdout: one JSON record per file, errors naming their file.
        var records: [String: [String: Any]] = [:]
        for line in r.outLines {
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let file = try #require(obj["file"] as? String)
            #expect(records[(file as NSString).lastPathComponent] == nil, "two records for \(file)")
            records[(file as NSString).lastPathComponent] = obj
        }
        #expect(Set(records.keys) == Set(bad.keys).union(good), "records: \(records.keys.sorted())")
        for name in good {
            #expect(records[name]?["status"] as? String != "error", "\(name): \(String(describing: records[name]?["error"]))")
        }
        #expect(records["Ünïcödé card ✓ 日本.png"]?["status"] as? String == "identified")

        // stderr: exactly one line per bad file, naming it and the cause, plus the catalog notice and summary.
        var lines = r.errLines
        lines.removeAll { $0.contains("sample catalog") }
        #expect(lines.last?.hasPrefix("scanned \(bad.count + good.count) photos:") == true, "\(lines.last ?? "")")
        lines.removeAll { $0.hasPrefix("scanned ") }
        for (name, cause) in bad {
            let path = dir.appendingPathComponent(name).path
            let mine = lines.filter { $0.hasPrefix(path + ": ") }
            #expect(mine.count == 1, "\(name): \(mine)")
            #expect(mine.first?.contains(cause) == true, "\(name): \(mine.first ?? "no line") should mention \(cause)")
            #expect((records[name]?["error"] as? String) == mine.first)
        }
        let stray = lines.filter { line in !bad.keys.contains { line.hasPrefix(dir.appendingPathComponent($0).path + ": ") } }
        #expect(stray.isEmpty, "lines on stderr that name no file (decoder chatter?): \(stray)")
    }

    @Test("scan --recursive over a folder with symlink loops finishes and lists each file once")
    func symlinkLoops() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let sub = dir.appendingPathComponent("a/b")
        try fm.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data().write(to: sub.appendingPathComponent("empty.jpg"))
        try fm.createSymbolicLink(atPath: sub.appendingPathComponent("up").path, withDestinationPath: "../..") // dir loop
        try fm.createSymbolicLink(atPath: sub.appendingPathComponent("self").path, withDestinationPath: "self") // link to itself
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("x").path, withDestinationPath: "y")    // x → y → x
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("y").path, withDestinationPath: "x")
        let r = try CLI.run(["scan", dir.path, "--recursive", "--json", "--jobs", "2"],
                                   environment: ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path], timeout: 60)
        #expect(!r.timedOut && r.seconds < 60)
        #expect(r.status == 1)
        #expect(r.outLines.count == 1, "\(r.outLines)")
        #expect(r.outLines.first?.contains("empty.jpg") == true)
    }

    @Test("5,000 zero-byte .jpg files with --jobs 2: 5,000 error lines, exit 1, well under a minute")
    func fiveThousandFiles() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for i in 0..<5000 {
            FileManager.default.createFile(atPath: photos.appendingPathComponent(String(format: "IMG_%04d.jpg", i)).path, contents: Data())
        }
        let r = try CLI.run(["scan", photos.path, "--jobs", "2"],
                                   environment: ["CARDSCAN_HOME": dir.appendingPathComponent(".home").path], timeout: 90)
        print("5,000 empty files scanned in \(r.seconds) s")
        #expect(!r.timedOut && r.seconds < 60, "\(r.seconds) s")
        #expect(r.status == 1)
        let errors = r.errLines.filter { $0.hasSuffix(": file is empty (0 bytes)") }
        #expect(errors.count == 5000)
        #expect(Set(errors).count == 5000)
        #expect(r.outLines.count == 5000)
        #expect(r.errLines.last == "scanned 5000 photos: 0 identified, 0 ambiguous, 0 unidentified, 5000 error")
    }

    @Test("an unreadable file (chmod 000) gives 'permission denied' — as root, checked by running as nobody")
    func permissionDenied() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("locked card.png").path
        try FileManager.default.copyItem(atPath: Self.synthetic.appendingPathComponent("counterspell_flat.png").path, toPath: path)
        #expect(chmod(path, 0) == 0)
        var prefix: [String] = []
        if geteuid() == 0 {
            // Root reads mode-000 files anyway; drop to nobody (65534) for this one run.
            let setpriv = "/usr/bin/setpriv"
            guard FileManager.default.isExecutableFile(atPath: setpriv) else {
                print("permissionDenied: running as root without setpriv; skipped"); return
            }
            prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
            chmod(dir.path, 0o755)
        }
        let r = try CLI.run(["ocr", path], timeout: 60, prefix: prefix)
        #expect(!r.timedOut)
        #expect(r.status != 0)
        #expect(r.errLines == ["Error: \(path): cannot read file (permission denied)"], "\(r.errLines)")
    }
}
