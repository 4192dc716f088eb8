import Foundation
import GRDB
import TestSupport
import Testing

@testable import CardCatalog

/// Objects that are not Magic cards (a box's inserts: player bios, decklists, ads; Art Series cards)
/// stay in the catalog for exact lookups but no name or text search returns them.
@Suite("Non-game objects")
struct NonGamePieceTests {
    static func card(_ n: Int, _ name: String, set: String = "tst", number: String? = nil, layout: String = "normal",
                     type: String, text: String? = nil, flavor: String? = nil, faces: [String]? = nil) -> String {
        var fields: [String: Any] = [
            "object": "card", "id": String(format: "00000000-0000-4000-8000-%012d", n), "name": name, "lang": "en",
            "set": set, "collector_number": number ?? String(n), "layout": layout, "type_line": type,
        ]
        if let text { fields["oracle_text"] = text }
        if let flavor { fields["flavor_text"] = flavor }
        if let faces { fields["card_faces"] = faces.map { ["name": $0, "type_line": "Card"] } }
        return String(decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    static let records = [
        card(1, "Goblin Piker", type: "Creature — Goblin", text: "Goblin Piker can't block.",
             flavor: "Once he'd worked out which end of the thing was sharp, he was promoted to guard duty."),
        card(2, "Goblin", set: "ttst", layout: "token", type: "Token Creature — Goblin"),
        card(3, "Mirror Sage Emblem", set: "ttst", layout: "emblem", type: "Emblem — Sage",
             text: "Whenever you draw a card, scry 1."),
        // A World Championship deck's player bio and decklist: Scryfall's bare `Card` type line.
        card(4, "Ada Quillfeather Bio (1999)", set: "wc99", number: "aq0a", layout: "token", type: "Card",
             flavor: "Ada Quillfeather won the national championship with a deck of seventeen islands."),
        card(5, "Ada Quillfeather Decklist (1999)", set: "wc99", number: "aq0b", layout: "normal", type: "Card"),
        // An Art Series card: two faces, both `Card`.
        card(6, "Goblin Piker // Goblin Piker", set: "atst", layout: "art_series", type: "Card // Card",
             faces: ["Goblin Piker", "Goblin Piker"]),
    ]

    func importSample(_ dir: URL, _ records: [String] = Self.records) throws -> (URL, ImportReport) {
        let url = dir.appendingPathComponent("catalog.sqlite")
        let path = try writeFile(dir, "cards.json", "[\(records.joined(separator: ","))]")
        return (url, try CatalogImporter(catalogURL: url).importFiles([path]))
    }

    @Test("bios, decklists and Art Series cards are kept but found by no name or text search; tokens and emblems are")
    func leftOutOfSearch() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, report) = try importSample(dir)
        #expect(report.totalPrintings == 6)
        #expect(report.nonGamePieces == 3)
        let catalog = try CardCatalog(url: url)

        // No name search returns them, even asked for by their own name.
        for query in ["Ada Quillfeather Bio (1999)", "Ada Quillfeather", "Decklist", "qqqq zzzz"] {
            let found = catalog.searchNames(query, limit: 10, minimumScore: 0)
            #expect(!found.contains { $0.name.contains("Quillfeather") }, "\(query): \(found.map(\.name))")
        }
        #expect(!catalog.searchNames("Goblin Piker", minimumScore: 0).contains { $0.name.contains("//") },
                "the Art Series card is not a second Goblin Piker")
        #expect(catalog.cardNames == ["Goblin", "Goblin Piker", "Mirror Sage Emblem"])
        // Tokens and emblems are game pieces.
        #expect(catalog.searchNames("Goblin").first?.name == "Goblin")
        #expect(catalog.searchNames("Mirror Sage Emblem").first?.score == 1)

        // No text search returns them. (Every word counts: in a catalog this small each is on a
        // large share of the printings.)
        let bioWords = try catalog.searchText("Quillfeather national championship seventeen islands", maxWordShare: 1)
        #expect(bioWords.matches.isEmpty, "\(bioWords.matches.map(\.printing.name))")
        #expect(try catalog.searchText("Whenever you draw a card, scry", maxWordShare: 1).matches.first?.printing.name == "Mirror Sage Emblem")

        // They stay in the catalog: by set and number, by id, by exact name.
        let bio = try #require(try catalog.printings(set: "wc99", number: "aq0a").first)
        #expect(bio.name == "Ada Quillfeather Bio (1999)")
        #expect(!bio.isGamePiece)
        #expect(try catalog.printing(id: bio.id)?.name == bio.name)
        #expect(try catalog.printings(named: "Ada Quillfeather Decklist (1999)").count == 1)
        #expect(try catalog.printings(set: "atst", number: "6").first?.isGamePiece == false)
    }

    @Test("a catalog built before still opens; its next import leaves the non-game objects out of search")
    func existingCatalog() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (url, _) = try importSample(dir)
        // As an earlier cardscan wrote it: the bio among the searchable names.
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO search_name(text, card_name, kind, lang, printings)
                VALUES ('Ada Quillfeather Bio (1999)', 'Ada Quillfeather Bio (1999)', 0, 'en', 1)
                """)
        }
        try queue.close()
        let before = try CardCatalog(url: url)
        #expect(before.searchNames("Ada Quillfeather Bio").first?.name == "Ada Quillfeather Bio (1999)")
        #expect(try CatalogImporter.isCurrentCatalog(url), "merged into, not rebuilt")

        // Any later import (here one more card) rebuilds the searchable names from every printing.
        let more = try writeFile(dir, "more.json", "[\(Self.card(7, "Goblin Guide", type: "Creature — Goblin Scout"))]")
        let report = try CatalogImporter(catalogURL: url).importFiles([more])
        #expect(!report.rebuiltUnmergeableCatalog)
        #expect(report.totalPrintings == 7)
        let after = try CardCatalog(url: url)
        #expect(!after.searchNames("Ada Quillfeather Bio").contains { $0.name.contains("Quillfeather") })
        #expect(try after.printings(set: "wc99", number: "aq0a").count == 1)
    }

    @Test("what counts as a game piece", arguments: [
        ("Card", "token", false), ("Card // Card", "double_faced_token", false), ("Card // Card", "art_series", false),
        ("Creature — Goblin", "art_series", false),
        ("Token Creature — Goblin", "token", true), ("Emblem — Sage", "emblem", true), ("Plane — Dominaria", "planar", true),
        ("Card // Token Creature — Elemental", "double_faced_token", true), ("Creature Card", "normal", true),
    ])
    func rule(_ typeLine: String, _ layout: String, _ expected: Bool) {
        #expect(Printing.isGamePiece(typeLine: typeLine, layout: layout) == expected)
    }

    @Test("the shared Scryfall file's bios, decklists and ads are out of name search", .tags(.sharedData), .needsSharedData)
    func sharedBios() throws {
        let shared = try SharedCatalog.get()
        #expect(shared.report.nonGamePieces >= 70, "\(shared.report.nonGamePieces)")
        let found = shared.catalog.searchNames("Jakub Slemr Bio", limit: 10, minimumScore: 0)
        #expect(!found.contains { $0.name.hasSuffix(" Bio") || $0.name.contains(" Bio (") || $0.name.contains("Decklist") },
                "\(found.map(\.name))")
    }
}
