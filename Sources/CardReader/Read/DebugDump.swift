import CardScanOCR
import Foundation

/// Writes rectified patches as PNG into `$CARDSCAN_DEBUG_DIR` when it is set (for tuning).
enum DebugDump {
    static let directory = ProcessInfo.processInfo.environment["CARDSCAN_DEBUG_DIR"]

    static func log(_ lines: [String]) {
        guard directory != nil else { return }
        toStandardError(lines.joined(separator: "\n"))
    }

    static let tracing = ProcessInfo.processInfo.environment["CARDSCAN_TRACE"] != nil

    /// One line on stderr when `$CARDSCAN_TRACE` is set (what was read, and how long it took).
    static func trace(_ line: @autoclosure () -> String) {
        guard tracing else { return }
        toStandardError(line())
    }

    private static func toStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func write(_ patch: GrayImage, name: String) {
        guard let directory else { return }
        try? ImageWriter.writePNG(patch, to: "\(directory)/\(name)-\(UUID().uuidString.prefix(6)).png")
    }
}
