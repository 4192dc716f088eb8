import CardCatalog
import CardScanTerminal
import Foundation

extension ProgressBar {
    /// The bar of a download or import: bytes, a line every 10 % when stderr is no terminal. The
    /// label (it may hold a file name or the user's `--type`) with its control characters escaped.
    static func catalog(label: String) -> ProgressBar {
        ProgressBar(label: Terminal.shown(label), unit: .bytes, offTerminal: .everyTenPercent)
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
