import CardCatalog
import CardReader
import CardScanOCR
import Foundation
import TestSupport
import Testing

@testable import CardMatcher

/// The card's printed words as evidence. The lines are real OCR output: `cardscan read --text`
/// of `alexandrearpin/photos/normal/bfz_felidar_cub.JPG` (its title read `Falidar Cnh`).
@Suite("Text evidence (real OCR lines, both shared card-data files)", .tags(.sharedData), .needsSharedData)
struct TextEvidenceTests {
    static let textBox = ["Creature — Cat Beast g |", "ee Y /", "Sacrifice Felidar Cub: Destroy target :", "enchantment. |",
                          "Felidars that make it through their", "first year of life can easily live to see a", "hundred years more. /"]
    static let credits = ["Spano |", "025/274 C", "BEZ « EN be STEVE PRESCOTT", "™ & © 2015 Wizards of the Coast"]

    static func observations(_ band: CardBand, _ lines: [String]) -> [CardObservation] {
        observations(band, lines.map { ($0, 0.8) })
    }

    /// Lines read with Tesseract's confidence for each.
    static func observations(_ band: CardBand, _ lines: [(String, Double)]) -> [CardObservation] {
        lines.map { CardObservation(region: band, observation: TextObservation(text: $0.0, confidence: $0.1, boundingBox: NormalizedRect(x: 0, y: 0, width: 1, height: 0.05))) }
    }

    static var matcher: CardMatcher { get throws { CardMatcher(catalog: try SharedCardData.catalog.get().catalog) } }

    @Test("an unreadable title and collector line: the text names the card and its printing")
    func textAlone() throws {
        let fields = ExtractedFields(title: ExtractedField(value: "Ee eae", confidence: 0.2, sources: ["Ee eae"]))
        let without = try Self.matcher.match(fields)
        #expect(without.status != .identified, "the premise: title noise alone identifies nothing")
        let result = try Self.matcher.match(fields, observations: Self.observations(.textBox, Self.textBox) + Self.observations(.credits, Self.credits))
        #expect(result.status == .identified, "\(result.method) \(result.candidates.map(\.printing.name))")
        #expect(result.card?.name == "Felidar Cub" && result.card?.setCode == "bfz" && result.card?.collectorNumber == "25")
        #expect(result.method == "text")
    }

