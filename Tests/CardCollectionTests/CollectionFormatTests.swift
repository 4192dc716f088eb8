import CardCatalog
import Foundation
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

    @Test("each format writes exactly the header its app uses")
    func headers() throws {
        let expected: [CollectionFormat: String] = [
            .moxfield: "Count,Tradelist Count,Name,Edition,Condition,Language,Foil,Tags,Last Modified,Collector Number,Alter,Proxy,Purchase Price",
            .manabox: "Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,Purchase price currency",
            .deckbox: "Count,Tradelist Count,Name,Edition,Edition Code,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,Misprint,Promo,Textless,Printing Id,Printing Note,Tags,My Price,Cost,Rarity,Price,TcgPlayer ID,Scryfall ID",
            .archidekt: "Quantity,Name,Finish,Condition,Date Added,Language,Purchase Price,Tags,Edition Name,Edition Code,Multiverse Id,Scryfall ID,Collector Number",
        ]
        for (format, header) in expected {
            let text = try CollectionFiles.export(Self.holdings, format: format)
            #expect(text.split(separator: "\n").first.map(String.init) == header, "\(format)")
            #expect(text.split(separator: "\n").count == 1 + Self.holdings.count)
        }
        let mox = try CollectionFiles.export(Self.holdings, format: .moxfield)
        #expect(mox.contains("3,0,Broodhunter Wurm,bfz,Near Mint,English,,\"green,trade\",2023-11-14 22:13:20.123000,171,False,False,"))
        #expect(mox.contains("\"Sheoldred, the Apocalypse\",dmu,Moderately Played,German,etched,"))
        #expect(mox.contains("Chinese Simplified"))
        let manabox = try CollectionFiles.export(Self.holdings, format: .manabox, setName: { $0 == "xln" ? "Ixalan" : nil })
        #expect(manabox.contains("Carnage Tyrant,XLN,Ixalan,179,foil,mythic,1,,af303993-07e6-5de4-b610-f0c61a8ba841,12.50,false,false,excellent,ja,USD"))
        let archidekt = try CollectionFiles.export(Self.holdings, format: .archidekt)
        #expect(archidekt.contains("4,Counterspell,Normal,D,2023-11-14,EN,"))
        let deckbox = try CollectionFiles.export(Self.holdings, format: .deckbox)
        #expect(deckbox.contains(",Heavily Played,Simplified Chinese,"))
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
            let (parsed, problems) = try CollectionFiles.parse(text, format: format, file: "\(format).csv") { set, number, lang in
                // Moxfield has no Scryfall id column: the ids come back from the catalog, else from the source rows.
                (try? catalog?.printings(set: set, number: number, language: nil).first) ?? original.first { $0.setCode == set && $0.collectorNumber == number }
                    .map { Printing(id: $0.scryfallID, name: $0.name, language: $0.language, setCode: $0.setCode, collectorNumber: $0.collectorNumber, rarity: $0.rarity) }
            }
            #expect(problems.isEmpty, "\(format): \(problems)")
            let target = try CollectionStore(url: dir.appendingPathComponent("target-\(format).sqlite"))
            try target.importHoldings(parsed, description: "round trip")
            let back = try target.holdings(pool: "")
            let again = try CollectionFiles.export(back, format: format, setName: { catalog?.set(code: $0)?.name })
            #expect(again == text, "\(format): re-export differs")
            func essentials(_ h: Holding, dates: Bool, ids: Bool) -> String {
                [h.name, h.setCode, h.collectorNumber, h.language, String(h.quantity), h.finish.rawValue, h.condition.rawValue,
                 ids ? h.scryfallID : "", dates ? "\(Dates.milliseconds(h.addedAt))" : ""].joined(separator: "|")
            }
            let keepsDates = format == .moxfield || format == .json
            #expect(back.map { essentials($0, dates: keepsDates, ids: format != .moxfield) } == original.map { essentials($0, dates: keepsDates, ids: format != .moxfield) }, "\(format)")
            if format != .manabox { #expect(back.map(\.tags) == original.map(\.tags), "\(format) tags") }
            if format == .archidekt {
                #expect(zip(back, original).allSatisfy { Dates.day.string(from: $0.addedAt) == Dates.day.string(from: $1.addedAt) })
            }
        }
    }

    @Test("reading: app spellings of conditions and languages, bad rows reported by line, wrong format named")
    func reading() throws {
        let manabox = """
        Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,Purchase price currency
        Broodhunter Wurm,BFZ,Battle for Zendikar,171,normal,common,2,123,02461278-0f39-5476-a835-fce8d24ea979,0.1,false,false,mint,en,EUR
        Carnage Tyrant,XLN,Ixalan,179,foil,mythic,x,124,af303993,1,false,false,near_mint,en,EUR
        Gurmag Drowner,DTK,Dragons of Tarkir,57,normal,common,1,125,29a6f1b5,0,false,false,light_played,ja,EUR
        """
        let (rows, problems) = try CollectionFiles.parse(manabox, format: .manabox, file: "m.csv")
        #expect(rows.map(\.name) == ["Broodhunter Wurm", "Gurmag Drowner"])
        #expect(rows.map(\.condition) == [.nm, .mp])
        #expect(rows[1].language == "ja" && rows[0].setCode == "bfz")
        #expect(problems == ["m.csv: line 3: Carnage Tyrant: bad Quantity \"x\"; skipped"])
        #expect {
            try CollectionFiles.parse(manabox, format: .moxfield, file: "m.csv")
        } throws: { e in
            (e as? CollectionError)?.description.hasPrefix("m.csv: not a moxfield CSV (missing columns Count, Edition, Collector Number") == true
        }
        let deckbox = """
        Count,Tradelist Count,Name,Edition,Edition Code,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,Misprint,Promo,Textless,Printing Id,Printing Note,Tags,My Price,Cost,Rarity,Price,TcgPlayer ID,Scryfall ID
        1,0,Counterspell,Seventh Edition,7ED,67,Good (Lightly Played),Traditional Chinese,foil,,,,,,,,Etched,,,,Uncommon,,,
        """
        let d = try CollectionFiles.parse(deckbox, format: .deckbox, file: "d.csv", pool: "cube").holdings
        #expect(d.count == 1 && d[0].condition == .lp && d[0].language == "zht" && d[0].finish == .etched && d[0].pool == "cube")
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
