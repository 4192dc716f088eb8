import CardCatalog
import CardCatalogBench
import CardScanTerminal
import Foundation

// The catalog the matcher uses during the run (not the import measurements in `CatalogImport.swift`,
// which run in child processes). Chosen by `cardscan-bench`:
// - `--catalog PATH`: an existing catalog, opened read-only;
// - `--catalog-json FILE` (repeatable): these Scryfall/MTGJSON files, imported into a temporary catalog
//   (the fixtures run passes the sample catalog `Fixtures/catalog/sample-cards.json`);
// - default: both shared bulk files under the card-data folder that exist, then its MTGJSON per-set
//   files (they carry the printed wording of old cards), imported in one call into
//   a temporary catalog;
// - `--no-matcher`: no catalog, the title-only stand-in.
// The build happens once per run, before the reader passes, and is timed; the temporary file is
// removed when the run ends.

/// Where the matcher's catalog comes from.
public enum MatcherCatalogSource: Sendable, Equatable {
    /// No matcher: the title-only stand-in.
    case none
    /// Open an existing catalog file.
    case existing(path: String)
    /// Import these files (in one `importFiles` call) into a temporary catalog.
    case files([String])
    /// Import the shared bulk files found under this card-data folder into a temporary catalog.
    case sharedBulk(folder: String)

    /// The shared bulk files, in import order (relative to the card-data folder).
    public static let sharedSources = ["scryfall-2019/cards.json.gz", "mtgjson-2022/AllPrintings-slim.json.gz"]
    /// The shared MTGJSON per-set files (relative to the card-data folder), imported after the bulk
    /// files: they carry `originalText`, the wording printed on old cards, which the slim
    /// AllPrintings file lacks and a user's full AllPrintings has.
    public static let sharedSetFolder = "mtgjson-2022/sets"
}

/// The matcher catalog of this run, as reported.
public struct MatcherCatalogSection: Sendable, Codable {
    /// `existing`, `built`, or `none`.
    public var mode: String
    /// Catalog file (the temporary file for a built catalog; removed after the run).
    public var path: String?
    /// Files imported (built catalogs).
    public var files: [String]
    /// Import time (one `importFiles` call over all files), s.
    public var importSeconds: Double?
    /// Time to open the catalog (loads the name index), ms.
    public var openMs: Double?
    /// Printings, sets and searchable names in the catalog.
    public var printings: Int?
    public var sets: Int?
    public var names: Int?
    /// Records read per file (built catalogs).
    public var recordsPerFile: [String: Int]?
    /// Database size, bytes.
    public var databaseBytes: Int?
    /// Why there is no matcher (or what went wrong).
    public var status: String?
    /// Full-text lookups (`CardCatalog.searchText`) of damaged text boxes in this catalog.
    public var textLookup: TextLookupFigures?
}

/// `CatalogBenchmark.measureTextLookups` on the matcher catalog.
public struct TextLookupFigures: Sendable, Codable {
    /// Text boxes searched (10 lines each, every line with one or two OCR-like errors).
    public var queries: Int
    public var lines: Int
    /// Milliseconds per search: median, 90th percentile, worst; and the first search (loads the vocabulary).
    public var medianMs: Double
    public var p90Ms: Double
    public var maxMs: Double
    public var firstMs: Double
    /// Share of searches whose best printing is the right card, and whose printing ties for best.
    public var cardFirstRate: Double
    public var printingAmongBestRate: Double
    /// Why it was not measured.
    public var status: String?

    static func unmeasured(lines: Int, _ why: String) -> TextLookupFigures {
        TextLookupFigures(queries: 0, lines: lines, medianMs: 0, p90Ms: 0, maxMs: 0, firstMs: 0, cardFirstRate: 0,
                          printingAmongBestRate: 0, status: why)
    }
}

