import Foundation
import Synchronization

/// Standard error as both programs use it: whole lines, one writer at a time (workers report side
/// by side), and whether it is a terminal (progress bars are drawn only there).
public enum StandardError {
    private static let writer = Mutex(())

    /// True when standard error is a terminal.
    public static var isTerminal: Bool { isatty(2) == 1 }

    /// Writes `text` as it is, in one piece.
    public static func write(_ text: String) {
        writer.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Writes `text` and a line break, in one piece.
    public static func line(_ text: String) { write(text + "\n") }
}
