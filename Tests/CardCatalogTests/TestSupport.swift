import Foundation
@testable import CardCatalog

/// Paths and shared state for the catalog tests.
enum TestPaths {
    /// The package root (Tests/CardCatalogTests/TestSupport.swift → ../..).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The read-only shared data folder beside the project.
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static let scryfall2019 = shared.appendingPathComponent("carddata/scryfall-2019/cards.json.gz").path
    static let mtgjsonAll = shared.appendingPathComponent("carddata/mtgjson-2022/AllPrintings-slim.json.gz").path
    static func mtgjsonSet(_ code: String) -> String {
        shared.appendingPathComponent("carddata/mtgjson-2022/sets/\(code).json").path
    }
    static let fixtures = packageRoot.appendingPathComponent("Fixtures/catalog")
    static let sampleCards = fixtures.appendingPathComponent("sample-cards.json").path
    static let sampleSets = fixtures.appendingPathComponent("sample-sets.json").path

    /// A fresh temporary folder, removed by the caller with `cleanup`.
    static func tempDirectory(_ label: String = #function) -> URL {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardscan-catalog-tests-\(getpid())-\(safe)-\(UUID().uuidString.prefix(6))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Both shared card files imported once into one catalog, shared by every test that needs real data
/// (importing them in a debug build takes a while).
struct SharedCatalog: Sendable {
    let catalog: CardCatalog
    let report: ImportReport

    static let loaded: Result<SharedCatalog, Error> = Result {
        let directory = TestPaths.tempDirectory("shared")
        let url = directory.appendingPathComponent("catalog.sqlite")
        let report = try CatalogImporter(catalogURL: url).importFiles([TestPaths.scryfall2019, TestPaths.mtgjsonAll])
        return SharedCatalog(catalog: try CardCatalog(url: url), report: report)
    }

    static func get() throws -> SharedCatalog { try loaded.get() }
}

/// Writes `text` to a file in `directory` and returns its path.
func writeFile(_ directory: URL, _ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}