    @Test("the artist's name read beside the collector lines breaks a tie between the printings at a number and set size")
    func artistBreaksTie() throws {
        // Real reads of `notavu/test_images/Zangano_cultivador.jpeg` (a Spanish card; the catalog
        // holds no Spanish name for it): `042/184` with no rarity and a set code read `oow +S`,
        // which Aether Revolt's Reverse Engineer and Oath of the Gatewatch's Cultivator Drone fit.
        var fields = ExtractedFields(title: ExtractedField(value: "Zangano cultivador", confidence: 0.66, sources: ["{ Zangano cultivador Zr"]))
        fields.collectorNumber = ExtractedField(value: "42", confidence: 0.3, sources: ["042/184"])
        fields.printedNumber = "042"
        fields.setSize = ExtractedField(value: 184, confidence: 0.3, sources: ["042/184"])
        fields.frameEra = .modern2015
        let tied = try Self.matcher.match(fields)
        #expect(tied.status == .ambiguous && Set(tied.candidates.map(\.printing.name)) == ["Reverse Engineer", "Cultivator Drone"],
                "the premise: \(tied.status) \(tied.candidates.map(\.printing.name))")
        let collector = Self.observations(.collector, ["042/184", "oow +S", "P CS uawomin MANIAK", "Ul"])
        let result = try Self.matcher.match(fields, observations: collector)
        #expect(result.status == .identified && result.card?.setCode == "ogw" && result.card?.collectorNumber == "42",
                "\(result.status) \(result.method) \(result.candidates.map { "\($0.printing.setCode) \($0.score)" })")
        // The same band of its upright copy, the name read one letter off.
        let offByOne = Self.observations(.collector, ["042/184", "oow +S", "Pp « guawonie MANtiAK", "ue"])
        #expect(try Self.matcher.match(fields, observations: offByOne).card?.setCode == "ogw")
        // Words that are no candidate's artist break nothing; the other artist's name picks the other.
        let noArtist = Self.observations(.collector, ["042/184", "oow +S", "P CS uawomin Ul"])
        #expect(try Self.matcher.match(fields, observations: noArtist).status == .ambiguous)
        let otherArtist = Self.observations(.collector, ["042/184", "oow +S", "CHASE STONE"])
        #expect(try Self.matcher.match(fields, observations: otherArtist).card?.setCode == "aer")
    }

    @Test("a foreign card's set code, number and size agree with a printing, and so does its artist read beside them: identified without the rarity")
    func artistInPlaceOfRarity() throws {
        // Real reads of the `pitch30` copy of `notavu/test_images/Zangano_cultivador.jpeg`.
        var fields = ExtractedFields(title: ExtractedField(value: "Zangano cultivador", confidence: 0.81, sources: ["| Zangano cultivador"]))
        fields.collectorNumber = ExtractedField(value: "42", confidence: 0.76, sources: ["042/184 ©"])
        fields.printedNumber = "042"
        fields.setSize = ExtractedField(value: 184, confidence: 0.76, sources: ["042/184 ©"])
        fields.setCode = ExtractedField(value: "ogw", confidence: 0.54, sources: ["OGW «SP mS SLAWO"])
        fields.language = ExtractedField(value: "es", confidence: 0.54, sources: ["OGW «SP mS SLAWO"])
        fields.frameEra = .modern2015
        let lines = ["042/184 ©", "min MANIAK", "OGW «SP mS SLAWO"]
        let without = try Self.matcher.match(fields, observations: Self.observations(.collector, lines.filter { !$0.contains("MANIAK") }))
        #expect(without.status == .ambiguous && without.card == nil, "the premise: no rarity read, \(without.status) \(without.confidence)")
        let result = try Self.matcher.match(fields, observations: Self.observations(.collector, lines))
        #expect(result.status == .identified && result.card?.setCode == "ogw" && result.card?.collectorNumber == "42",
                "\(result.status) \(result.confidence) \(result.method)")
        #expect(result.printedLanguage == "es")
    }

    @Test("a line read whole as the type line one name alone is printed with names that card: a basic land with no title read")
    func typeLineNamesCard() throws {
        let catalog = try SharedCardData.catalog.get().catalog
        #expect(try catalog.names(printedWithTypeLine: "Basic Land — Forest") == ["Forest"])
        #expect(try catalog.names(printedWithTypeLine: "Basic Snow Land — Forest") == ["Snow-Covered Forest"])
        // The first word cut at the band's edge still ends as printed; a word of noise is no type line.
        #expect(try catalog.names(printedWithTypeLine: "asic Land — Mountain «") == ["Mountain"])
        #expect(try catalog.names(printedWithTypeLine: "Basic Land — Mountain qzxv") == nil)
        #expect(try (catalog.names(printedWithTypeLine: "Creature — Elf Warrior")?.count ?? 0) > 1)
        // Each face of a double-faced card is a type line of its own: Goka the Unjust, the back of
        // Initiate of Blood, is printed with the one other card's.
        #expect(try catalog.names(printedWithTypeLine: "Legendary Creature — Ogre Shaman")
                == ["Heartless Hidetsugu", "Initiate of Blood // Goka the Unjust"])
        // A line that lost words at either end is every type line's that holds it: `Basic Land` is
        // Wastes' whole type line and the start of every basic land's; `Creature — Construct`
        // Slag Fiend's, and the end of every artifact Construct's.
        #expect(try (catalog.names(printedWithTypeLine: "Basic Land")?.count ?? 0) > 1)
        #expect(try catalog.names(printedWithTypeLine: "Basic Land")?.contains("Wastes") == true)
        #expect(try (catalog.names(printedWithTypeLine: "Creature — Construct")?.count ?? 0) > 1)
        #expect(try catalog.names(printedWithTypeLine: "Land — Forest")?.isSuperset(of: ["Gingerbread Cabin", "Forest", "Snow-Covered Forest"]) == true)
        // Only held inside longer type lines: no name is printed with it whole.
        #expect(try catalog.names(printedWithTypeLine: "Human Warrior Werewolf") == [])
        // Real reads of the `textonly` copy of `alexandrearpin/photos/blending_background/ori_mountain.jpg`
        // (all but the text box painted over): the type line, and scraps of the mana symbol.
        let noTitle = ExtractedFields(title: nil)
        let lines = [("asic Land — Mountain «", 0.9), ("ee", 0.36), ("> ,", 0.22)].map { text, confidence in
            CardObservation(region: .textBox, observation: TextObservation(text: text, confidence: confidence, boundingBox: NormalizedRect(x: 0, y: 0, width: 1, height: 0.05)))
        }
        let result = try Self.matcher.match(noTitle, observations: lines)
        #expect(result.name == "Mountain" && result.method == "type-line", "\(result.status) \(result.method) \(result.candidates.map(\.printing.name))")
        #expect(result.status != .identified, "a basic land's printings are many")
        // Below a title and number that named the card already, the type line tells nothing of
        // the printing: the printings at that number stand (a Gatherer scan of a Mountain, its
        // number and size read `262` and `200`).
        var titled = ExtractedFields(title: ExtractedField(value: "Mountain", confidence: 0.9, sources: ["Mountain"]))
        titled.collectorNumber = ExtractedField(value: "262", confidence: 0.8, sources: ["262/200"])
        titled.setSize = ExtractedField(value: 200, confidence: 0.8, sources: ["262/200"])
        let numbered = try Self.matcher.match(titled, observations: lines)
        #expect(numbered.method != "type-line" && !numbered.candidates.isEmpty && numbered.candidates.allSatisfy { $0.printing.collectorNumber == "262" },
                "\(numbered.method) \(numbered.candidates.map { "\($0.printing.setCode) \($0.printing.collectorNumber)" })")
        // A line of a type many cards share names none.
        let shared = [CardObservation(region: .textBox, observation: TextObservation(text: "Creature — Elf Warrior", confidence: 0.9,
                                                                                      boundingBox: NormalizedRect(x: 0, y: 0, width: 1, height: 0.05)))]
        #expect(try Self.matcher.match(noTitle, observations: shared).name == nil)
    }

    @Test("a misread title that names no card, with text that agrees in part")
    func partialTitle() throws {
        let fields = ExtractedFields(title: ExtractedField(value: "Cub", confidence: 0.6, sources: ["Cub"]))
        let result = try Self.matcher.match(fields, observations: Self.observations(.textBox, Array(Self.textBox.prefix(4))))
        #expect(result.name == "Felidar Cub", "\(result.status) \(result.candidates.map(\.printing.name))")
    }

    @Test("a title the reader snapped to one name, read nearest to another, names neither")
    func titleSnappedElsewhere() throws {
        // A copy of a 1990s Counterspell with its title bar painted over: the whole photo's
        // extended title band read `anne ar` at 0.01, which the reader's vocabulary snapped to
        // Annex, while the name search finds another name nearest to the read; the title alone
        // named that one (ambiguous, wrong).
        let noise = ExtractedFields(title: ExtractedField(value: "Annex", confidence: 0.01, sources: ["anne ar"]))
        let result = try Self.matcher.match(noise)
        #expect(result.name == nil, "\(result.status) \(result.candidates.map(\.printing.name))")
        let read = ExtractedFields(title: ExtractedField(value: "Annex", confidence: 0.9, sources: ["Annex"]))
        #expect(try Self.matcher.match(read).name == "Annex", "a title read as the name it was snapped to still names it")
        let misread = ExtractedFields(title: ExtractedField(value: "Annex", confidence: 0.6, sources: ["Anncx"]))
        #expect(try Self.matcher.match(misread).name == "Annex", "nor does a letter misread")
    }

    @Test("text never overrules a name the title and collector lines agreed on, nor names a card on a few common words")
    func conservative() throws {
        let fields = ExtractedFields(title: ExtractedField(value: "Ee eae", confidence: 0.2, sources: ["Ee eae"]))
        let common = Self.observations(.textBox, ["Creature — Human", "Flying", "When this creature enters the battlefield, draw a card."])
        let result = try Self.matcher.match(fields, observations: common)
        #expect(result.status != .identified)
    }

    /// A shock land's text, its name left out: every land of the cycle holds all its words but its
    /// land types. (Typed from the printed card, as OCR of its text box gives it.)
    static let shockLand = ["Land — Swamp Forest", "(T: Add B or G.)", "As this enters the battlefield, you may pay",
                            "2 life. If you don’t, it enters the battlefield tapped."]

    @Test("names whose texts differ in a word are told apart by that word when it was read")
    func dominatingWords() throws {
        let fields = ExtractedFields(title: ExtractedField(value: "Ee eae", confidence: 0.2, sources: ["Ee eae"]))
        let catalog = try SharedCardData.catalog.get().catalog
        let lines = Self.observations(.textBox, Self.shockLand)
        var off = Tuning()
        off.textMatching.dominatingWords = 0
        let without = try CardMatcher(catalog: catalog, tuning: off).match(fields, observations: lines)
        #expect(without.name == nil, "the premise: the other lands of the cycle score within the margin")
        let result = try Self.matcher.match(fields, observations: lines)
        #expect(result.name == "Overgrown Tomb", "\(result.status) \(result.candidates.map(\.printing.name))")
        // A word that only a rival holds: no name stands above the others.
        let mixed = Self.observations(.textBox, Self.shockLand + ["Mountain"])
        #expect(try Self.matcher.match(fields, observations: mixed).name == nil)
        // The same word found only by splitting a run of glued letters is a guess, which counts
        // against no name: the name stands.
        #expect(try catalog.searchText(lines: [(text: "Tapmountain", certainty: 0.8)]).guessed.contains("mountain"),
                "the premise: the glued run is split, and its land type is a guess")
        let glued = Self.observations(.textBox, Self.shockLand + ["Tapmountain"])
        #expect(try Self.matcher.match(fields, observations: glued).name == "Overgrown Tomb")
    }

    /// Real OCR lines (with their confidences) of the text box of a 1994 Mishra's Factory in a
    /// toploader, its grey title unread: `CARDSCAN_TRACE=1 cardscan identify` of the `q40` copy of
    /// `esbillyjack/uploads_backup/scan_138_….jpg`.
    static let factory: [(String, Double)] = [
        ("Se >", 0.33), ("258 ace : ve Sn Wess 8 Be 5", 0.25), ("ei See Pe.", 0.17), ("‘Tap to add ] Colorless mana to", 0.88),
        ("Wea Pool or Sive any Assembly", 0.70), ("Worker *+Y/+1 until €nd of turn.", 0.66), ("ie Mishra’s Factory becomes an", 0.86),
        ("Assembly Worker, a 2/2 artifact", 0.96), ("| Creature, until end of turn. Assem-", 0.83),
        ("+) bly Worker is still considered a land /", 0.85), (") as well. iE", 0.53)]

    @Test("a card whose text names it, read naming it: that name among the close ones, not a card of the same words")
    func namedInItsText() throws {
        let fields = ExtractedFields(title: ExtractedField(value: "ef A", confidence: 0.2, sources: ["ef A"]))
        func lines(_ l: [(String, Double)]) -> [CardObservation] {
            l.map { CardObservation(region: .textBox, observation: TextObservation(text: $0.0, confidence: $0.1, boundingBox: NormalizedRect(x: 0, y: 0, width: 1, height: 0.05))) }
        }
        let without = try Self.matcher.match(fields, observations: lines(Self.factory.filter { !$0.0.contains("Factory") }))
        #expect(without.name == nil, "the premise: without its name the words fit Urza's Factory and Assembly-Worker too")
        let result = try Self.matcher.match(fields, observations: lines(Self.factory))
        #expect(result.name == "Mishra's Factory" && result.method == "text+name", "\(result.method) \(result.candidates.map(\.printing.name))")
        #expect(result.status == .ambiguous, "its reprints share the text: the printing stays open")
        // `Assembly Worker` is read too, and the card of that name has it in its text, but as its type.
        let catalog = try SharedCardData.catalog.get().catalog
        let found = try catalog.searchText(lines: Self.factory, limit: 40).matches
        #expect(found.contains { $0.printing.name == "Assembly-Worker" } && !found.contains { $0.printing.name == "Assembly-Worker" && $0.namesItself })
        #expect(found.contains { $0.printing.name == "Mishra's Factory" && $0.namesItself })
        // A text naming another card (Urza's Tower names the Mine and the Power-Plant) names neither.
        let tower = try catalog.searchText("Land — Urza's Tower\nT: Add C. If you control an Urza's Mine and an Urza's Power-Plant, add CCC instead.")
        #expect(!tower.matches.contains { $0.namesItself }, "\(tower.matches.filter(\.namesItself).map(\.printing.name))")
    }

    @Test("a basic land's type line names the land but no printing, even where one reprint's flavor text holds its name")
    func basicLandText() throws {
        // Real reads of an Origins Forest copy cut at the bottom (`nobottom`): the type line only;
        // the European Land Program Forest's flavor text says `forest` too.
        let title = ExtractedField(value: "Forest", confidence: 0.9, sources: ["Forest"])
        let typeLine = Self.observations(.textBox, ["Basic Land — Forest", "a", "|"])
        let bare = try Self.matcher.match(ExtractedFields(title: title), observations: typeLine)
        #expect(bare.name == "Forest" && bare.status == .ambiguous, "\(bare.status) \(bare.card.map { "\($0.setCode) \($0.collectorNumber)" } ?? "")")
        // A misread collector line (`73/398 C`: no Forest is printed in a set of that size, nor is
        // any a common of its own rarity letter) picks no printing by its number either.
        var misread = ExtractedFields(title: title)
        misread.collectorNumber = ExtractedField(value: "73", confidence: 0.5, sources: ["73/398 C"])
        misread.setSize = ExtractedField(value: 398, confidence: 0.5, sources: ["73/398 C"])
        misread.rarity = ExtractedField(value: "C", confidence: 0.5, sources: ["73/398 C"])
        misread.frameEra = .classic2003
        let noisy = try Self.matcher.match(misread, observations: typeLine)
        #expect(noisy.name == "Forest" && noisy.status != .identified, "\(noisy.status) \(noisy.card.map { "\($0.setCode) \($0.collectorNumber)" } ?? "")")
    }

    @Test("a name the title alone suggested gives way to the one the text names on its own; the printing stays open")
    func textOverTitleAlone() throws {
        // Real reads of the `half` copy of `thaen/single/sample-canyon-wildcat.jpg`: the title
        // band read `Le Wildcat`, which the reader snapped to the name `Wildcall`.
        let fields = ExtractedFields(title: ExtractedField(value: "Wildcall", confidence: 0.54, sources: ["Le Wildcat", "Le Wildcat @54"]))
        let titleAlone = try Self.matcher.match(fields)
        #expect(titleAlone.name == "Wildcall" && titleAlone.method.hasPrefix("title-only"), "the premise: \(titleAlone.method) \(titleAlone.name ?? "-")")
        let lines = Self.observations(.textBox, [
            "{| Creature — Cat e }", "$ £", "4 Mountainwalk (This creature is ‘", "Wy unblockable as long as defending player",
            "controls a Mountain.) uw", "*,", "a In the warrior kingdom of Keld, the cats @", "4 used in the hunt are prized for their ci",
            "4 tracking sense and ability to climb walls. (3"])
        let result = try Self.matcher.match(fields, observations: lines)
        #expect(result.name == "Canyon Wildcat" && result.status == .ambiguous, "\(result.status) \(result.method) \(result.name ?? "-")")
        // Text of one common word does not outweigh the title.
        let weak = try Self.matcher.match(fields, observations: Self.observations(.textBox, ["Creature — Cat", "tae"]))
        #expect(weak.name == "Wildcall", "\(weak.status) \(weak.name ?? "-")")
    }

    @Test("a name the collector lines alone gave (a foreign title, no rarity) gives way to the one the text names on its own")
    func textOverCollectorLinesAlone() throws {
        var fields = ExtractedFields(title: ExtractedField(value: "Cachorro felidar", confidence: 0.8, sources: ["Cachorro felidar"]))
        // The collector lines as `026/274` over `BFZ • ES` read (a digit misread), without the rarity.
        (fields.setCode, fields.collectorNumber) = (ExtractedField(value: "bfz", confidence: 0.8, sources: ["BFZ • ES"]),
                                                    ExtractedField(value: "26", confidence: 0.8, sources: ["026/274"]))
        (fields.setSize, fields.language) = (ExtractedField(value: 274, confidence: 0.8, sources: ["026/274"]),
                                             ExtractedField(value: "es", confidence: 0.8, sources: ["BFZ • ES"]))
        let linesAlone = try Self.matcher.match(fields)
        #expect(linesAlone.method == "exact" && linesAlone.status == .ambiguous && linesAlone.name != nil && linesAlone.name != "Felidar Cub",
                "the premise: a misread number names another card of the set, not identified: \(linesAlone.method) \(linesAlone.name ?? "-")")
        let result = try Self.matcher.match(fields, observations: Self.observations(.textBox, Self.textBox))
        #expect(result.name == "Felidar Cub" && result.status == .ambiguous, "\(result.status) \(result.method) \(result.name ?? "-")")
    }

    @Test("the copyright year is read from a credits line, not from other numbers")
    func copyrightYear() {
        #expect(TextEvidence.copyrightYear(["™ & © 2015 Wizards of the Coast"]) == 2015)
        #expect(TextEvidence.copyrightYear(["Illus. Dan Frazier © 1993 Wizards"]) == 1993)
        #expect(TextEvidence.copyrightYear(["025/274 C", "© 1993-1995 Wizards"]) == 1993)
        #expect(TextEvidence.copyrightYear(["025/274 C", "BFZ • EN 2015"]) == nil, "no © nor Wizards")
        #expect(TextEvidence.copyrightYear(["© 1234 Wizards"]) == nil)
    }

    /// Real OCR lines of a 1999 Quicksilver Amulet in a binder pocket (`esbillyjack/uploads_backup/scan_164_….jpg`,
    /// a place proposed beside the cards read): its title line read `Duichsilver Aevuler`, whose
    /// last word, read less surely, the title cleaning dropped as it drops mana symbols.
    static let amulet = ["| 4, @: Choose a creature card in your", "hand aed put that creeture into play,",
                         "\"Wonderful! Vou get a lien ow your fier", "oy Now par a back.”"]

    @Test("a title that lost its last word to the cleaning agrees with the text by its whole line")
    func wholeTitleLine() throws {
        let lines = Self.observations(.textBox, Self.amulet)
        let cut = ExtractedFields(title: ExtractedField(value: "Duichsilver", confidence: 0.28, sources: ["Duichsilver"]))
        #expect(try Self.matcher.match(cut, observations: lines).name == nil, "the premise: the text alone leads by too little")
        let whole = ExtractedFields(title: ExtractedField(value: "Duichsilver", confidence: 0.28, sources: ["Duichsilver", "Duichsilver Aevuler"]))
        let result = try Self.matcher.match(whole, observations: lines)
        #expect(result.name == "Quicksilver Amulet" && result.method == "title+text", "\(result.status) \(result.method) \(result.candidates.map(\.printing.name))")
    }

    /// Real OCR lines of a Revised Sol Ring's text box, read turned the other way up on a place
    /// proposed beside the cards of a toploader page (`esbillyjack/uploads_backup/scan_150_….jpg`).
    static let solRing = ["ys ele , Re.", "2: Add 2 colorless mana to", "your mana pool. This ability", "is played as an interrupt."]

    @Test("texts holding the same words are told apart by the figures read (Sol Ring's `Add 2` against Channel's `add 1`)")
    func figures() throws {
        #expect(Set(TextEvidence.figures(in: "2: Add 2 colorless mana; Draw X cards (X-Cards), 1/1, 47) x10 100").map(\.value)) == ["2", "x", "1", "47"])
        // Revised's own file: its printed wording (Scryfall's bulk keeps today's, `{T}: Add {C}{C}.`).
        try SharedCardData.withCatalog(of: [SharedCardData.setFile("3ED")]) { catalog in
            let matcher = CardMatcher(catalog: catalog)
            let noise = ExtractedFields(title: ExtractedField(value: "nee My ees", confidence: 0.34, sources: ["nee My ees"]))
            let result = try matcher.match(noise, observations: Self.observations(.textBox, Self.solRing))
            #expect(result.name == "Sol Ring" && result.method == "text", "\(result.status) \(result.method) \(result.candidates.map(\.printing.name))")
            // Without the figures the words alone tie: Channel's text holds every one of them.
            let words = Self.solRing.map { $0.replacingOccurrences(of: "2", with: "") }
            #expect(try matcher.match(noise, observations: Self.observations(.textBox, words)).name == nil)
            // A figure that only the other card's text holds, beside a word it holds it beside
            // (`of 1`; no word the index keeps is added): neither is named.
            let other = Self.solRing.map { $0.replacingOccurrences(of: "your mana pool.", with: "your mana pool of 1.") }
            let both = try matcher.match(noise, observations: Self.observations(.textBox, other))
            #expect(both.name == nil, "\(both.status) \(both.method) \(both.candidates.map(\.printing.name))")
        }
    }

    /// Real OCR lines of a saga's text box and credits, with their confidences: the `notitle` copy
    /// of `thaen/single/sample-michikos-reign-of-truth.jpg` (`scripts/robustness.sh`; its title bar
    /// painted over), read without Tesseract's inverted retry. The art beside the text gave `4`.
    static let sagaText: [(String, Double)] = [("_ Exile this Saga, Ray YY", 0.59), ("then return it to S Mh", 0.53),
                                               ("the battlefield Vi", 0.80), ("‘ transformed SS A\\\\4", 0.23),
                                               ("under your SN 4", 0.68), ("control. \\", 0.82), ("/O", 0.44)]

    @Test("a figure counts where the text prints it beside a word read beside it, not a digit read in the art")
    func figuresInContext() throws {
        let noise = try #require(TextEvidence.figures(in: "under your SN 4").first)
        let printed = try #require(TextEvidence.figures(in: "with mana value 4 or greater").first)
        #expect(!noise.isPrinted(as: printed))
        let read = try #require(TextEvidence.figures(in: "2: Add 2 coloriess").last)
        #expect(read.isPrinted(as: try #require(TextEvidence.figures(in: "Add 2 colorless mana").first)), "one word beside it is enough")
        // Every saga's reminder text holds these words; the `4` told one saga (whose text has
        // `mana value 4 or greater`) from the others, and the copy was identified as it.
        let lines = Self.sagaText.map { text, confidence in
            CardObservation(region: .textBox, observation: TextObservation(text: text, confidence: confidence,
                                                                           boundingBox: NormalizedRect(x: 0, y: 0, width: 1, height: 0.05)))
        } + Self.observations(.credits, ["Enchantment — Saga"])
        let fields = ExtractedFields(title: ExtractedField(value: "SOovy som", confidence: 0.2, sources: ["SOovy som"]))
        let result = try Self.matcher.match(fields, observations: lines)
        #expect(result.status != .identified, "\(result.method) \(result.card?.name ?? "-")")
    }

    @Test("a partial title is whole words of the name")
    func partialTitleWords() {
        #expect(CardMatcher.isPartialTitle("Wurm", of: "Broodhunter Wurm", minimumLetters: 4))
        #expect(CardMatcher.isPartialTitle("the Infinite Gyre", of: "Ulamog, the Infinite Gyre", minimumLetters: 4))
        #expect(!CardMatcher.isPartialTitle("Wur", of: "Broodhunter Wurm", minimumLetters: 4), "too short")
        #expect(!CardMatcher.isPartialTitle("hunter", of: "Broodhunter Wurm", minimumLetters: 4), "part of a word")
        #expect(CardMatcher.isPartialTitle("dhunter Wurm", of: "Broodhunter Wurm", minimumLetters: 4), "its start cut off")
        #expect(CardMatcher.isPartialTitle("quitect's Defenses", of: "Aquitect's Defenses", minimumLetters: 4))
        #expect(!CardMatcher.isPartialTitle("dhunter Wur", of: "Broodhunter Wurm", minimumLetters: 4), "its end cut too")
        #expect(!CardMatcher.isPartialTitle(nil, of: "Broodhunter Wurm", minimumLetters: 4))
    }
}

