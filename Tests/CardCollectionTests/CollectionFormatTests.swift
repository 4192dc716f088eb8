import CardCatalog
import Foundation
import GRDB
import Testing
@testable import CardCollection

@Suite("Collection files: Moxfield, ManaBox, Deckbox, Archidekt, JSON")
struct CollectionFormatTests {
    /// Rows exercising every finish, condition, several languages, tags, commas and quotes.
    static var holdings: [Holding] {
        let day = Date(timeIntervalSince1970: 1_700_000_000.123)
        return [
            Holding(scryfallID: "02461278-0f39-5476-a835-fce8d24ea979", name: "Broodhunter Wurm", setCode: "bfz", collectorNumber: "171",
                    language: "en", rarity: "common", quantity: 3, finish: .nonfoil, condition: .nm, pool: "", tags: ["trade", "green"], addedAt: day),
            Holding(scryfallID: "af303993-07e6-5de4-b610-f0c61a8ba841", name: "Carnage Tyrant", setCode: "xln", collectorNumber: "179",
                    language: "ja", rarity: "mythic", quantity: 1, finish: .foil, condition: .lp, pool: "", tags: [], addedAt: day.addingTimeInterval(86_400.5),
                    purchasePrice: "12.50"),
            Holding(scryfallID: "b1b0a3b7-0000-4000-8000-000000000001", name: "Sheoldred, the Apocalypse", setCode: "dmu", collectorNumber: "107",
                    language: "de", rarity: "mythic", quantity: 2, finish: .etched, condition: .mp, pool: "", tags: ["\"deck\" one"], addedAt: day),
            Holding(scryfallID: "29a6f1b5-2fd8-5435-aed1-e01961c93dce", name: "Gurmag Drowner", setCode: "dtk", collectorNumber: "57",
                    language: "zhs", rarity: "common", quantity: 1, finish: .nonfoil, condition: .hp, pool: "", tags: [], addedAt: day),
            Holding(scryfallID: "0c322fee-d4e9-5238-b1c4-b0e855c78f8e", name: "Counterspell", setCode: "7ed", collectorNumber: "67",
                    language: "en", rarity: "uncommon", quantity: 4, finish: .nonfoil, condition: .dmg, pool: "", tags: [], addedAt: day),
        ]
    }

