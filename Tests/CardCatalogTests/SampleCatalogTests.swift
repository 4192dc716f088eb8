import Foundation
import GRDB
import TestSupport
import Testing

@testable import CardCatalog

/// The built-in sample catalog and lookups on it.
@Suite("Sample catalog")
struct SampleCatalogTests {
    static let sample: Result<CardCatalog, Error> = Result {
        let dir = TestPaths.tempDirectory("sample")
        return try SampleCatalog.open(cacheDirectory: dir)
    }

    @Test("Holds the printings the synthetic fixtures show")
    func required() throws {
        let catalog = try Self.sample.get()
        #expect(catalog.isSample)
        let expected: [(String, String, String, String)] = [
            ("bfz", "171", "Broodhunter Wurm", "common"), ("xln", "179", "Carnage Tyrant", "mythic"),
            ("dtk", "57", "Gurmag Drowner", "common"), ("dmu", "107", "Sheoldred, the Apocalypse", "mythic"),
            ("ltr", "246", "The One Ring", "mythic"), ("mh2", "267", "Counterspell", "uncommon"),
        ]
        for (set, number, name, rarity) in expected {
            let found = try catalog.printings(set: set, number: number)
            #expect(found.map(\.name) == [name], "\(set) \(number)")
            #expect(found.first?.rarity == rarity)
        }
        #expect(catalog.set(code: "bfz")?.printedSize == 274)
        #expect(catalog.set(code: "xln")?.printedSize == 279)
        #expect(catalog.set(code: "dtk")?.printedSize == 264)
    }

    @Test("a rarity letter as printed fits Scryfall's rarity: `L` a basic land, recorded as common")
    func rarityLetters() {
        let forest = Printing(id: "f", name: "Forest", setCode: "ori", collectorNumber: "269", rarity: "common", typeLine: "Basic Land — Forest")
        let bear = Printing(id: "b", name: "Grizzly Bears", setCode: "m10", collectorNumber: "186", rarity: "common", typeLine: "Creature — Bear")
        let unknown = Printing(id: "u", name: "Grizzly Bears", setCode: "lea", collectorNumber: "196")
        #expect(forest.fitsRarityLetter("L") && forest.fitsRarityLetter("C") && !forest.fitsRarityLetter("U"))
        #expect(bear.fitsRarityLetter("C") && bear.fitsRarityLetter("c") && !bear.fitsRarityLetter("L") && !bear.fitsRarityLetter("R"))
        #expect(unknown.fitsRarityLetter("M"), "an unknown rarity rules nothing out")
    }

    @Test("Ambiguity: several Counterspells, several Forests in one set")
    func ambiguity() throws {
        let catalog = try Self.sample.get()
        #expect(try Set(catalog.printings(named: "Counterspell").map(\.setCode)).isSuperset(of: ["lea", "2ed", "7ed", "mh2"]))
        let forests = try catalog.printings(inSet: "ori").filter { $0.name == "Forest" }
        #expect(forests.map(\.collectorNumber) == ["269", "270", "271", "272"])
    }

    @Test("Every labelled single-photo card with a set and number is in the sample")
    func labelledPhotos() throws {
        let catalog = try Self.sample.get()
        let labels = try String(contentsOf: TestPaths.shared.appendingPathComponent("photos/labels.csv"), encoding: .utf8)
        var checked = 0
        for line in labels.split(whereSeparator: \.isNewline).dropFirst() where line.contains(",photo_single,") {
            let fields = csvCells(String(line))
            let (name, set, number) = (fields[1], fields[2], fields[3])
            guard !set.isEmpty, !number.isEmpty else { continue }
            #expect(try catalog.printings(set: set, number: number).map(\.name) == [name], "\(name) \(set) \(number)")
            checked += 1
        }
        #expect(checked >= 25)
    }

