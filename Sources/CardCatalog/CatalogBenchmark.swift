import Foundation

/// Reusable measurements of the catalog for the benchmark tool and tests.
///
/// Peak RSS is read from `/proc/self/status` (`VmHWM`), which is process-wide and never goes down:
/// for a clean figure run each measurement in a fresh child process.
public enum CatalogBenchmark {
    /// Result of `measureImport`.
    public struct ImportMeasurement: Sendable {
        /// Wall time of the import in seconds.
        public var seconds: Double
        /// Process peak RSS after the import (bytes; nil when unavailable).
        public var peakRSSBytes: Int?
        /// The import report (counts per source).
        public var report: ImportReport
    }

    /// Imports `files` into a fresh catalog at `catalogURL` (a temporary file when nil, deleted after)
    /// and measures time and peak RSS.
    public static func measureImport(files: [String], catalogURL: URL? = nil) throws -> ImportMeasurement {
        let url = catalogURL ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("cardscan-bench-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite")
        defer { if catalogURL == nil { try? FileManager.default.removeItem(at: url) } }
        let start = Date()
        let report = try CatalogImporter(catalogURL: url).importFiles(files, replacing: true)
        return ImportMeasurement(seconds: Date().timeIntervalSince(start),
                                 peakRSSBytes: ProcessMemory.peakResidentBytes, report: report)
    }

    /// Result of `measureLookups`.
    public struct LookupMeasurement: Sendable {
        /// Mean microseconds per exact (set, number, language) lookup.
        public var exactMicroseconds: Double
        /// Mean microseconds per fuzzy name search.
        public var fuzzyMicroseconds: Double
        /// Worst fuzzy search in microseconds.
        public var fuzzyMaxMicroseconds: Double
        /// Searchable names in the index.
        public var names: Int
    }

    /// Times exact lookups of `keys` and fuzzy searches of `queries` against an open catalog.
    public static func measureLookups(catalog: CardCatalog, keys: [(set: String, number: String, language: String)],
                                      queries: [String]) throws -> LookupMeasurement {
        var exactTotal = 0.0
        for key in keys {
            let t = DispatchTime.now().uptimeNanoseconds
            _ = try catalog.printings(set: key.set, number: key.number, language: key.language)
            exactTotal += Double(DispatchTime.now().uptimeNanoseconds - t) / 1000
        }
        var fuzzyTotal = 0.0
        var fuzzyMax = 0.0
        for query in queries {
            let t = DispatchTime.now().uptimeNanoseconds
            _ = catalog.searchNames(query, limit: 5)
            let us = Double(DispatchTime.now().uptimeNanoseconds - t) / 1000
            fuzzyTotal += us
            fuzzyMax = max(fuzzyMax, us)
        }
        return LookupMeasurement(exactMicroseconds: keys.isEmpty ? 0 : exactTotal / Double(keys.count),
                                 fuzzyMicroseconds: queries.isEmpty ? 0 : fuzzyTotal / Double(queries.count),
                                 fuzzyMaxMicroseconds: fuzzyMax, names: catalog.nameCount)
    }
}