    @Test("export, then import into an empty collection, gives the same rows and the same file (every format)")
    func roundTrip() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try CollectionStore(url: dir.appendingPathComponent("source.sqlite"))
        try source.importHoldings(Self.holdings, description: "fixture")
        let original = try source.holdings(pool: "")
        let catalog = Temp.sample
        for format in CollectionFormat.allCases {
            let text = try CollectionFiles.export(original, format: format, setName: { catalog?.set(code: $0)?.name })
            let report = try CollectionFiles.read(text, format: format, file: "\(format).csv")
            #expect(report.skipped.isEmpty, "\(format): \(report.skipped)")
            let target = try CollectionStore(url: dir.appendingPathComponent("target-\(format).sqlite"))
            try target.importHoldings(report.holdings, description: "round trip")
            let back = try target.holdings(pool: "")
            let again = try CollectionFiles.export(back, format: format, setName: { catalog?.set(code: $0)?.name })
            #expect(again == text, "\(format): re-export differs")
            #expect(back.map(\.name) == original.map(\.name) && back.map(\.quantity) == original.map(\.quantity), "\(format)")
        }
    }

    @Test("reading: an unterminated quote, an unquoted comma and unknown words skip only their row, by line")
    func brokenRows() throws {
        let moxfield = """
        "Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Tags","Last Modified","Collector Number","Alter","Proxy","Purchase Price"
        "1","0","Counterspell","7ed","Good (Lightly Played)","Chinese","","","2024-01-31 18:05:09.123000","67","False","True","1.50"
        "2","0","Broodhunter Wurm,bfz,Near Mint,English,,,2024-01-31 18:05:09.123000,171,False,False,
        "1","0","Carnage Tyrant","xln","Near Mint","Klingon","foil","","2024-01-31 18:05:09.123000","179","False","False",""
        "1","1","Sheoldred, the Apocalypse","dmu","Near Mint","German","etched","","2024-01-31 18:05:09.123000","107","True","False",""
        """
        let r = try CollectionFiles.read(moxfield, format: .moxfield, file: "m.csv")
        #expect(r.rows == 4 && r.taken == 2 && r.skipped.count == 2, "\(r.skipped)")
        #expect(r.skipped.map(\.line) == [3, 4])
        #expect(r.skipped[0].reason.contains("never closed") && r.skipped[1].reason.contains("unknown language \"Klingon\""), "\(r.skipped)")
        #expect(r.holdings.map(\.name) == ["Counterspell", "Sheoldred, the Apocalypse"])
        #expect(r.holdings[0].condition == .lp && r.holdings[0].language == "zhs" && r.holdings[0].details.proxy && r.holdings[0].purchasePrice == "1.50")
        #expect(r.holdings[1].finish == .etched && r.holdings[1].details.altered && r.holdings[1].details.tradeQuantity == 1)

        let deckbox = "Count,Name,Foil,Edition,Condition,Language\n1,Kruphix, God of Horizons,,jou,Near Mint,English\n2,Opt,,XLN,Excellent,English\n1,Opt,,XLN,Proxy,English"
        let d = try CollectionFiles.read(deckbox, format: .deckbox, file: "d.csv")
        #expect(d.skipped.map(\.line) == [2, 3] && d.skipped[0].reason.contains("unquoted") && d.skipped[1].reason.contains("Excellent"), "\(d.skipped)")
        #expect(d.holdings.count == 1 && d.holdings[0].details.proxy)

        let manabox = """
        Binder Name,Binder Type,Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,Purchase price currency\r
        my list,list,Opt,XLN,Ixalan,65,normal,common,1,1,,0.1,false,false,excellent,zh_TW,EUR\r
        Box,binder,Opt,XLN,Ixalan,65,surge foil,common,1,1,,0.1,false,false,mint,zh_CN,EUR
        """
        let m = try CollectionFiles.read(manabox, format: .manabox, file: "mb.csv")
        #expect(m.wanted == 1 && m.taken == 0 && m.skipped.map(\.line) == [3], "ManaBox writes no named foils: \(m.skipped)")
        #expect(m.holdings[0].details.wanted && m.holdings[0].condition == .ex && m.holdings[0].language == "zht" && m.holdings[0].details.currency == "EUR")
    }

    @Test("exports: words of each service, prices in their currency only, formula cells escaped and read back")
    func exportWords() throws {
        var rows = Self.holdings
        rows[1].details.currency = "EUR"
        rows[0].tags = ["=HYPERLINK(\"x\")"]
        rows[0].details = CardDetails(tradeQuantity: 2, proxy: true, altered: true, signed: true, binder: "Box 1")
        let mox = try CollectionFiles.export(rows, format: .moxfield)
        #expect(mox.contains("\"3\",\"2\",\"Broodhunter Wurm\",\"bfz\",\"Near Mint\",\"English\",\"\",\"'=HYPERLINK(\"\"x\"\")\""))
        #expect(mox.contains("\"Chinese\"") && mox.contains("\"Played\""), "Moxfield writes Chinese for Simplified and Played for MP")
        let deckbox = try CollectionFiles.export(rows, format: .deckbox)
        #expect(!deckbox.contains("12.50"), "a EUR price has no Deckbox column")
        #expect(deckbox.contains("Broodhunter Wurm,,BFZ,171,Proxy,English"))
        let archidekt = try CollectionFiles.export(rows, format: .archidekt)
        #expect(archidekt.contains(",Foil,LP,2023-11-15,JP,12.50,"))
        let ds = try CollectionFiles.export(rows, format: .dragonshield)
        #expect(ds.hasPrefix("\"sep=,\"\r\nFolder Name,Quantity,Trade Quantity,Card Name,") && ds.contains(",Simplified Chinese,"))
        let manabox = try CollectionFiles.export(rows, format: .manabox)
        #expect(!manabox.hasSuffix("\n") && manabox.contains(",12.50,false,false,good,ja,EUR,"), "\(manabox)")
        let back = try CollectionFiles.read(mox, format: .moxfield, file: "x.csv")
        #expect(back.holdings[0].tags == ["=HYPERLINK(\"x\")"] && back.holdings[0].details.proxy && back.holdings[0].details.tradeQuantity == 2)
        let arena = try CollectionFiles.export(rows, format: .arena)
        #expect(arena.hasPrefix("Deck\n3 Broodhunter Wurm (BFZ) 171\n"))
    }

    @Test("importing the same file twice adds nothing unless asked; undo forgets the file; wish list rows stay apart")
    func idempotentImport() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        var rows = Self.holdings
        rows[0].details.binderType = .list
        let first = try store.importFile(rows, description: "f", file: ("abc", "a.csv"))
        guard case .imported = first else { Issue.record("not imported: \(first)"); return }
        #expect(try store.importFile(rows, description: "f", file: ("abc", "b.csv")) == .alreadyImported(path: "a.csv", batch: 1))
        #expect(try store.cardCount() == 8, "the wish list row is not owned")
        #expect(try store.holdings(wanted: true).map(\.name) == ["Broodhunter Wurm"])
        guard case .imported = try store.importFile(rows, description: "f", file: ("abc", "a.csv"), again: true) else { Issue.record("again"); return }
        #expect(try store.cardCount() == 16)
        _ = try store.undoLastBatch()
        _ = try store.undoLastBatch()
        #expect(try store.cardCount() == 0 && store.holdings(wanted: true).isEmpty)
        guard case .imported = try store.importFile(rows, description: "f", file: ("abc", "a.csv")) else { Issue.record("after undo"); return }
    }

    @Test("a printing the catalog did not know at import is kept as given, then resolved once the catalog knows it")
    func unknownPrintingResolvedLater() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        let text = "Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,Purchase price currency\nBrand New,ZZZ,Future Set,7,normal,,2,,,,false,false,near_mint,en,"
        let r = try CollectionFiles.read(text, format: .manabox, file: "n.csv") { _, _, _ in nil }
        #expect(r.taken == 1 && r.notes.first?.reason == "zzz 7 is not in the catalog; kept as given")
        try store.importHoldings(r.holdings, description: "n")
        #expect(try store.resolveUnknownPrintings { _, _, _ in nil } == 0)
        let later = Printing(id: "new-id", name: "Brand New", language: "en", setCode: "zzz", collectorNumber: "7", rarity: "rare")
        #expect(try store.resolveUnknownPrintings { set, number, _ in set == "zzz" && number == "7" ? later : nil } == 1)
        let e = try store.entries()
        #expect(e.count == 1 && e[0].scryfallID == "new-id" && e[0].rarity == "rare" && e[0].quantity == 2 && e[0].details.setName == "Future Set")
    }

    @Test("a v2 collection is migrated with every row kept, and takes the new conditions and details")
    func migrationKeepsRows() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("old.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try CollectionStore.migrator.migrate(queue, upTo: "v2-lookup-indexes")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO entry (scryfall_id, name, set_code, collector_number, language, rarity, quantity, finish, condition, pool, tags, added_at)
                    VALUES ('id1', 'Opt', 'xln', '65', 'en', 'common', 3, 'foil', 'LP', '', 'a,b', 1700000000000)
                    """)
            }
        }
        let store = try CollectionStore(url: url)
        #expect(store.backupURL != nil)
        let e = try store.entries()
        #expect(e.count == 1 && e[0].quantity == 3 && e[0].condition == .lp && e[0].tags == ["a", "b"] && e[0].details == CardDetails())
        try store.add(Entry(scryfallID: "id2", name: "Opt", setCode: "xln", collectorNumber: "65", condition: .ex,
                            details: CardDetails(tradeQuantity: 1, signed: true)))
        #expect(try store.entries().map(\.condition) == [.lp, .ex])
        #expect(try store.entries()[1].details.signed)
    }

    @Test("pool summary: rarity, colour, type and curve from the catalog; unknown cards counted apart")
    func poolSummary() throws {
        let catalog = try #require(Temp.sample, "sample catalog")
        let entries = Self.holdings.map { $0.entry(batchID: nil) } + [
            Entry(scryfallID: "", name: "Homemade Card", setCode: "zzz", collectorNumber: "1", rarity: nil, quantity: 2),
        ]
        let s = PoolSummary(name: "test", entries: entries, catalog: catalog)
        #expect(s.cards == 13 && s.unknown == 2)
        #expect(s.byRarity["mythic"] == 3 && s.byRarity["common"] == 4 && s.byRarity["unknown"] == 2)
        #expect(s.byColor["Green"] == 4, "Broodhunter Wurm ×3 and Carnage Tyrant")
        #expect(s.byType["Creature"] == 7 && s.byType["Instant"] == 4)
        #expect(s.curve[6] == 1 && s.curve[2] == 4, "Carnage Tyrant at 6, Counterspell at 2")
        let text = s.text()
        #expect(text.contains("Mana curve") && text.contains("2 cards not in the catalog"))
        #expect(PoolSummary.deckList(entries, arena: true).contains("3 Broodhunter Wurm (BFZ) 171"))
        #expect(PoolSummary.deckList(entries, arena: false).contains("4 Counterspell"))
    }
}
