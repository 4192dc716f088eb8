import CardScanOCR
import TestSupport
import Testing

@testable import CardReader

@Suite("Collector line parser")
struct CollectorLineParserTests {
    @Test("2015 style: number/size rarity over SET • LANG, bullet misread")
    func style2015() {
        for bullet in ["•", "*", "«", "¢", "+", "°", ""] {
            let r = CollectorLineParser.parse(lines: ["171/274 C", "BFZ \(bullet) EN \(bullet) SVETLIN VELINOV"])
            #expect(r.number == "171")
            #expect(r.setSize == 274)
            #expect(r.rarity == "C")
            #expect(r.setCode == "bfz")
            #expect(r.language == "en")
            #expect(r.era == .modern2015)
        }
    }

    @Test("2023 style: four-digit number, leading zeros dropped")
    func style2023() {
        let r = CollectorLineParser.parse(lines: ["0107 M", "DMU • EN ~ Jane Doe"])
        #expect(r.number == "107")
        #expect(r.printedNumber == "0107")
        #expect(r.setSize == nil)
        #expect(r.rarity == "M")
        #expect(r.setCode == "dmu")
        #expect(r.era == .modern2023)
    }

    @Test("2023 style with the space before the rarity lost: `0107M`; a year glued to a letter is no number")
    func style2023Glued() {
        let r = CollectorLineParser.parse(lines: ["0107M", "DMU • EN ~ Jane Doe"])
        #expect(r.number == "107" && r.printedNumber == "0107" && r.rarity == "M" && r.setCode == "dmu")
        #expect(CollectorLineParser.parse(lines: ["™ & © 2022C Wizards"]).number == nil)
        #expect(CollectorLineParser.parse(lines: ["0107X"]).number == nil)
        #expect(CollectorLineParser.parse(lines: ["1171S"]).number == nil, "a special rarity glued on: too like noise")
        #expect(CollectorLineParser.parse(lines: ["O1O7M"]).number == nil, "letters for digits glued to a letter: too like noise")
    }

    @Test("four digits alone lead a line as a number only when zero-padded: `1990` is a year, `0107` a number")
    func bareFourDigits() {
        #expect(CollectorLineParser.parse(lines: ["0107", "DMU • EN"]).number == "107")
        #expect(CollectorLineParser.parse(lines: ["1990"]).number == nil)
        #expect(CollectorLineParser.parse(lines: ["2000 Wizards"]).number == nil)
        #expect(CollectorLineParser.parse(lines: ["1234 R"]).number == "1234", "with its rarity letter a number from 1000 up stands")
    }

    @Test("2003 style: number/size inside the copyright line, year ignored")
    func style2003() {
        let r = CollectorLineParser.parse(lines: ["™ & © 2003 Wizards of the Coast, Inc. 181/350"])
        #expect(r.number == "181")
        #expect(r.setSize == 350)
        #expect(r.era == .classic2003)
    }

    @Test("a zero-padded number with its set size is a 2015-on frame's, also where its set code line was not read")
    func paddedNumberEra() {
        #expect(CollectorLineParser.parse(lines: ["042/184"]).era == .modern2015)
        #expect(CollectorLineParser.parse(lines: ["042/184 C", "*$P St"]).era == .modern2015)
        #expect(CollectorLineParser.parse(lines: ["42/184"]).era == .classic2003, "unpadded, no set code: where older frames print it")
    }

    @Test("OCR damage: letters for digits, a slash read as 7, foreign languages")
    func damage() {
        #expect(CollectorLineParser.parse(lines: ["O25/274 C"]).number == "25")
        #expect(CollectorLineParser.parse(lines: ["1577 274 C"]).number == "157")
        #expect(CollectorLineParser.parse(lines: ["233/264 VU"]).setSize == 264)
        #expect(CollectorLineParser.parse(lines: ["081/185 c"]).rarity == "C")
        #expect(CollectorLineParser.parse(lines: ["001/18s M"]).rarity != "S")
        #expect(CollectorLineParser.parse(lines: ["ORI+SP"]).language == "es")
        #expect(CollectorLineParser.parse(lines: ["KLD • JP"]).language == "ja")
        #expect(CollectorLineParser.parse(lines: ["BFZEN"]).setCode == "bfz")
    }