/// Builds or opens the matcher catalog.
enum MatcherCatalog {
    /// The catalog (nil: stand-in), its section, and a clean-up to call when the run ends.
    static func prepare(_ source: MatcherCatalogSource) throws -> (catalog: CardCatalog?, section: MatcherCatalogSection, cleanUp: () -> Void) {
        var files: [String]
        switch source {
        case .none:
            return (nil, MatcherCatalogSection(mode: "none", files: [], status: "title-only stand-in (--no-matcher)"), {})
        case .existing(let path):
            let url = URL(fileURLWithPath: path)
            let t0 = BenchClock.nanos
            let catalog = try CardCatalog(url: url)
            var section = MatcherCatalogSection(mode: "existing", path: path, files: [], openMs: BenchClock.ms(t0, BenchClock.nanos))
            fill(&section, catalog, url)
            StandardError.line("catalog: opened \(path) (\(section.printings ?? 0) printings) in \(MarkdownReport.ms(section.openMs ?? 0))")
            return (catalog, section, {})
        case .files(let list):
            files = list
        case .sharedBulk(let folder):
            files = MatcherCatalogSource.sharedSources.map { (folder as NSString).appendingPathComponent($0) }
                .filter { FileManager.default.fileExists(atPath: $0) }
            let sets = (folder as NSString).appendingPathComponent(MatcherCatalogSource.sharedSetFolder)
            files += ((try? FileManager.default.contentsOfDirectory(atPath: sets)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
                .map { (sets as NSString).appendingPathComponent($0) }
            guard !files.isEmpty else {
                return (nil, MatcherCatalogSection(mode: "none", files: [],
                                                   status: "no shared bulk files under \(folder): title-only stand-in"), {})
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-bench-matcher-\(getpid()).sqlite")
        let cleanUp = {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        cleanUp()
        StandardError.line("catalog: importing \(files.joined(separator: " + ")) into \(url.path) for the matcher …")
        do {
            let t0 = BenchClock.nanos
            let report = try CatalogImporter(catalogURL: url).importFiles(files, replacing: true)
            let importSeconds = BenchClock.ms(t0, BenchClock.nanos) / 1000
            let t1 = BenchClock.nanos
            let catalog = try CardCatalog(url: url)
            var section = MatcherCatalogSection(mode: "built", path: url.path, files: files, importSeconds: importSeconds,
                                                openMs: BenchClock.ms(t1, BenchClock.nanos))
            section.recordsPerFile = Dictionary(report.sources.map { ($0.path, $0.records) }, uniquingKeysWith: +)
            fill(&section, catalog, url)
            StandardError.line("catalog: \(section.printings ?? 0) printings, \(section.sets ?? 0) sets in \(String(format: "%.1f", importSeconds)) s")
            return (catalog, section, cleanUp)
        } catch {
            cleanUp()
            throw error
        }
    }

    private static func fill(_ section: inout MatcherCatalogSection, _ catalog: CardCatalog, _ url: URL) {
        if let info = try? catalog.info() {
            section.printings = info.printings
        }
        section.sets = catalog.sets.count
        section.names = catalog.nameCount
        section.databaseBytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        section.textLookup = textLookup(catalog)
    }

    /// Times full-text lookups of 10-line damaged text boxes (seeded, 200 printings with rules text).
    static func textLookup(_ catalog: CardCatalog) -> TextLookupFigures {
        let lines = 10
        guard catalog.hasTextIndex else {
            return .unmeasured(lines: lines, "catalog built before card texts were kept")
        }
        do {
            let m = try CatalogBenchmark.measureTextLookups(catalog: catalog, count: 200, lines: lines)
            StandardError.line("catalog: text lookup of \(m.queries) \(lines)-line boxes, median \(String(format: "%.1f", m.medianMilliseconds)) ms")
            return TextLookupFigures(queries: m.queries, lines: lines, medianMs: m.medianMilliseconds, p90Ms: m.p90Milliseconds,
                                     maxMs: m.maxMilliseconds, firstMs: m.firstMilliseconds, cardFirstRate: m.cardFirstRate,
                                     printingAmongBestRate: m.printingAmongBestRate,
                                     status: m.queries == 0 ? "no printing with rules text" : nil)
        } catch {
            return .unmeasured(lines: lines, "\(error)")
        }
    }
}
