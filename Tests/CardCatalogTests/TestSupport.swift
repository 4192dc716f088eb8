import Foundation
import TestSupport

@testable import CardCatalog

/// Paths and shared state for the catalog tests.
enum TestPaths {
    /// The package root (Tests/CardCatalogTests/TestSupport.swift → ../..).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The read-only shared data folder beside the project.
    static let shared = SharedCardData.root
    static let scryfall2019 = SharedCardData.scryfall2019
    static let mtgjsonAll = SharedCardData.mtgjsonAll
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

/// Both shared card files imported into one catalog, once per test run (`TestSupport.SharedCardData`).
struct SharedCatalog: Sendable {
    let catalog: CardCatalog
    let report: ImportReport

    static func get() throws -> SharedCatalog {
        let (catalog, report) = try SharedCardData.catalog.get()
        return SharedCatalog(catalog: catalog, report: report)
    }
}

/// Writes `text` to a file in `directory` and returns its path.
func writeFile(_ directory: URL, _ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}