    @Test("the slash lost inside one token: six digits of a padded number and its size, seven around a slash read as a digit")
    func slashLostInToken() {
        func parsed(_ line: String) -> String? {
            let r = CollectorLineParser.parse(lines: [line])
            return r.number.map { "\($0)/\(r.setSize.map(String.init) ?? "-") \(r.rarity ?? "-")" }
        }
        #expect(parsed("171274C") == "171/274 C")
        #expect(parsed("016185 U") == "16/185 U")
        #expect(parsed("1717274 C") == "171/274 C")
        #expect(parsed("577264 C") == "57/264 C", "three and three make no number of its size: two digits and the slash")
        #expect(parsed("171274") == nil, "no rarity letter: too like a misread line (`2737372 0` for `271/272 L`)")
        #expect(parsed("2737372 0") == nil)
        #expect(CollectorLineParser.parse(lines: ["171274C", "BFZ • EN"]).era == .modern2015)
        #expect(parsed("™ & © 2015 Wizards 171274") == nil, "a copyright line")
        #expect(parsed("l71274C") == nil, "letters taken for digits glued: too like noise")
        #expect(parsed("1712274 C") == nil, "seven digits with no slash-like digit between")
        #expect(parsed("987012 C") == nil, "no number of its size either way")
        #expect(parsed("123045C") == nil && parsed("981025 C") == nil, "a set size is not printed with a leading zero")
    }

    @Test("a set line's printed shape: capitals, something between, a language code alone")
    func setLineShape() {
        for line in ["BFZ • EN", "DMU « EN & Rene Example", "LTR * EN o Kim Mock", "OTK + DE", "M19 • EN", "BFZ + EN¢ jane Doe"] {
            #expect(CollectorLineParser.hasSetLineShape(line), "\(line)")
        }
        for line in ["Paces ena", "N of Rene Examole", "BFZEN", "the end", "™ & © 2015 Wizards", "123 • EN", "Bik * OE Sem"] {
            #expect(!CollectorLineParser.hasSetLineShape(line), "\(line)")
        }
    }

    @Test("no number on pre-1998 cards: nothing invented from artist or copyright text")
    func nothing() {
        let r = CollectorLineParser.parse(lines: ["Illus. Mark Poole", "© 1993 Wizards of the Coast"])
        #expect(r.number == nil)
        #expect(r.setCode == nil)
        #expect(r.era == .unknown)
    }

    @Test("a copyright line tells an older frame, misread or not; a lone © does not")
    func copyrightLine() {
        for line in ["™ & © 1993-2011 Wizards of the Coast LLC", "* & & 1995-2006 Wienrds ofthe Goast",
                     "106 Wigards ofthe Gx vast", "© 2003 Wizards"] {
            #expect(CollectorLineParser.isCopyrightLine(line), "\(line)")
        }
        for line in ["171/274 C", "BFZ • EN • SVETLIN VELINOV", "©", "001/185 M", "2015"] {
            #expect(!CollectorLineParser.isCopyrightLine(line), "\(line)")
        }
    }

    @Test("a language is kept only beside a set code the vocabulary accepts")
    func languageNeedsSetCode() {
        func observation(_ text: String, y: Double) -> CardObservation {
            CardObservation(region: .collector, observation: TextObservation(
                text: text, confidence: 0.9, boundingBox: NormalizedRect(x: 0.05, y: y, width: 0.3, height: 0.015)))
        }
        let known: @Sendable (String, Int?) -> String? = { code, _ in code == "bfz" ? "bfz" : nil }
        let extractor = FieldExtractor(resolveSetCode: known, resolveTitle: nil)
        // Junk whose tail parses as "ERTI • ES": the code is rejected, and its language with it.
        let junk = extractor.extract([observation("a ite ERTIES", y: 0.03)])
        #expect(junk.setCode == nil)
        #expect(junk.language == nil)
        let real = extractor.extract([observation("171/274 C", y: 0.05), observation("BFZ • EN", y: 0.03)])
        #expect(real.setCode?.value == "bfz")
        #expect(real.language?.value == "en")
    }

