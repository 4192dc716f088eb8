import CardCatalogBench
import Foundation
import GRDB
import TestSupport
import Testing

@testable import CardCatalog

/// Issue 21, the catalog part: the texts a photo shows are kept per printing, and a few OCR'd lines
/// find their printings through the word index.
@Suite("Card texts and full-text search", .tags(.sharedData), .needsSharedData)
struct TextSearchTests {
    @Test("Scryfall's texts are kept per printing: flavor, artist, frame differ between reprints")
    func scryfallTexts() throws {
        let catalog = try SharedCatalog.get().catalog
        let byCode = Dictionary(try catalog.printings(named: "Serra Angel").map { ($0.setCode + " " + $0.collectorNumber, $0) },
                                uniquingKeysWith: { a, _ in a })
        let lea = try #require(byCode["lea 39"])
        #expect(lea.oracleText == "Flying, vigilance")
        #expect(lea.artist == "Douglas Shuler")
        #expect(lea.frame == "1993")
        #expect(lea.flavorText?.hasPrefix("Born with wings of light") == true)
        let m12 = try #require(byCode["m12 33"])
        #expect(m12.artist == "Greg Staples")
        #expect(m12.frame == "2003")
        #expect(m12.flavorText == "Follow the light. In its absence, follow her.")
    }

    @Test("lines of a real card's rules text with OCR damage find that card first")
    func damagedRulesText() throws {
        let catalog = try SharedCatalog.get().catalog
        let result = try catalog.searchText("""
            Sorcery
            Each player chooses a nurnber of lands they
            contro1 equal to the number of lands
            controlled by the p1ayer who controls the
            fewest, then sacrifices the rest. P|ayers
            discard cards and sacrifice creatures the
            """)
        let best = try #require(result.matches.first)
        #expect(best.printing.name == "Balance")
        #expect(result.corrected["nurnber"] == "number")
        #expect(best.matchedWords["sacrifices"] == [.rules])
        // Every printing sharing the best score is Balance (its reprints) or Restore Balance, whose
        // rules text is Balance's with suspend (no longer crowded out by Balance's reprints).
        #expect(Set(result.matches.filter { $0.score == best.score }.map(\.printing.name)) == ["Balance", "Restore Balance"])
        // A catalog holding no translations: bm25 alone picks the candidates (none has relevance 0).
        #expect(result.matches.allSatisfy { $0.relevance > 0 })
    }

    @Test("a name printed hundreds of times leaves room for the other names holding the same words")
    func crowdedName() throws {
        // Forest has ~700 printings, every one holding `basic land forest` in a short text that
        // bm25 ranks first: they filled all the candidate places, and Forest seemed to lead every
        // other name by its whole score, though Snow-Covered Forest's type line holds the same words.
        let catalog = try SharedCatalog.get().catalog
        let result = try catalog.searchText("Basic Land — Forest", limit: 40)
        let best = try #require(result.matches.first)
        #expect(result.matches.filter { $0.printing.name == "Forest" }.count <= CardCatalog.candidatesPerName)
        let snow = try #require(result.matches.first { $0.printing.name == "Snow-Covered Forest" })
        #expect(snow.score == best.score)
        // A name with fewer printings than the ranked rows keeps its best ones (here every Serra Angel
        // with this flavor text ranks above those without).
        let angel = try catalog.searchText("Creature — Angel\nFlying, vigilance\nHer sword sings more beautifully than any choir.", limit: 40)
        #expect(angel.matches.prefix(5).allSatisfy { $0.printing.name == "Serra Angel" && $0.matchedWords["choir"] == [.flavor] })
    }

    @Test("a line read unsurely (noise read from art or a shadow) weighs less than the card's text read surely")
    func unsureLinesWeighLess() throws {
        let catalog = try SharedCatalog.get().catalog
        let text = [("Each player chooses a number of lands they", 0.9), ("control equal to the number of lands", 0.85),
                    ("controlled by the player who controls the", 0.9), ("fewest, then sacrifices the rest.", 0.8)]
        let noise = "Tithe fen sea Glacier"
        let sure = try catalog.searchText(lines: text + [(noise, 1.0)])
        let unsure = try catalog.searchText(lines: text + [(noise, 0.2)])
        let plain = try catalog.searchText((text.map(\.0) + [noise]).joined(separator: "\n"))
        #expect(unsure.matches.first?.printing.name == "Balance")
        let balance = { (r: TextSearchResult) in r.matches.first { $0.printing.name == "Balance" }?.score ?? 0 }
        #expect(balance(unsure) > balance(sure) + 0.1, "\(balance(unsure)) \(balance(sure))")
        #expect(abs(balance(plain) - balance(sure)) < 0.05, "text without certainties is read as sure")
        let fen = try #require(unsure.words.first { $0.word == "fen" }?.weight), fenSure = try #require(sure.words.first { $0.word == "fen" }?.weight)
        #expect(abs(fen - 0.2 * fenSure) < 1e-9)
    }