/// A set code read below a title painted over, with the number garbled: real reads of the `notitle`
/// copy of `alexandrearpin/photos/busy_background/dtk_gurmag_drowner_2.JPG`.
@Suite("Text evidence with a set code read (real OCR lines)", .tags(.sharedData), .needsSharedData)
struct TextEvidenceSetCodeTests {
    static let textBox = ["Creature — Naga Wizard v", "ATCC LL TL", "Exploit (When re enters the", "batulefield, you ma ice @ creature.)",
                          "When Gurma met exploits a", "creature, look e top four cards", "of your library. Pit one of them into",
                          "your hand and rest into your", "graveyard."]

    static func fields(setCode: String?) -> ExtractedFields {
        var fields = ExtractedFields(title: ExtractedField(value: "en ae", confidence: 0.33, sources: ["en   ae"]))
        if let setCode {
            fields.setCode = ExtractedField(value: setCode, confidence: 0.46, sources: ["\(setCode.uppercased()) + Em @ Leet Boewrs7"])
            fields.language = ExtractedField(value: "en", confidence: 0.46, sources: ["\(setCode.uppercased()) + Em @ Leet Boewrs7"])
        }
        return fields
    }

    @Test("the set code read picks, among the printings the text names, the one of its set")
    func setCodePicksPrinting() throws {
        let matcher = try TextEvidenceTests.matcher
        let text = TextEvidenceTests.observations(.textBox, Self.textBox)
        let open = try matcher.match(Self.fields(setCode: nil), observations: text)
        #expect(open.status == .ambiguous && Set(open.candidates.map(\.printing.setCode)) == ["dtk", "mb1"],
                "the premise: the text names the card, not its printing (\(open.status) \(open.candidates.map(\.printing.setCode)))")
        let exact = try matcher.match(Self.fields(setCode: "dtk"), observations: text)
        #expect(exact.status == .identified && exact.card?.setCode == "dtk" && exact.card?.collectorNumber == "57",
                "\(exact.status) \(exact.confidence) \(exact.method)")
        // Read a letter off (`OTK`): the nearest code is the set's, and counts by its score.
        let near = try matcher.match(Self.fields(setCode: "otk"), observations: text)
        #expect(near.candidates.first?.printing.setCode == "dtk" && near.confidence < exact.confidence,
                "\(near.status) \(near.confidence) \(near.candidates.map(\.printing.setCode))")
        // A set's code that prints the name in none of its printings narrows nothing, not even
        // where a code one letter off (KTK for DTK) would.
        for code in ["bfz", "ktk"] {
            let other = try matcher.match(Self.fields(setCode: code), observations: text)
            #expect(other.status != .identified && Set(other.candidates.map(\.printing.setCode)) == ["dtk", "mb1"],
                    "\(code): \(other.status) \(other.candidates.map(\.printing.setCode))")
        }
    }
}

