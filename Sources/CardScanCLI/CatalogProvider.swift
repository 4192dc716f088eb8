import CardCatalog
import Foundation

/// Opens the catalog the user imported, or the built-in sample catalog when there is none.
enum CatalogProvider {
    /// The sample catalog's source records, shipped in the repository.
    static var sampleJSON: URL {
        if let path = ProcessInfo.processInfo.environment["CARDSCAN_SAMPLE_CATALOG"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("Fixtures/catalog/sample-cards.json")
    }

    /// Opens the catalog at `global.catalogURL`, else builds (once) and opens the sample catalog,
    /// saying so on stderr.
    static func open(_ global: GlobalOptions) throws -> CardCatalog {
        let url = global.catalogURL
        if FileManager.default.fileExists(atPath: url.path) { return try CardCatalog(url: url) }
        if global.catalog != nil { throw CLIError("\(url.path): no such catalog file (import one with `cardscan catalog import`)") }
        let json = sampleJSON
        guard FileManager.default.fileExists(atPath: json.path) else {
            throw CLIError("no catalog imported and the sample catalog \(json.path) is missing; run `cardscan catalog update`")
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-sample-\(getuid())-\(Self.stamp(json)).sqlite")
        if !FileManager.default.fileExists(atPath: cache.path) {
            _ = try CatalogImporter(catalogURL: cache).importFiles([json.path], replacing: true)
        }
        let catalog = try CardCatalog(url: cache, isSample: true)
        Terminal.note("cardscan: no catalog imported; using the built-in sample catalog (\(json.lastPathComponent)). Run `cardscan catalog update` or `cardscan catalog import FILE` for all cards.")
        return catalog
    }

    private static func stamp(_ url: URL) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        let date = Int((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        return "\(size)-\(date)"
    }
}
