import CardCatalog
import CardMatcher
import CardReader
import Foundation
import Testing

/// The built-in sample catalog, shared by the tests, and real OCR of the fixtures.
enum MatcherFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared: CardCatalog = try! SampleCatalog.open()

    /// Real OCR output of a fixture.
    static func read(_ fixture: String) throws -> ExtractedFields {
        try CardReader().read(contentsOf: root.appendingPathComponent("Fixtures/synthetic/\(fixture)").path).fields
    }
}

@Suite("Matcher recovery paths (real OCR output of fixtures, sample catalog)")
struct CardMatcherTests {
    let matcher = CardMatcher(catalog: MatcherFixtures.shared)

    @Test("exact: set + number verified by the title")
    func exact() throws {
        let result = try matcher.match(try MatcherFixtures.read("broodhunter_wurm_flat.png"))
        #expect(result.status == .identified)
        #expect(result.method == "exact")
        #expect(result.card?.setCode == "bfz" && result.card?.collectorNumber == "171")
        #expect(result.confidence >= Tuning().matching.identifyThreshold)
    }

    @Test("misread number: recovered from the title within the set")
    func numberFromTitle() throws {
        var fields = try MatcherFixtures.read("gurmag_drowner_flat.png")
        fields.collectorNumber = ExtractedField(value: "87", confidence: 0.3, sources: ["B7/264 C"])
        let result = try matcher.match(fields)
        #expect(result.status == .identified)
        #expect(result.card?.collectorNumber == "57")
        #expect(result.method == "number-from-title")
    }

    @Test("misread set code: recovered from number, set size and title")
    func setFromNumber() throws {
        var fields = try MatcherFixtures.read("carnage_tyrant_flat.png")
        fields.setCode = ExtractedField(value: "xqz", confidence: 0.3, sources: ["XQZ * EN"])
        let result = try matcher.match(fields)
        #expect(result.status == .identified)
        #expect(result.card?.setCode == "xln")
    }

    @Test("a title read as noise neither confirms nor vetoes collector lines that agree on set, number, size and rarity")
    func noiseTitle() throws {
        // An underexposed photo of a DTK card read `isa hee Ss` in its title bar and `057/264 C`,
        // `DTK • EN` below: the noise came nearest to Saheeli Rai and outvoted the collector lines.
        var fields = try MatcherFixtures.read("gurmag_drowner_flat.png")
        #expect(fields.setCode?.value == "dtk" && fields.collectorNumber?.value == "57", "the premise: the lines read")
        fields.title = ExtractedField(value: "isa hee Ss", confidence: 0.44, sources: ["isa hee Ss"])
        let noise = try matcher.match(fields)
        #expect(noise.status == .identified)
        #expect(noise.card?.name == "Gurmag Drowner")
        // A title that reads as another card's name still contradicts them.
        fields.title = ExtractedField(value: "Counterspell", confidence: 0.9, sources: ["Counterspell"])
        let other = try matcher.match(fields)
        #expect(other.status != .identified || other.card?.name == "Counterspell")
        #expect(other.card?.name != "Gurmag Drowner")
    }

    @Test("a 2023 frame prints no set size: its set code, four-digit number and rarity agreeing identify it without a title")
    func noTitleSizelessFrame() throws {
        var fields = try MatcherFixtures.read("sheoldred_the_apocalypse_flat.png")
        #expect(fields.setCode?.value == "dmu" && fields.printedNumber == "0107" && fields.setSize == nil, "the premise: the lines read")
        fields.title = nil
        let result = try matcher.match(fields)
        #expect(result.status == .identified)
        #expect(result.card?.setCode == "dmu" && result.card?.collectorNumber == "107")
        // A 2015 frame's number without its printed size is only partly confirmed.
        var unsized = try MatcherFixtures.read("gurmag_drowner_flat.png")
        unsized.title = nil
        unsized.setSize = nil
        #expect(try matcher.match(unsized).status != .identified)
        // Nor does a rarity that disagrees.
        fields.rarity = ExtractedField(value: "C", confidence: 0.9, sources: ["0107 C"])
        #expect(try matcher.match(fields).status != .identified)
    }