    @Test("words read with the gaps between them lost are split into index words; noise is not")
    func gluedWords() throws {
        let catalog = try SharedCatalog.get().catalog
        let result = try catalog.searchText("""
            Sorcery
            Eachplayerchooses a number of lands they
            control equaltothenumber of lands
            controlled by the player who controls the
            fewest, thensacrificestherest.
            """)
        #expect(result.words.contains { $0.word == "chooses" } && result.words.contains { $0.word == "sacrifices" })
        #expect(result.matches.first?.printing.name == "Balance")
        let vocabulary = try catalog.queue.read { try TextVocabulary($0) }
        #expect(vocabulary.split("ifaspelldestroysone") == ["if", "a", "spell", "destroys", "one"])
        #expect(vocabulary.split("andisaffected") == ["and", "is", "affected"])
        #expect(vocabulary.split("sacrifices") == nil, "a word of the index is no glued pair")
        #expect(vocabulary.split("xqzvkjwpt") == nil)
    }

    @Test("flavor text picks the right printings among reprints with the same rules text")
    func flavorPicksPrinting() throws {
        let catalog = try SharedCatalog.get().catalog
        for (flavor, sets) in [
            ("Follow the light. In its absence, fol1ow her.", ["ema", "ima", "m12", "m13", "m14", "m15", "ori", "w16", "w17"]),
            ("Her sword sings rnore beautifully than any choir.", ["m10", "7ed", "10e", "dvd", "ddc"]),
            ("Born with wings of light and a sword of faith, this heavenly", ["lea", "leb", "2ed", "3ed", "4ed", "sum", "ced", "cei", "ath", "me4", "v15", "prm", "ptc", "pwos"]),
        ] {
            let result = try catalog.searchText("Creature — Angel\nFlying, vigilance\n" + flavor, limit: 60)
            let best = try #require(result.matches.first)
            let top = result.matches.filter { $0.score == best.score }
            #expect(top.allSatisfy { $0.printing.name == "Serra Angel" && sets.contains($0.printing.setCode) }, "\(flavor)")
            #expect(top.allSatisfy { $0.printing.setCode != "dom" && $0.printing.setCode != "cmd" })
            #expect(best.matchedWords.values.contains([.flavor]))
        }
        // The artist credit narrows further: Mark Zug drew the Seventh Edition one.
        let zug = try catalog.searchText("Flying, vigilance\nHer sword sings more beautifully than any choir.\nIllus. Mark Zug")
        #expect(zug.matches.first.map { ($0.printing.setCode, $0.printing.collectorNumber) } ?? ("", "") == ("7ed", "42"))
        #expect(zug.matches.first?.matchedWords["zug"] == [.artist])
    }

    @Test("damaged 10-line text boxes of random printings find their card first")
    func damagedTextBoxes() throws {
        let catalog = try SharedCatalog.get().catalog
        let m = try CatalogBenchmark.measureTextLookups(catalog: catalog, count: 100, lines: 10, seed: 7)
        #expect(m.queries == 100)
        #expect(m.cardFirstRate >= 0.9)
        #expect(m.printingAmongBestRate >= 0.9)
    }

    @Test("text that is no card's finds nothing and says which words it left out")
    func noise() throws {
        let catalog = try SharedCatalog.get().catalog
        let result = try catalog.searchText("zqxj wvvkp ~~ 1/1 the of")
        #expect(result.matches.isEmpty)
        #expect(result.words.isEmpty)
        #expect(result.ignored.contains("zqxj"))
    }