    @Test("a title with mana symbols read as words resolves to the name inside it")
    func titleInsideJunk() {
        let names = ["Reach of Shadows", "Disperse", "Gurmag Drowner"]
        let resolve: (String) -> String? = { read in names.first { $0.lowercased() == read.lowercased() } }
        #expect(FieldExtractor.resolve("Reach of Shadows PU ae Be", with: resolve) == "Reach of Shadows")
        #expect(FieldExtractor.resolve("Ss Disperse", with: resolve) == "Disperse")
        #expect(FieldExtractor.resolve("Gurmag Drowner", with: resolve) == "Gurmag Drowner")
        // Most of the line is something else: no name is made up from a small part of it.
        #expect(FieldExtractor.resolve("Disperse the Wandering Hordes", with: resolve) == nil)
        #expect(FieldExtractor.resolve("ae ee", with: resolve) == nil)
    }

    @Test("the title cleaner drops mana symbols read as text at the ends, not parts of names")
    func titleCleaner() {
        #expect(TitleCleaner.clean("Sheoldred, the Apocalypse (2)f") == "Sheoldred, the Apocalypse")
        #expect(TitleCleaner.clean("{B} Dark Ritual 2B") == "Dark Ritual")
        #expect(TitleCleaner.clean("( Gideon's Reproach") == "Gideon's Reproach")
        #expect(TitleCleaner.clean("(Sandstone Bridge") == "Sandstone Bridge", "a frame edge glued to the name")
        #expect(TitleCleaner.clean("Borrowing 100,000 Arrows") == "Borrowing 100,000 Arrows")
        #expect(TitleCleaner.clean("Kongming, \"Sleeping Dragon\"") == "Kongming, Sleeping Dragon")
    }

    @Test("a title line whose end word the cleaning drops by its confidence names its card whole")
    func titleNamedWhole() {
        let names = ["Instill Energy", "Counterspell", "Opt"]
        let resolve = { (text: String) in names.first { $0.lowercased() == text.lowercased() } }
        func line(_ text: String, _ confidences: [Double]) -> TextObservation {
            TextObservation(text: text, confidence: 0.67, boundingBox: NormalizedRect(x: 0, y: 0, width: 1, height: 1), characterConfidences: confidences)
        }
        // A pale title as Tesseract read it in a binarised band: its last word's letters a little
        // less sure (0.92–0.97) than its first's (~0.99); the cleaning drops that word.
        let pale = line("Instill Energy", [0.991, 0.987, 0.995, 0.990, 0.990, 0.993, 0.991, 0.965, 0.994, 0.969, 0.920, 0.950, 0.955])
        #expect(TitleCleaner.clean(pale.text, characterConfidences: pale.characterConfidences) == "Instill")
        let named = FieldExtractor.named(pale, by: resolve)
        #expect(named.read == "Instill Energy" && named.name == "Instill Energy")
        // Debris read less surely is still dropped when what is left names the card.
        let debris = FieldExtractor.named(line("Counterspell Be", Array(repeating: 0.95, count: 12) + [0.4, 0.5]), by: resolve)
        #expect(debris.read == "Counterspell" && debris.name == "Counterspell")
        // A whole line shorter than `wholeLineLetters` is not tried (a vocabulary that would snap
        // it to a name): chance, not a name.
        let short = FieldExtractor.named(line("Opt ee", [0.99, 0.99, 0.99, 0.9, 0.9])) { $0 == "Opt ee" ? "Opt" : nil }
        #expect(short.read == "Opt" && short.name == nil)
    }

    @Test("random and mutated input never crashes", arguments: [1, 2, 3, 4])
    func fuzz(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let alphabet = Array("0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz•*«¢+°©™&.,'-  \t|!OIlSZB★é漢")
        let seeds = ["171/274 C", "BFZ • EN", "0107 M", "© 2003 Wizards 181/350"]
        for _ in 0..<2000 {
            var line: [Character]
            if Bool.random(using: &rng) {
                line = (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            } else {
                line = Array(seeds.randomElement(using: &rng)!)
                for _ in 0..<Int.random(in: 1...4, using: &rng) where !line.isEmpty {
                    line[Int.random(in: 0..<line.count, using: &rng)] = alphabet.randomElement(using: &rng)!
                }
            }
            let r = CollectorLineParser.parse(lines: [String(line), String(line.reversed())])
            if let n = r.number { #expect(!n.isEmpty) }
            if let s = r.setCode { #expect((2...5).contains(s.count)) }
        }
        _ = TitleCleaner.clean(String((0..<200).map { _ in alphabet.randomElement(using: &rng)! }))
    }
}
