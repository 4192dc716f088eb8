import ArgumentParser
import Foundation

/// A one-line error for the user; ArgumentParser prints it as `Error: <message>` and exits non-zero.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Helpers for writing to the terminal.
enum Terminal {
    /// Writes a line to standard error.
    static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// True when standard error is a terminal (progress bars go there).
    static var stderrIsTTY: Bool { isatty(2) == 1 }
}

/// JSON encoding with stable key order.
enum JSONOutput {
    /// `snakeCase`: keys as `scan --json` writes them (`collector_number`), for values whose
    /// Swift properties are camelCase.
    static func string<T: Encodable>(_ value: T, pretty: Bool = false, snakeCase: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
