import CardCatalog
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

extension CatalogBenchmark {
    /// A printing's text box as a photo shows it: the type line, then the rules and flavor text
    /// wrapped at `width` characters, at most `lines` lines, each line with one or two OCR-like
    /// errors from `damage` (nil keeps the text clean).
    public static func textBox(of printing: Printing, lines: Int = 10, width: Int = 38,
                               damage: inout OCRDamage?) -> [String] {
        var out: [String] = printing.typeLine.map { [$0] } ?? []
        for paragraph in [printing.oracleText, printing.flavorText].compactMap({ $0 }).flatMap({ $0.components(separatedBy: "\n") }) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    out.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            if !line.isEmpty { out.append(line) }
        }
        out = Array(out.prefix(lines))
        if var generator = damage {
            out = out.map { generator.damage($0) }
            damage = generator
        }
        return out
    }

    /// Result of `measureTextLookups`.
    public struct TextLookupMeasurement: Sendable {
        /// Text boxes searched.
        public var queries: Int
        /// Median, 90th percentile and worst milliseconds per `CardCatalog.searchText` (the first
        /// search, which loads the vocabulary, is timed apart).
        public var medianMilliseconds: Double
        public var p90Milliseconds: Double
        public var maxMilliseconds: Double
        /// The first search, vocabulary loading included.
        public var firstMilliseconds: Double
        /// Share of queries whose best-scored printing is the card the text came from (same oracle id).
        public var cardFirstRate: Double
        /// Share of queries whose printing, or a reprint with the same flavor text and artist (which
        /// its text cannot tell apart), is among the best-scored.
        public var printingAmongBestRate: Double
        /// Printings in the catalog.
        public var printings: Int
    }

    /// Times `searchText` on damaged `lines`-line text boxes of `count` printings picked with a
    /// fixed seed among those with rules text (English, paper) filling at least four lines.
    public static func measureTextLookups(catalog: CardCatalog, count: Int = 200, lines: Int = 10,
                                          seed: UInt64 = 21) throws -> TextLookupMeasurement {
        // A text box a reader would turn to: at least four lines (a basic land's or a one-line
        // spell's text names many cards alike, and its title decides).
        var clean: OCRDamage? = nil
        let pool = try catalog.printingsWithText().filter { textBox(of: $0, lines: lines, damage: &clean).count >= 4 }
        var picker = OCRDamage(seed: seed)
        var damage: OCRDamage? = OCRDamage(seed: seed &+ 1)
        var times: [Double] = []
        var first = 0.0
        var cardFirst = 0
        var printingAmongBest = 0
        // Time the vocabulary load apart.
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try catalog.searchText("flying")
        first = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        for _ in 0..<min(count, pool.count) {
            let printing = pool[Int(picker.next() % UInt64(pool.count))]
            let box = textBox(of: printing, lines: lines, damage: &damage).joined(separator: "\n")
            let t = DispatchTime.now().uptimeNanoseconds
            let result = try catalog.searchText(box)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6)
            guard let best = result.matches.first else { continue }
            if best.printing.oracleID == printing.oracleID { cardFirst += 1 }
            // The printing, or one its texts cannot be told from (same card, flavor text and artist), scores best.
            if result.matches.contains(where: {
                $0.score == best.score && $0.printing.oracleID == printing.oracleID
                    && $0.printing.flavorText == printing.flavorText && $0.printing.artist == printing.artist
            }) { printingAmongBest += 1 }
        }
        times.sort()
        let n = Double(max(times.count, 1))
        return TextLookupMeasurement(
            queries: times.count, medianMilliseconds: times.isEmpty ? 0 : times[times.count / 2],
            p90Milliseconds: times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * 0.9))],
            maxMilliseconds: times.last ?? 0, firstMilliseconds: first,
            cardFirstRate: Double(cardFirst) / n, printingAmongBestRate: Double(printingAmongBest) / n,
            printings: try catalog.info().printings)
    }
}