    @Test("no set code and no title: a number whose printed set size only one set prints, with the rarity agreeing, names the printing")
    func setFromSize() throws {
        var fields = try MatcherFixtures.read("carnage_tyrant_flat.png")
        #expect(fields.collectorNumber?.value == "179" && fields.setSize?.value == 279 && fields.rarity?.value == "M", "the premise: the lines read")
        fields.setCode = nil
        fields.title = ExtractedField(value: "rn", confidence: 0.3, sources: ["rn"]) // a foreign title, read as noise
        let result = try matcher.match(fields)
        #expect(result.status == .identified)
        #expect(result.method == "set-from-size")
        #expect(result.card?.setCode == "xln" && result.card?.collectorNumber == "179")
        // Without the rarity the number and size alone are only a candidate.
        var unrated = fields
        unrated.rarity = nil
        let candidate = try matcher.match(unrated)
        #expect(candidate.status == .ambiguous && candidate.candidates.first?.printing.setCode == "xln")
        // A rarity that disagrees leaves nothing.
        fields.rarity = ExtractedField(value: "C", confidence: 0.9, sources: ["179/279 C"])
        #expect(try matcher.match(fields).status == .unidentified)
    }

    @Test("title only with several printings: ambiguous with candidates, never a guess")
    func titleOnly() throws {
        let fields = try MatcherFixtures.read("counterspell_flat.png")
        #expect(fields.collectorNumber == nil)
        let result = try matcher.match(fields)
        #expect(result.status == .ambiguous)
        #expect(result.card == nil)
        #expect(result.candidates.count >= 2)
        #expect(result.candidates.allSatisfy { $0.printing.name == "Counterspell" })
    }

    @Test("title only, one printing: a long name is identified, a short one (a fragment could hit it) is not")
    func titleOnlyOnePrinting() throws {
        let long = ExtractedFields(title: ExtractedField(value: "Tarmogoyf", confidence: 0.9, sources: ["Tarmogoyf"]))
        let named = try matcher.match(long)
        #expect(named.status == .identified)
        #expect(named.card?.name == "Tarmogoyf")
        let short = ExtractedFields(title: ExtractedField(value: "Opt", confidence: 0.9, sources: ["Opt"]))
        let fragment = try matcher.match(short)
        #expect(fragment.status == .ambiguous)
        #expect(fragment.candidates.first?.printing.name == "Opt")
    }

    @Test("a title that matches nothing is unidentified")
    func nothing() throws {
        let fields = ExtractedFields(title: ExtractedField(value: "Qzxv Wprtk", confidence: 0.9, sources: []))
        #expect(try matcher.match(fields).status == .unidentified)
    }

    @Test("a title the vocabulary does not take names no card: its nearest name is not offered")
    func nearestNameOfNoise() throws {
        // On the shared photos and their copies every such nearest name was wrong (`eee` came
        // nearest to Emcee, `CESS VSR` to Censor); a fragment such as `Aven ee` holds too little
        // of the name, `Tower eee` too many wrong letters.
        for read in ["Tower eee", "Aven ee"] {
            let fields = ExtractedFields(title: ExtractedField(value: read, confidence: 0.5, sources: [read]))
            let result = try matcher.match(fields)
            #expect(result.status == .unidentified, "\(read)")
            #expect(result.name == nil, "\(read)")
        }
        // The same names read well enough for the vocabulary stay candidates.
        for read in ["Tower Geist", "Aven Battle Priest"] {
            let fields = ExtractedFields(title: ExtractedField(value: read, confidence: 0.5, sources: [read]))
            #expect(try matcher.match(fields).name == read)
        }
    }

