import Foundation
import TestSupport
import Testing

/// The progress bar as a user sees it: drawn in place on a terminal (a pseudo-terminal made by
/// util-linux `script`), plain lines or nothing when stderr is a pipe.
@Suite("Progress on stderr (real binary, sample catalog)")
struct ProgressTests {
    static let sample = CLI.root.appendingPathComponent("Fixtures/catalog/sample-cards.json").path
    static let photo = CLI.root.appendingPathComponent("Fixtures/synthetic/broodhunter_wurm_flat.png").path
    static let bar = "[" + String(repeating: "#", count: 30) + "]"

    /// `cardscan args` with stdout and stderr on a pseudo-terminal; what the terminal received.
    static func onTerminal(_ args: [String], home: URL) throws -> CLI.Run {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "util-linux script makes the terminal")
        let command = ([CLI.binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try CLI.run(["-qec", command, "/dev/null"], home: home, timeout: 120, executable: script)
    }

    @Test("off a terminal: catalog import writes a line per tenth imported, scan only its summary; no control characters")
    func piped() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let imported = try CLI.run(["catalog", "import", Self.sample], home: home)
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.errLines == ["importing 100% (0.0 MB) 82 records", "building indexes…"], "\(imported.errLines)")
        let scan = try CLI.run(["scan", Self.photo], home: home)
        #expect(scan.status == 0, "\(scan.err)")
        #expect(scan.errLines == ["scanned 1 photo: 1 identified, 0 ambiguous, 0 unidentified, 0 error"], "\(scan.errLines)")
    }

    @Test("on a terminal: the bars are drawn in place and the scan's is erased before its summary")
    func terminal() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let imported = try Self.onTerminal(["catalog", "import", Self.sample], home: home)
        #expect(imported.status == 0 && !imported.timedOut, "\(imported.out)")
        #expect(imported.out.contains("\rimporting \(Self.bar) 100% 0.0 MB / 0.0 MB  82 records\u{1B}[K\r\nbuilding indexes…"), "\(imported.out.debugDescription)")
        let scan = try Self.onTerminal(["scan", Self.photo], home: home)
        #expect(scan.status == 0 && !scan.timedOut, "\(scan.out)")
        #expect(scan.out.contains("\r\(Self.bar) 1/1\u{1B}[K\r\u{1B}[Kscanned 1 photo: "), "\(scan.out.debugDescription)")
    }
}