/// A card newer than the catalog, its title read cleanly, whose rules text is nearly another
/// card's: real reads of a card of `thaen/multi/photo-test.jpg` (tilted 30°, as the several-card
/// copies are), an Aura whose text (`Flash`, `Enchant creature you control`, `When this Aura
/// enters, enchanted creature gains hexproof until end of turn`) is an older Aura's but for its
/// name and numbers.
@Suite("Text evidence against a title the catalog does not hold (real OCR lines)", .tags(.sharedData), .needsSharedData)
struct TextEvidenceUnknownTitleTests {
    /// The text box's lines and the credits band's (placed on the box's last lines), with
    /// Tesseract's confidence for each.
    static let textBox: [(String, Double)] = [("ichantment — Aura ©", 0.88), ("oo Rn ARS ARS ES", 0.21), ("lash", 0.96),
                                             ("nchant creature you control", 0.95), ("/hen this Aura enters, enchanted", 0.92),
                                             ("‘eature gains hexproof until end of", 0.89), ("rn. (It can’t be the target of spells or", 0.91),
                                             ("PS O0 0706 8a) Pee eee ee ee eS ee", 0.11)]
    static let credits: [(String, Double)] = [("abilities your opponents control. )", 0.70), ("Enchanted creature gets +1/+2.", 0.94)]