    @Test("number and title that disagree are not identified")
    func disagreement() throws {
        var fields = try MatcherFixtures.read("broodhunter_wurm_flat.png")
        fields.title = ExtractedField(value: "Sheoldred, the Apocalypse", confidence: 0.9, sources: [])
        let result = try matcher.match(fields)
        #expect(!(result.status == .identified && result.card?.name == "Broodhunter Wurm"))
    }
}

@Suite("Matcher: the photo's capture day rules out later printings")
struct CaptureDayTests {
    let matcher = CardMatcher(catalog: MatcherFixtures.shared)
    /// A title read cleanly, no number: Aven Battle Priest is in ori (2015) and mb1 (2019).
    let aven = ExtractedFields(title: ExtractedField(value: "Aven Battle Priest", confidence: 0.9, sources: ["Aven Battle Priest"]))

    @Test("without a date a reprinted title is ambiguous; photographed in 2015 only the 2015 printing fits")
    func narrowsToOriginal() throws {
        let undated = try matcher.match(aven)
        #expect(undated.status == .ambiguous)
        #expect(Set(undated.candidates.map(\.printing.setCode)) == ["ori", "mb1"])
        let dated = try matcher.match(aven, captureDay: "2015-12-06")
        #expect(dated.status == .identified)
        #expect(dated.card?.setCode == "ori" && dated.card?.collectorNumber == "6")
        #expect(dated.method == "title-only+date")
        // The clock can be wrong: less sure than a name with one printing ever.
        let single = try matcher.match(ExtractedFields(title: ExtractedField(value: "Tarmogoyf", confidence: 0.9, sources: ["Tarmogoyf"])))
        #expect(dated.confidence < single.confidence)
        // The later printing is still listed.
        #expect(dated.candidates.contains { $0.printing.setCode == "mb1" })
    }

    @Test("a photo taken after both printings, or before either, narrows nothing")
    func bothOrNeither() throws {
        for day in ["2020-03-14", "2014-02-02"] {
            let result = try matcher.match(aven, captureDay: day)
            #expect(result.status == .ambiguous, "\(day)")
            #expect(result.method == "title-only", "\(day)")
        }
    }

    @Test("an untrustworthy day is ignored: a reset clock's 1 January, before 2000, in the future, not a date")
    func untrustworthy() throws {
        for day in ["2015-01-01", "1999-06-15", "2999-06-15", "2015-02-30", "garbage"] {
            let result = try matcher.match(aven, captureDay: day)
            #expect(result.status == .ambiguous, "\(day)")
            #expect(result.method == "title-only", "\(day)")
        }
    }

    @Test("several printings before the day stay ambiguous; those after it are ranked last (real OCR of a fixture)")
    func ranksLaterLast() throws {
        let fields = try MatcherFixtures.read("counterspell_flat.png")
        let result = try matcher.match(fields, captureDay: "2016-05-20")
        #expect(result.status == .ambiguous)
        #expect(result.method == "title-only+date")
        #expect(result.candidates.last?.printing.setCode == "mh2")
        #expect(result.candidates.dropLast().allSatisfy { $0.score > result.candidates.last!.score })
    }

    @Test("prerelease slack: a printing released within 60 days after the photo still counts")
    func slack() throws {
        // mb1 was released 2019-11-07: a photo from 2019-10-20 may show it.
        let result = try matcher.match(aven, captureDay: "2019-10-20")
        #expect(result.status == .ambiguous)
    }
}

@Suite("Matcher: the lead a title needs over the nearest other name")
struct NameMarginTests {
    let matcher = CardMatcher(catalog: MatcherFixtures.shared)

