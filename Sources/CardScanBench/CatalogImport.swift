import CardCatalog
import CardCatalogBench
import CardScanTerminal
import Foundation

// Catalog import section: each bulk file under the card-data folder is imported into a fresh
// temporary catalog by `CatalogBenchmark.measureImport` (CardCatalogBench), in a child process of
// the bench itself (hidden `--catalog-import-probe FILE` mode) so that every peak-memory figure is clean
// (VmHWM is process-wide and never goes down). To add a source, extend `sources`; to add lookup
// timings (`CatalogBenchmark.measureLookups`), extend `CatalogImportMeasurement` and the probe.

/// One catalog import measured in this run.
public struct CatalogImportRow: Sendable, Codable {
    /// What was imported (path relative to the card-data folder).
    public var source: String
    /// The child's own measurement (nil when it failed).
    public var measurement: CatalogImportMeasurement?
    /// Launch-to-exit time of the child process, s (includes start-up and clean-up).
    public var processSeconds: Double?
    /// Why it failed.
    public var error: String?
}

/// What the import probe printed.
public struct CatalogImportMeasurement: Sendable, Codable {
    /// Import wall time inside the child, s.
    public var seconds: Double
    /// Child's peak resident memory after the import, bytes.
    public var peakRSSBytes: Int?
    /// Records read from the file.
    public var records: Int
    /// Printings stored.
    public var printings: Int
    /// Sets stored.
    public var sets: Int
    /// Distinct names stored.
    public var names: Int
    /// Records skipped or malformed.
    public var skipped: Int
    /// Size of the catalog database, bytes.
    public var databaseBytes: Int?

    /// Records per second.
    public var recordsPerSecond: Double? { seconds > 0 ? Double(records) / seconds : nil }
}

/// The catalog import section: rows, or why there are none.
public struct CatalogImportSection: Sendable, Codable {
    /// Why the section is empty or partial (nil when all rows were measured).
    public var status: String?
    /// One row per imported source.
    public var rows: [CatalogImportRow]
}

/// Runs catalog imports in child processes.
public enum CatalogImportBench {
    /// Bulk files tried under the card-data folder, in order.
    static let sources = ["scryfall-2019/cards.json.gz", "mtgjson-2022/AllPrintings-slim.json.gz"]

    /// Child side: imports `file` into a fresh temporary catalog and returns the measurement as JSON.
    public static func measureInProcess(file: String) throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardscan-bench-catalog-\(getpid()).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        let m = try CatalogBenchmark.measureImport(files: [file], catalogURL: url)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        let r = m.report
        let out = CatalogImportMeasurement(seconds: m.seconds, peakRSSBytes: m.peakRSSBytes, records: r.records,
                                           printings: r.totalPrintings, sets: r.totalSets, names: r.totalNames,
                                           skipped: r.skipped + r.malformed, databaseBytes: size)
        return String(decoding: try JSONEncoder().encode(out), as: UTF8.self)
    }

    /// Parent side: one child per source file found under `dataFolder`.
    static func run(dataFolder: String?) -> CatalogImportSection {
        guard let dataFolder else { return CatalogImportSection(status: "skipped (--no-catalog)", rows: []) }
        let files = sources.filter { FileManager.default.fileExists(atPath: (dataFolder as NSString).appendingPathComponent($0)) }
        guard !files.isEmpty else { return CatalogImportSection(status: "no bulk files found under \(dataFolder)", rows: []) }
        guard let exe = OpenMPProbe.selfExecutable() else { return CatalogImportSection(status: "cannot find the bench's own executable", rows: []) }
        var rows: [CatalogImportRow] = []
        for source in files {
            let path = (dataFolder as NSString).appendingPathComponent(source)
            StandardError.line("catalog: importing \(path) in a child process …")
            var row = CatalogImportRow(source: source)
            do {
                let r = try ProcessRunner.run(exe, ["--catalog-import-probe", path], captureStdout: true)
                row.processSeconds = r.wallMs / 1000
                if r.exitCode == 0 {
                    row.measurement = try JSONDecoder().decode(CatalogImportMeasurement.self, from: r.stdout)
                } else {
                    row.error = "exit code \(r.exitCode)"
                }
            } catch {
                row.error = String(describing: error)
            }
            rows.append(row)
        }
        let failed = rows.filter { $0.measurement == nil }.count
        return CatalogImportSection(status: failed > 0 ? "\(failed) of \(rows.count) imports failed" : nil, rows: rows)
    }
}

extension CatalogImportRow {
    init(source: String) { self.source = source }
}
