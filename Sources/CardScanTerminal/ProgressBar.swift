import Foundation
import Synchronization

/// A progress bar on standard error: the one `cardscan` draws (catalog download and import, scan).
///
/// On a terminal it is redrawn in place (at most ten times a second, and always at the end or
/// after `clear`). Elsewhere it is either silent or, with `.everyTenPercent`, writes one line each
/// time another tenth is done, so that a log still shows a long download or import advancing.
public final class ProgressBar: Sendable {
    /// What `done` and `total` count.
    public enum Unit: Sendable {
        /// Bytes: `label [####      ]  42% 1.2 MB / 3.0 MB  extra`.
        case bytes
        /// Items: `[####......] 3/7`.
        case items
    }

    /// What the bar writes when standard error is not a terminal.
    public enum OffTerminal: Sendable {
        /// Nothing.
        case silent
        /// `label 40% (1.2 MB) extra`, once for each tenth reached.
        case everyTenPercent
    }

    private struct State {
        var lastDraw = ContinuousClock.Instant?.none
        var lastTenth = -1
        var drawn = false
    }

    private let label: String
    private let unit: Unit
    private let offTerminal: OffTerminal
    private let terminal: Bool
    private let state = Mutex(State())

    /// Bar width in characters between the brackets.
    private static let width: Int64 = 30

    public init(label: String = "", unit: Unit, offTerminal: OffTerminal) {
        self.label = label
        self.unit = unit
        self.offTerminal = offTerminal
        terminal = StandardError.isTerminal
    }

    /// Reports `done` of `total` (total unknown when nil); `extra` is appended (e.g. record counts).
    public func update(done: Int64, total: Int64?, extra: String = "") {
        state.withLock { state in
            let fraction = total.map { Self.fraction(done, $0) }
            if terminal {
                let now = ContinuousClock.now
                if let last = state.lastDraw, now - last <= .milliseconds(100), fraction != 1 { return }
                state.lastDraw = now
                StandardError.write("\r" + line(done: done, total: total, extra: extra) + "\u{1B}[K")
                state.drawn = true
            } else if offTerminal == .everyTenPercent, let fraction {
                let tenth = Int(fraction * 10)
                guard tenth > state.lastTenth else { return }
                state.lastTenth = tenth
                StandardError.line("\(label) \(tenth * 10)% (\(amount(done)))\(extra.isEmpty ? "" : " " + extra)")
            }
        }
    }

    /// Erases the bar from the terminal so that other output can be written there; the next
    /// `update` draws it again at once.
    public func clear() {
        state.withLock { state in
            guard terminal else { return }
            StandardError.write("\r\u{1B}[K")
            state.lastDraw = nil
            state.drawn = false
        }
    }

    /// Ends the bar's line, leaving the last drawing on the terminal.
    public func finish() {
        state.withLock { state in
            if state.drawn { StandardError.write("\n"); state.drawn = false }
        }
    }

    /// `label [####      ]  42% 1.2 MB / 3.0 MB  extra` or `[####......] 3/7`.
    private func line(done: Int64, total: Int64?, extra: String) -> String {
        var parts = label.isEmpty ? [] : [label]
        if let total {
            let filled = total > 0 ? Self.width * min(max(done, 0), total) / total : 0
            let empty: Character = unit == .items ? "." : " "
            parts.append("[" + String(repeating: "#", count: Int(filled)) + String(repeating: empty, count: Int(Self.width - filled)) + "]")
            if unit == .bytes { parts.append(String(format: "%3.0f%%", Self.fraction(done, total) * 100)) }
        }
        parts.append(amount(done) + (total.map { (unit == .bytes ? " / " : "/") + amount($0) } ?? ""))
        return parts.joined(separator: " ") + (extra.isEmpty ? "" : "  " + extra)
    }

    private static func fraction(_ done: Int64, _ total: Int64) -> Double { total > 0 ? min(1, Double(done) / Double(total)) : 0 }

    private func amount(_ value: Int64) -> String {
        switch unit {
        case .bytes: String(format: "%.1f MB", Double(value) / 1_000_000)
        case .items: String(value)
        }
    }
}
