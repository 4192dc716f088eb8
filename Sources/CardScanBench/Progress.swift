import Foundation

/// Progress and diagnostics on stderr (stdout carries only the markdown report).
enum Progress {
    private static let lock = NSLock()

    /// Writes one line to stderr.
    static func line(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `12.3` style formatting for progress lines.
    static func ms(_ value: Double) -> String { String(format: "%.0f ms", value) }
}