    @Test("Multi-face and printed names, set-code repair")
    func names() throws {
        let catalog = try Self.sample.get()
        #expect(catalog.searchNames("Portrait of Michiko").first?.name == "Michiko's Reign of Truth // Portrait of Michiko")
        #expect(catalog.searchNames("稲妻").first?.name == "Lightning Bolt")
        #expect(catalog.searchNames("Broodhunter VVurrn").first?.name == "Broodhunter Wurm")
        #expect(catalog.searchNames("Broodh").first?.name == "Broodhunter Wurm")
        #expect(catalog.nearestSetCodes("BF2", printedSize: 274).first?.code == "bfz")
        #expect(catalog.nearestSetCodes("8FZ", printedSize: 274).first?.code == "bfz")
        #expect(try catalog.printings(set: "m10", number: "146", language: "ja").first?.printedName == "稲妻")
        #expect(try catalog.printings(set: "m10", number: "146", language: nil).first?.language == "en")
    }

    @Test("The sample JSON is a Scryfall-format array whose ids follow the documented derivation")
    func format() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCards))
        let cards = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(cards.count >= 60)
        let keys: Set<String> = ["id", "oracle_id", "name", "lang", "set", "collector_number", "rarity", "layout"]
        for card in cards { #expect(keys.isSubset(of: card.keys)) }
    }
}

@Suite("Catalog schema versions")
struct CatalogSchemaVersionTests {
    /// The sample imported into a fresh file, then edited as an older or newer cardscan left it.
    func catalog(_ label: String = #function, edit: (Database) throws -> Void) throws -> URL {
        let url = TestPaths.tempDirectory(label).appendingPathComponent("catalog.sqlite")
        _ = try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards, TestPaths.sampleSets])
        let queue = try DatabaseQueue(path: url.path)
        try queue.write(edit)
        try queue.close()
        return url
    }

    /// Catalogs older cardscans built: the printing columns their schema lacks.
    enum OlderSchema: Int, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Before digital-only flags and border colours.
        case one = 1
        /// Before border colours.
        case two = 2
        var missingColumns: [String] { self == .one ? ["paper", "border_color"] : ["border_color"] }
        var testDescription: String { "version \(rawValue)" }
    }

    @Test("an older catalog still opens, what its schema lacks reads as unknown, and the next import rebuilds it",
          arguments: OlderSchema.allCases)
    func older(_ schema: OlderSchema) throws {
        let url = try catalog("older-\(schema.rawValue)") { db in
            for column in schema.missingColumns { try db.execute(sql: "ALTER TABLE printing DROP COLUMN \(column)") }
            try db.execute(sql: "UPDATE catalog_meta SET value = '\(schema.rawValue)' WHERE key = 'schema_version'")
        }
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let catalog = try CardCatalog(url: url)
        let marchesa = try catalog.printings(named: "Queen Marchesa")
        #expect(marchesa.count == 2)
        #expect(marchesa.allSatisfy { $0.borderColor == nil })
        #expect(marchesa.allSatisfy { ($0.isPaper == nil) == (schema == .one) })
        // `catalog info` says to import again for what is not recorded.
        let info = try catalog.info()
        #expect(info.whiteBordered == nil)
        #expect((info.digitalOnly == nil) == (schema == .one))
        #expect(try !CatalogImporter.isCurrentCatalog(url)) // the next import rebuilds it
        // ...and says so: the earlier sources are gone from it.
        let rebuilt = try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards])
        #expect(rebuilt.rebuiltUnmergeableCatalog)
        #expect(try !CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleSets]).rebuiltUnmergeableCatalog)
    }

    @Test("a current catalog has each printing's border colour (the sample writes Scryfall's `border_color`)")
    func borders() throws {
        let bordered = try SampleCatalog.open().printings(named: "Counterspell").map { ($0.setCode, $0.borderColor) }
        #expect(Dictionary(uniqueKeysWithValues: bordered) == ["lea": .black, "2ed": .white, "7ed": .white, "mh2": .black])
    }

    @Test("a catalog from a newer cardscan is refused with a clear reason")
    func newer() throws {
        let url = try catalog { db in
            try db.execute(sql: "UPDATE catalog_meta SET value = '99' WHERE key = 'schema_version'")
        }
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(throws: CatalogError.self) { try CardCatalog(url: url) }
    }
}
