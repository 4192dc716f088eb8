import Foundation
import Testing

/// Hostile inputs for the commands that write (import, add, catalog import) and the exit-code
/// conventions (issue 26), through the real binary with a time limit.
@Suite("Hostile inputs: import, collection quantities, catalog, conventions (real binary)", .serialized)
struct HostileImportTests {
    @Test("import of a FIFO and of a link to /dev/zero (also found through --recursive) fails each in one line, no hang")
    func specialFiles() throws {
        let dir = try HostileCLI.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(mkfifo(photos.appendingPathComponent("p.jpg").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("sub/z.jpg").path, withDestinationPath: "/dev/zero")
        let home = dir.appendingPathComponent(".home").path
        let r = try HostileCLI.run(["import", photos.path, "--recursive", "--jobs", "2"], environment: ["CARDSCAN_HOME": home], timeout: 20)
        #expect(!r.timedOut, "import hung (killed after \(r.seconds) s); stderr:\n\(r.err)")
        #expect(r.status == 1, "\(r.status): \(r.err)")
        let fifo = r.outLines.filter { $0.hasPrefix(photos.appendingPathComponent("p.jpg").path + ": failed: ") }
        let zero = r.outLines.filter { $0.hasPrefix(photos.appendingPathComponent("sub/z.jpg").path + ": failed: ") }
        #expect(fifo.count == 1 && fifo.first?.contains("FIFO") == true, "\(r.out)")
        #expect(zero.count == 1 && zero.first?.contains("device") == true, "\(r.out)")
    }
}
