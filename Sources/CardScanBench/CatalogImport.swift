import Foundation

// MARK: - HOOK: catalog import
//
// `CardCatalog` has no benchmark API yet. When it exposes one (e.g. `CatalogBenchmark` importing the
// Scryfall / MTGJSON bulk files from ../shared/carddata into a temporary database), fill in
// `CatalogImportBench.run` below: one `CatalogImportRow` per source file. The section is already
// part of the JSON (`catalogImport`) and of the markdown report ("Catalog import"); rows are
// rendered as they come, so nothing else has to change.

/// One catalog import measured in this run.
public struct CatalogImportRow: Sendable, Codable {
    /// What was imported (file name or description).
    public var source: String
    /// Records (printings) imported.
    public var records: Int?
    /// Wall time, seconds.
    public var seconds: Double?
    /// Peak resident memory during the import (process-wide VmHWM), KiB.
    public var peakRSSKiB: Int?
    /// Size of the resulting database, bytes.
    public var databaseBytes: Int?

    /// Records per second.
    public var recordsPerSecond: Double? {
        guard let records, let seconds, seconds > 0 else { return nil }
        return Double(records) / seconds
    }

    /// Creates a row.
    public init(source: String, records: Int?, seconds: Double?, peakRSSKiB: Int?, databaseBytes: Int?) {
        self.source = source
        self.records = records
        self.seconds = seconds
        self.peakRSSKiB = peakRSSKiB
        self.databaseBytes = databaseBytes
    }
}

/// The catalog import section: rows, or why there are none.
public struct CatalogImportSection: Sendable, Codable {
    /// Why the section is empty (nil when rows were measured).
    public var status: String?
    /// One row per imported source.
    public var rows: [CatalogImportRow]
}

/// Runs the catalog import benchmark when `CardCatalog` provides one.
enum CatalogImportBench {
    static func run() -> CatalogImportSection {
        CatalogImportSection(status: "not measured: CardCatalog exposes no import benchmark API yet", rows: [])
    }
}
