import CardCatalog
import Foundation

/// A progress bar on stderr: redrawn in place on a terminal, a line every 10 % otherwise.
final class CatalogProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let label: String
    private let tty = Terminal.stderrIsTTY
    private var lastDraw = Date.distantPast
    private var lastDecile = -1
    private var drewInPlace = false

    init(label: String) { self.label = label }

    /// Reports `done` of `total` bytes (total unknown when nil); `extra` is appended (e.g. record counts).
    func update(done: Int64, total: Int64?, extra: String = "") {
        lock.withLock {
            let fraction = total.map { $0 > 0 ? min(1, Double(done) / Double($0)) : 0 }
            if tty {
                let now = Date()
                guard now.timeIntervalSince(lastDraw) > 0.1 || fraction == 1 else { return }
                lastDraw = now
                var line = "\r\(label) "
                if let fraction {
                    let width = 30, filled = Int(fraction * Double(width))
                    line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
                    line += String(format: "%3.0f%% ", fraction * 100)
                }
                line += Self.megabytes(done) + (total.map { " / " + Self.megabytes($0) } ?? "")
                if !extra.isEmpty { line += "  " + extra }
                FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
                drewInPlace = true
            } else if let fraction {
                let decile = Int(fraction * 10)
                guard decile > lastDecile else { return }
                lastDecile = decile
                Terminal.note("\(label) \(decile * 10)% (\(Self.megabytes(done)))\(extra.isEmpty ? "" : " " + extra)")
            }
        }
    }

    /// Ends the bar's line.
    func finish() {
        lock.withLock {
            if drewInPlace { FileHandle.standardError.write(Data("\n".utf8)); drewInPlace = false }
        }
    }

    /// An importer progress callback driving this bar.
    var importCallback: @Sendable (ImportProgress) -> Void {
        { [self] p in
            if p.phase == "indexing" {
                finish()
                Terminal.note("building indexes…")
            } else {
                update(done: Int64(p.bytesDone), total: Int64(p.bytesTotal), extra: "\(p.records) records")
            }
        }
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}

/// Human-readable summary of an import report on stdout.
enum ImportSummary {
    static func print(_ report: ImportReport) {
        for s in report.sources {
            Swift.print("\(s.path): \(s.format)\(s.sourceDate.map { " (\($0))" } ?? ""): \(s.records) records, \(s.imported) new, \(s.updated) updated, \(s.skipped) skipped, \(s.malformed) malformed, \(s.sets) sets, \(String(format: "%.1f", s.seconds)) s")
            for problem in s.problems.prefix(5) { Swift.print("  \(problem)") }
        }
        Swift.print("catalog: \(report.totalPrintings) printings, \(report.totalSets) sets, \(report.totalNames) names (\(String(format: "%.1f", report.seconds)) s)")
        if report.nonGamePieces > 0 {
            Swift.print("  \(report.nonGamePieces) printings are no game piece (bios, decklists, ads, Art Series): found by set and number, not by name or text search")
        }
    }

    /// On stderr: another import (`catalog import` or `update`) holds the catalog's lock and
    /// this one waits for it, instead of waiting silently.
    static func waiting(catalogPath: String) -> @Sendable () -> Void {
        { Terminal.note("cardscan: another import of \(catalogPath) is running; waiting for it to finish") }
    }

    /// On stderr, whatever the output format: a catalog that was rebuilt instead of merged into
    /// lost its earlier sources, and the user must hear which file and why.
    static func warn(_ report: ImportReport, catalogPath: String) {
        if report.rebuiltUnmergeableCatalog {
            Terminal.note("\(catalogPath): built by an older cardscan (or not a catalog), so it was rebuilt from these files alone; import your other sources again")
        }
    }
}
