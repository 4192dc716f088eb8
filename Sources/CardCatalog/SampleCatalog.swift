import Foundation

/// The built-in sample catalog: ~70 real printings typed in by hand (`Fixtures/catalog/`), used when
/// no catalog has been imported so that every command works out of the box.
///
/// The JSON lives in the source tree (found from this file's `#filePath`, or `$CARDSCAN_SAMPLE_CATALOG`
/// pointing at the cards file); the SQLite form is built lazily into a cache file keyed by the JSON
/// files' size and modification time.
public enum SampleCatalog {
    /// The sample cards file (Scryfall format). `$CARDSCAN_SAMPLE_CATALOG` overrides it.
    public static func cardsFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["CARDSCAN_SAMPLE_CATALOG"], !path.isEmpty { return URL(fileURLWithPath: path) }
        // <root>/Sources/CardCatalog/SampleCatalog.swift → <root>/Fixtures/catalog/sample-cards.json
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/catalog/sample-cards.json")
    }

    /// The sample sets file (a Scryfall `/sets` list) beside the cards file, when present.
    public static func setsFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let url = cardsFile(environment: environment).deletingLastPathComponent().appendingPathComponent("sample-sets.json")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Opens the sample catalog, building its SQLite cache first when missing or stale.
    /// `cacheDirectory` defaults to `$TMPDIR/cardscan-cache`.
    public static func open(cacheDirectory: URL? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CardCatalog {
        let cards = cardsFile(environment: environment)
        let files = [cards] + (setsFile(environment: environment).map { [$0] } ?? [])
        var key = "v\(CatalogSchema.version)"
        for file in files {
            guard let attrs = try? FileManager.default.attributesOfItem(atPath: file.path) else {
                throw CatalogError.unreadable(path: file.path, reason: "sample catalog not found (set CARDSCAN_SAMPLE_CATALOG)")
            }
            let size = (attrs[.size] as? NSNumber)?.intValue ?? 0
            let mtime = Int(((attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) * 1000)
            key += "-\(size)-\(mtime)"
        }
        let directory = cacheDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-cache")
        let db = directory.appendingPathComponent("sample-catalog-\(key).sqlite")
        if !FileManager.default.fileExists(atPath: db.path) {
            try CatalogImporter(catalogURL: db).importFiles(files.map(\.path), replacing: true)
        }
        return try CardCatalog(url: db, isSample: true)
    }
}

extension CardCatalog {
    /// Opens the catalog at `url`, or the built-in sample catalog when `url` does not exist, calling
    /// `notice` with a one-line explanation in that case (commands print it on stderr).
    public static func openOrSample(url: URL, notice: (String) -> Void) throws -> CardCatalog {
        if FileManager.default.fileExists(atPath: url.path) {
            CatalogImporter.removeAbandonedCopies(beside: url)
            return try CardCatalog(url: url)
        }
        let sample = try SampleCatalog.open()
        let count = (try? sample.info().printings) ?? 0
        notice("cardscan: no catalog imported; using the built-in sample catalog (\(count) cards). Run `cardscan catalog update` or `catalog import`.")
        return sample
    }
}