    @Test("MTGJSON per-set files: each face's text joined, foreign printed text searchable, a re-import adds nothing")
    func mtgjsonSetFiles() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        try CatalogImporter(catalogURL: url).importFiles([TestPaths.mtgjsonSet("NEO"), TestPaths.mtgjsonSet("M19")])
        func check() throws {
            let catalog = try CardCatalog(url: url)
            let moths = try #require(try catalog.printings(set: "neo", number: "4").first)
            #expect(moths.oracleText?.hasPrefix("(As this Saga enters") == true)
            #expect(moths.oracleText?.hasSuffix("under your control.\n//\nFlying") == true)
            #expect(moths.flavorText?.hasPrefix("\"The moths of Eiganjo") == true)
            #expect(moths.artist == "Matt Stewart")
            #expect(moths.frame == "2015")

            // The French printing's text finds the printing by its foreign words.
            let french = try catalog.searchText("""
                Créature : dragon
                Vol (Cette créature ne peut pas être bloquée
                excepté par des créatures avec le vol ou la portée.)
                C'est le maître incontesté des montagnes de Shiv.
                """)
            let best = try #require(french.matches.first)
            #expect((best.printing.setCode, best.printing.collectorNumber) == ("m19", "300"))
            #expect(best.matchedWords["incontesté".folding(options: .diacriticInsensitive, locale: nil)] == [.foreign])
        }
        try check()
        try CatalogImporter(catalogURL: url).importFiles([TestPaths.mtgjsonSet("NEO")])
        try check()
    }

    @Test("a printing whose translations are indexed with it (MTGJSON set file) is found by a few words of its flavor text")
    func translatedPrintingFound() throws {
        try SharedCardData.withCatalog(of: [SharedCardData.scryfall2019, SharedCardData.setFile("ORI")]) { catalog in
            // Three rare words (`the`, `in` do not count); hundreds of shorter texts hold one or two.
            let result = try catalog.searchText("hope rises in the hearts")
            let best = try #require(result.matches.first)
            #expect((best.printing.setCode, best.printing.collectorNumber) == ("ori", "6"), "\(best.printing.name)")
            #expect(best.score == 1 && Set(best.matchedWords.keys) == ["hope", "rises", "hearts"])
            #expect(best.relevance == 0, "the premise: bm25 leaves it out of its candidates; it is found by its own words")
            #expect(result.matches.dropFirst().allSatisfy { $0.score < best.score })
            // A word of its French translation read beside its English text counts for neither:
            // a card is printed in one language.
            let mixed = try catalog.searchText("hope rises in the hearts cette")
            #expect(mixed.words.contains { $0.word == "cette" }, "the premise: the French word is a query word")
            let french = try catalog.searchText("Cette créature ne peut pas être bloquée. Quand le Prêtre de bataille avemain arrive")
            #expect(french.matches.contains { $0.printing.setCode == "ori" && $0.printing.collectorNumber == "6" && $0.matchedWords["cette"] == [.foreign] },
                    "the premise: its French text holds the word")
            let same = try #require(mixed.matches.first)
            #expect((same.printing.setCode, same.printing.collectorNumber) == ("ori", "6"))
            #expect(same.matchedWords["cette"] == nil && same.score < 1, "\(same.matchedWords)")
        }
    }

    @Test("a catalog built before card texts were kept still opens; text search asks to import again")
    func olderCatalog() throws {
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards, TestPaths.sampleSets])
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            for column in ["oracle_text", "flavor_text", "artist", "frame", "printed_type_line", "printed_text"] {
                try db.execute(sql: "ALTER TABLE printing DROP COLUMN \(column)")
            }
            try db.execute(sql: "DROP TABLE printing_text_vocab; DROP TABLE printing_text; DROP TABLE foreign_text")
            try db.execute(sql: "UPDATE catalog_meta SET value = '3' WHERE key = 'schema_version'")
        }
        try queue.close()
        let catalog = try CardCatalog(url: url)
        #expect(!catalog.hasTextIndex)
        #expect(try catalog.printings(named: "Counterspell").allSatisfy { $0.oracleText == nil })
        do {
            _ = try catalog.searchText("Counter target spell.")
            Issue.record("searchText should refuse a catalog without texts")
        } catch let error as CatalogError {
            #expect(error.description.contains(url.path))
            #expect(error.description.contains("import again"))
        }
        #expect(try !CatalogImporter.isCurrentCatalog(url))
    }
}