    @Test("Aven Battle Priest read exactly is taken beside Abzan Battle Priest; read with one letter wrong it is not")
    func exactReadNeedsLessLead() throws {
        func fields(_ title: String) -> ExtractedFields {
            ExtractedFields(title: ExtractedField(value: "Aven Battle Priest", confidence: 0.9, sources: [title]))
        }
        #expect(MatcherFixtures.shared.searchNames("Aven Battle Priest", limit: 2).map(\.name) == ["Aven Battle Priest", "Abzan Battle Priest"])
        let exact = try matcher.match(fields("Aven Battle Priest"), captureDay: "2015-12-06")
        #expect(exact.status == .identified)
        #expect(exact.card?.setCode == "ori")
        let misread = try matcher.match(fields("Aven Battle Prlest"), captureDay: "2015-12-06")
        #expect(misread.status == .ambiguous)
        #expect(misread.candidates.first?.printing.setCode == "ori")
    }
}

@Suite("Matcher: the border colour narrows a reprint's printings")
struct BorderColorMatchTests {
    let matcher = CardMatcher(catalog: MatcherFixtures.shared)

    /// Counterspell read with no number (real OCR), its border as measured.
    func counterspell(border: String?) throws -> MatchResult {
        var fields = try MatcherFixtures.read("counterspell_flat.png")
        #expect(fields.collectorNumber == nil)
        fields.borderColor = border.map { ExtractedField(value: $0, confidence: 1, sources: ["\($0) \($0) \($0) \($0)"]) }
        return try matcher.match(fields)
    }

    @Test("white leaves Unlimited and Seventh Edition, black leaves Alpha and Modern Horizons 2")
    func narrows() throws {
        let white = try counterspell(border: "white")
        #expect(white.status == .ambiguous)
        #expect(Set(white.candidates.map(\.printing.setCode)) == ["2ed", "7ed"])
        let black = try counterspell(border: "black")
        #expect(Set(black.candidates.map(\.printing.setCode)) == ["lea", "mh2"])
    }

    @Test("a border no printing of the name has narrows nothing (mismeasured, or the catalog lacks it)")
    func noneHasIt() throws {
        let gold = try counterspell(border: "gold")
        #expect(Set(gold.candidates.map(\.printing.setCode)) == ["lea", "2ed", "7ed", "mh2"])
        #expect(try Set(counterspell(border: nil).candidates.map(\.printing.setCode)) == ["lea", "2ed", "7ed", "mh2"])
    }
}

@Suite("Matcher: digital-only printings cannot be in a photo")
struct DigitalOnlyTests {
    let matcher = CardMatcher(catalog: MatcherFixtures.shared)

    @Test("Queen Marchesa (cn2, and Magic Online's pz2) read by title alone is the paper cn2 card")
    func paperOnly() throws {
        let printings = try MatcherFixtures.shared.printings(named: "Queen Marchesa")
        #expect(Set(printings.map(\.setCode)) == ["cn2", "pz2"])
        #expect(printings.first { $0.setCode == "pz2" }?.isPaper == false)
        let fields = ExtractedFields(title: ExtractedField(value: "Queen Marchesa", confidence: 0.9, sources: ["Queen Marchesa"]))
        let result = try matcher.match(fields)
        #expect(result.status == .identified)
        #expect(result.card?.setCode == "cn2" && result.card?.collectorNumber == "78")
        #expect(result.method == "title-only")
    }

    @Test("a set code read that names none of the title's sets narrows nothing (the bottom read was noise)")
    func noiseSetCode() throws {
        // A real OCR read of Counterspell (no number), with a junk set line read as an existing
        // 2015 code: the 2015+ era it implies must not narrow the old printings away.
        var fields = try MatcherFixtures.read("counterspell_flat.png")
        fields.setCode = ExtractedField(value: "bfz", confidence: 0.4, sources: ["BFZ EN"])
        fields.frameEra = .modern2015
        let result = try matcher.match(fields)
        #expect(result.status == .ambiguous)
        #expect(Set(result.candidates.map(\.printing.setCode)) == ["lea", "2ed", "7ed", "mh2"])
    }
}
