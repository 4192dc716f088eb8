import CardCatalog
import CardMatcher
import CardReader
import Foundation
import Testing

@Suite("Matcher: foreign printings and back faces (real OCR output of fixtures)")
struct LanguageAndFaceTests {
    let matcher = CardMatcher(catalog: MatcherFixtures.shared)

    /// The German Gurmag Drowner as read: title `Gurmag-Ertränker`, `57/264 C` over `DTK • DE`.
    func german() throws -> ExtractedFields {
        let fields = try MatcherFixtures.read("gurmag_drowner_de_flat.png")
        #expect(fields.language?.value == "de", "the premise: the language reads")
        #expect(fields.setCode?.value == "dtk" && fields.collectorNumber?.value == "57" && fields.setSize?.value == 264)
        return fields
    }

    @Test("a German card, catalog in English only: the catalog's printing of that set and number, printed in de")
    func foreignCardEnglishCatalog() throws {
        #expect(try MatcherFixtures.shared.printings(set: "dtk", number: "57", language: "de").isEmpty, "the premise: no German printing")
        let result = try matcher.match(try german())
        #expect(result.status == .identified)
        #expect(result.card?.name == "Gurmag Drowner" && result.card?.language == "en")
        #expect(result.printedLanguage == "de")
        #expect(result.method == "exact")
    }

    @Test("a Japanese card (its title unreadable to the English model): identified only when set, number, size and rarity all agree")
    func foreignTitleNeedsEveryLine() throws {
        var fields = try german()
        fields.title = nil
        fields.language = ExtractedField(value: "ja", confidence: 0.8, sources: ["DTK • JP"])
        let all = try matcher.match(fields)
        #expect(all.status == .identified && all.printedLanguage == "ja")
        fields.rarity = ExtractedField(value: "U", confidence: 0.5, sources: ["57/264 U"])
        #expect(try matcher.match(fields).status != .identified)
    }

    @Test("a foreign title the catalog cannot read adds no other card's name; a rarity read that the printing lacks rules it out")
    func foreignTitleNamesNoOtherCard() throws {
        var fields = try german()
        fields.title = ExtractedField(value: "Contrahechizo", confidence: 0.9, sources: ["Contrahechizo"])
        fields.language = ExtractedField(value: "es", confidence: 0.8, sources: ["DTK • ES"])
        fields.rarity = nil
        let nearest = MatcherFixtures.shared.searchNames("Contrahechizo", minimumScore: Tuning().matching.nameSearchMinimum).first
        #expect(nearest != nil && nearest?.name != "Gurmag Drowner", "the premise: the foreign title comes nearest to another card's name")
        let result = try matcher.match(fields)
        #expect(result.status == .ambiguous && result.method == "exact", "set, number and size without the rarity: not identified")
        #expect(result.name == "Gurmag Drowner", "\(result.candidates.map(\.printing.name))")
        fields.rarity = ExtractedField(value: "U", confidence: 0.5, sources: ["57/264 U"])
        #expect(try matcher.match(fields).candidates.allSatisfy { $0.printing.name != "Gurmag Drowner" },
                "an uncommon read on a common's number: the number was misread")
    }

    @Test("an English card is matched as before: no printed language")
    func englishCard() throws {
        let result = try matcher.match(try MatcherFixtures.read("gurmag_drowner_flat.png"))
        #expect(result.status == .identified && result.printedLanguage == nil)
    }

    @Test("a catalog that holds the German printing gives that printing")
    func foreignPrintingInCatalog() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-de-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func card(_ id: String, _ lang: String, printed: String?) -> [String: Any] {
            var c: [String: Any] = ["object": "card", "id": id, "oracle_id": "5b9d3e42-62c4-4e6f-9d0c-2b7a4c1e0d57", "name": "Gurmag Drowner",
                                    "lang": lang, "set": "dtk", "set_name": "Dragons of Tarkir", "collector_number": "57",
                                    "rarity": "common", "layout": "normal", "released_at": "2015-03-27"]
            if let printed { c["printed_name"] = printed }
            return c
        }
        let cards = [card("0a6f1b5e-0000-4000-8000-000000000057", "en", printed: nil),
                     card("0a6f1b5e-0000-4000-8000-0000000de057", "de", printed: "Gurmag-Ertränker")]
        let json = dir.appendingPathComponent("cards.json")
        try JSONSerialization.data(withJSONObject: cards).write(to: json)
        let url = dir.appendingPathComponent("catalog.sqlite")
        _ = try CatalogImporter(catalogURL: url).importFiles([json.path])
        let result = try CardMatcher(catalog: try CardCatalog(url: url)).match(try german())
        #expect(result.status == .identified)
        #expect(result.card?.language == "de" && result.card?.printedName == "Gurmag-Ertränker")
        #expect(result.printedLanguage == nil)
    }

    @Test("the back face of a double-faced card is that card", arguments: ["insectile_aberration_flat.png", "insectile_aberration_photo.jpg"])
    func backFace(fixture: String) throws {
        let fields = try MatcherFixtures.read(fixture)
        #expect(fields.title?.value.hasPrefix("Insectile Aberrati") == true, "read without the catalog's names")
        let result = try matcher.match(fields)
        #expect(result.status == .identified)
        #expect(result.card?.name == "Delver of Secrets // Insectile Aberration")
        #expect(result.card?.setCode == "isd" && result.card?.collectorNumber == "51")
    }
}
