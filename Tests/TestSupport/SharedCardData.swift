import CardCatalog
import Foundation

/// `../shared` beside the project, and one catalog imported from both of its card-data files,
/// built once per test run and shared by every test target that needs real card data (importing
/// them takes a while in a debug build).
public enum SharedCardData {
    /// The read-only shared data folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    /// Scryfall's 2019 bulk file.
    public static let scryfall2019 = root.appendingPathComponent("carddata/scryfall-2019/cards.json.gz").path
    /// MTGJSON's AllPrintings-shaped file.
    public static let mtgjsonAll = root.appendingPathComponent("carddata/mtgjson-2022/AllPrintings-slim.json.gz").path

    /// One of MTGJSON 2022's per-set files (`3ED`): it keeps the text printed on old cards.
    public static func setFile(_ code: String) -> String {
        root.appendingPathComponent("carddata/mtgjson-2022/sets/\(code).json").path
    }

    /// Every shared MTGJSON set file (they keep the text printed on old cards and translations).
    public static func setFiles() throws -> [String] {
        let folder = root.appendingPathComponent("carddata/mtgjson-2022/sets")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    /// `files` imported into a fresh catalog in the temporary directory, handed to `body`; the
    /// catalog's files are removed after.
    public static func withCatalog<T>(of files: [String], _ body: (CardCatalog) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-tests-\(UUID().uuidString.prefix(8)).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        try CatalogImporter(catalogURL: url).importFiles(files, replacing: true)
        return try body(try CardCatalog(url: url))
    }

    /// Where `catalog` is (for a test that hands it to the binary).
    public static let catalogURL = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-tests-shared-catalog.sqlite")
    /// Both files imported, in that order, into a fresh catalog in the temporary directory.
    public static let catalog: Result<(catalog: CardCatalog, report: ImportReport), Error> = Result {
        let url = catalogURL // rebuilt each run
        let report = try CatalogImporter(catalogURL: url).importFiles([scryfall2019, mtgjsonAll], replacing: true)
        return (try CardCatalog(url: url), report)
    }
}