    static func fields(title: String) -> ExtractedFields {
        ExtractedFields(title: ExtractedField(value: title, confidence: 0.9, sources: [title]))
    }

    @Test("the text names a card alone when the title is noise, not when it is a clean name the catalog lacks")
    func cleanUnknownTitle() throws {
        // Both bulk files and MTGJSON's set files, as the copies were matched with (the word
        // index's statistics over them put the older Aura among the text's candidates).
        try SharedCardData.withCatalog(of: [SharedCardData.scryfall2019, SharedCardData.mtgjsonAll] + SharedCardData.setFiles()) { catalog in
            let matcher = CardMatcher(catalog: catalog)
            let text = TextEvidenceTests.observations(.textBox, Self.textBox) + TextEvidenceTests.observations(.credits, Self.credits)
            let noise = try matcher.match(Self.fields(title: "oo Rn ARS"), observations: text)
            #expect(noise.status == .identified, "the premise: the text alone names a card (\(noise.status) \(noise.card?.name ?? "-"))")
            let named = noise.card?.name ?? "-"
            // Read whole, and with its start cut off (as the tilted copy made by
            // `robustness.sh --kind photo_multi` reads it).
            for title in ["Aquitect's Defenses", "quifect's Defenses"] {
                let unknown = try matcher.match(Self.fields(title: title), observations: text)
                #expect(unknown.status == .ambiguous, "\(title): \(unknown.status) \(unknown.card?.name ?? "-") \(unknown.confidence)")
                #expect(unknown.candidates.first?.printing.name == named && unknown.confidence < noise.confidence,
                        "\(title): the text's card stays the candidate, below an identified card's confidence: \(unknown.confidence)")
            }
            // The text's own card's title read a letter off, or with its start cut off: no veto.
            for title in [named.replacingOccurrences(of: "t", with: "l"), String(named.dropFirst(3))] {
                let agreeing = try matcher.match(Self.fields(title: title), observations: text)
                #expect(agreeing.status == .identified && agreeing.card?.name == named, "\(title): \(agreeing.status) \(agreeing.confidence)")
            }
        }
    }

    @Test("a title shaped like an English card name: words capitalised, none of noise, a type line's or a credit's")
    func titleShape() {
        for title in ["Aquitect's Defenses", "Ashling, Rekindled", "Sword of Hearth and Home", "Blood-Cursed Knight", "Of One Mind",
                      "Nissa, Who Shakes the World", "quitect's Defenses", "Wear // Tear"] {
            #expect(CardMatcher.looksLikeTitle(title) == (title != "Wear // Tear"), "\(title)")
        }
        for title in ["Dade, AR On, ll", "Zangano cultivador", "Rompecaras profesional", "Opt", "Legendary Creature",
                      "Illus. Mark Tedin", "Beau butt ee ba", "Rae SFDC", "Teepe", "Fireball 2", "ee Defenses", "quitect's", "target creature Wall",
                      "lllus. Mark Tedin", "llus. Mark Tedin", "ichantment Aura", "ature Human Wizard", "rntx Defenses"] {
            #expect(!CardMatcher.looksLikeTitle(title), "\(title)")
        }
    }
}
