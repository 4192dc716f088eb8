import ArgumentParser
import CardScanTerminal
import Foundation

/// A one-line error for the user; ArgumentParser prints it as `Error: <message>` and exits non-zero.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Helpers for writing to the terminal.
enum Terminal {
    /// Writes a line to standard error, as one line (see `shown`).
    static func note(_ line: String) {
        StandardError.line(shown(line))
    }

    /// `text` with its control characters escaped (`\n`, `\r`, `\t`, `\u{1B}`), for a line of
    /// plain-text output: a file may be named `a\nb.png`, and its name must not forge a line.
    static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.properties.generalCategory == .control {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
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
