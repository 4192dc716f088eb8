import CardCatalog
import CardReader
import Foundation

/// The words printed on the card beyond its title and collector lines (type line, rules and
/// flavor text, artist, copyright year), searched in the catalog's word index: evidence for a
/// card whose title or collector lines were unreadable, and for the printing among reprints
/// (flavor text, artist and year differ between them).
struct TextEvidence {
    /// Candidate printings by their words, best first (`CardCatalog.searchText`).
    let matches: [TextMatch]
    /// The year of the copyright line (`© 1995 Wizards`), when read.
    let year: Int?
    /// Lines read.
    let lines: Int
    /// Whether the lines come from the whole photo (`CardBand.photo`) rather than one card's
    /// text box and credits: text of several cards mixed, where a name holding more of the words
    /// than another may hold them by chance.
    let fromPhoto: Bool
    /// The figures read (`figures(in:)`) in the text box's lines read surely (digits in a line
    /// of noise are noise: a text box read upside down gave `(2,` at 0.23).
    let figures: Set<Figure>
    /// Words known only from splitting a glued word (`TextSearchResult.guessed`).
    let guessed: Set<String>
    /// The text box's lines read surely, as read: each may be the card's type line
    /// (`CardMatcher.typeLineName`).
    let sureLines: [String]

    /// The text the reader read in the card's text box and credits, or nil when it read none.
    /// `sureCredits`: a credits line read less sure than this is searched only for its artist's
    /// name: a sparse read of that band also gives scraps of the art and frame (`Seer`, `Bee`),
    /// words of some card that only dilute the search. A line read surely is searched whole (the
    /// band of a card placed a little low holds the last line of flavor text). The copyright year
    /// is read from the whole lines either way.
    init?(_ observations: [CardObservation], catalog: CardCatalog, sureCredits: Double, sureLines: Double) throws {
        let lines = try observations.filter { $0.region.isCardText }.map { o -> (text: String, certainty: Double) in
            let text = o.region == .credits && o.observation.confidence < sureCredits
                ? try catalog.artistWords(in: o.observation.text).joined(separator: " ") : o.observation.text
            return (text, o.observation.confidence)
        }.filter { !$0.text.isEmpty }
        guard !lines.isEmpty, catalog.hasTextIndex else { return nil }
        self.lines = lines.count
        fromPhoto = observations.contains { $0.region == .photo }
        let found = try catalog.searchText(lines: lines, limit: 40)
        matches = found.matches
        guessed = found.guessed
        let sure = observations.filter { $0.region == .textBox && $0.observation.confidence >= sureLines }
        figures = sure.reduce(into: Set<Figure>()) { $0.formUnion(Self.figures(in: $1.observation.text)) }
        self.sureLines = fromPhoto ? [] : sure.map(\.observation.text)
        year = Self.copyrightYear(observations.filter { $0.region == .credits || $0.region == .photo }.map(\.observation.text))
    }

    /// A four-digit year from 1993 on in a copyright line (`™ & © 2015 Wizards`, `Illus. … © 1995`).
    static func copyrightYear(_ lines: [String]) -> Int? {
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        for line in lines where line.contains("©") || line.localizedCaseInsensitiveContains("wizards") {
            let digits = line.split(whereSeparator: { !$0.isNumber })
            if let year = digits.compactMap({ Int($0) }).first(where: { $0 >= 1993 && $0 <= thisYear }) { return year }
        }
        return nil
    }

    /// The best score of each card name among the matches, best first.
    var names: [(name: String, score: Double)] {
        var best: [String: Double] = [:]
        for m in matches { best[m.printing.name] = max(best[m.printing.name] ?? 0, m.score) }
        return best.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// How far the best name's score leads the next name's (the whole score when it is alone).
    func lead(of names: [(name: String, score: Double)]) -> Double {
        guard let top = names.first else { return 0 }
        return top.score - (names.count > 1 ? names[1].score : 0)
    }

    /// The words of the query the best printing of `name` holds.
    func wordSet(of name: String) -> Set<String> {
        Set(matches.first { $0.printing.name == name }.map { Array($0.matchedWords.keys) } ?? [])
    }

    /// Whether every other name scoring within `margin` of `name` holds only words that `name`
    /// holds too, and at least `extra` fewer (never when `extra` is 0). A word known only from
    /// splitting a glued word counts against no name (as in the search's scores): a rival
    /// holding one that `name` lacks still gives way.
    func dominates(_ name: String, within margin: Double, by extra: Int) -> Bool {
        guard extra > 0, let top = names.first(where: { $0.name == name }) else { return false }
        let held = wordSet(of: name)
        return names.filter { $0.name != name && top.score - $0.score < margin }.allSatisfy { rival in
            let theirs = wordSet(of: rival.name).filter { held.contains($0) || !guessed.contains($0) }
            return theirs.isSubset(of: held) && held.count - theirs.count >= extra
        }
    }

    /// Whether every other name scoring within `margin` of `name` is told apart from it by the
    /// figures read (numbers and a lone X: `Add 2 colorless`, `Draw X cards`), which the word
    /// index leaves out (under three characters): a figure read that `name`'s rules text holds
    /// and the rival's does not, and none read that only the rival's holds (`Add 2 colorless`
    /// against a rival's `add 1 colorless` whose text holds every word of the other's). A text
    /// holds a figure read when it prints it beside a word read beside it (`Figure.isPrinted`):
    /// a digit in a line of art and text (`under your SN 4`, read at 0.68) is in many texts.
    func figuresTellApart(_ name: String, within margin: Double) -> Bool {
        guard !self.figures.isEmpty, let top = names.first(where: { $0.name == name }) else { return false }
        func figures(of name: String) -> Set<Figure> {
            let printed = matches.filter { $0.printing.name == name }.flatMap { m in
                [m.printing.oracleText, m.printing.printedText].compactMap { $0 }.flatMap(Self.figures(in:))
            }
            return self.figures.filter { read in printed.contains { read.isPrinted(as: $0) } }
        }
        let mine = figures(of: name)
        let rivals = names.filter { $0.name != name && top.score - $0.score < margin }
        return !rivals.isEmpty && rivals.allSatisfy { rival in
            let theirs = figures(of: rival.name)
            return !mine.subtracting(theirs).isEmpty && theirs.isSubset(of: mine)
        }
    }

    /// A figure of a text (a number of one or two digits, or a lone X, lower case) with the
    /// words on either side of it in its line (nil at the line's ends).
    struct Figure: Hashable {
        var value: String
        var before: String?
        var after: String?

        /// Whether `printed` is this figure (as read) printed where it was read: the same figure
        /// beside one of the same words.
        func isPrinted(as printed: Figure) -> Bool {
            value == printed.value && ((before != nil && before == printed.before) || (after != nil && after == printed.after))
        }
    }

    /// The figures of a text (`Figure`), in order.
    static func figures(in text: String) -> [Figure] {
        let tokens = text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        return tokens.indices.filter { i in
            tokens[i] == "x" || (tokens[i].count <= 2 && tokens[i].allSatisfy(\.isNumber))
        }.map { i in
            Figure(value: tokens[i], before: i > 0 ? tokens[i - 1] : nil, after: i + 1 < tokens.count ? tokens[i + 1] : nil)
        }
    }

    /// Whether a printing of `name` was read named in its own rules text (`TextMatch.namesItself`).
    func namesItself(_ name: String) -> Bool {
        matches.contains { $0.printing.name == name && $0.namesItself }
    }

    /// How many distinct words of the query the best printing of `name` holds.
    func wordsFound(for name: String) -> Int {
        matches.filter { $0.printing.name == name }.map(\.matchedWords.count).max() ?? 0
    }

    /// What the text says of `printing` (its match, else the best match of its name, else the best match).
    func support(for printing: Printing?) -> TextSupport {
        let match = printing.flatMap { p in matches.first { $0.printing.id == p.id } ?? matches.first { $0.printing.name == p.name } } ?? matches.first
        let names = self.names
        return TextSupport(lines: lines, words: match.map { Array($0.matchedWords.keys).sorted() } ?? [], score: match?.score ?? 0,
                           copyrightYear: year, bestName: names.first?.name, lead: lead(of: names), fromPhoto: fromPhoto)
    }
}

extension CardMatcher {
    /// The card's printed words decide when the title and collector lines did not.
    ///
    /// The name: the text's best name, when it agrees with the title read (the whole title or a
    /// part of it, as a cut-off or half-read title gives), or on its own when it leads every other
    /// name clearly on several words; or the one name among the best that the text was read
    /// naming where that card's own text names it (`text+name`). The printing: among that name's printings found by the text,
    /// the best-scored ones (flavor text and artist differ between reprints), narrowed by the
    /// set code, number, set size, rarity, frame era and border read, the copyright year and the
    /// capture day. One printing left is `identified`; several are `ambiguous` between them (the name is
    /// known). Confidences are the tuning's (`MatcherTextTuning`), chosen so that no identified
    /// card was wrong on the shared photos and their copies.
    func textRule(_ e: Evidence, _ text: TextEvidence, _ choice: TextChoice?) throws -> MatchResult? {
        let t = tuning
        guard let choice else { return nil }
        let (top, margin, nameByText, selfNamed, byTypeLine) = (choice.top, choice.margin, choice.byText, choice.selfNamed, choice.byTypeLine)
        let titleAgrees = e.titleNames(top.name, minimumScore: t.titleAgreementScore)
            || Self.isPartialTitle(e.title, of: top.name, minimumLetters: t.partialTitleLetters)
        let nameWithTitle = titleAgrees && top.score >= t.withTitleScore && (margin >= t.withTitleMargin || selfNamed)
        guard nameByText || nameWithTitle || selfNamed || byTypeLine else { return nil }

        // Every printing of the name (the search returns only its best few) that holds the words
        // telling printings apart that the best match holds: words of its flavor text and artist
        // only. A word its name, type line or rules text holds too is on every printing (a basic
        // land's type, in one reprint's flavor text as well, tells none apart).
        let ofName = text.matches.filter { $0.printing.name == top.name }
        guard let bestMatch = ofName.first else { return nil }
        let telling = Set(bestMatch.matchedWords.filter { $0.value.isSubset(of: [.flavor, .artist]) }.keys)
        let all = try catalog.printings(named: top.name, language: e.language ?? "en")
        var printings = (all.isEmpty ? ofName.map(\.printing) : all).filter { p in
            telling.isSubset(of: Self.words(in: [p.flavorText, p.artist].compactMap { $0 }.joined(separator: " ")))
        }
        if printings.isEmpty { printings = [bestMatch.printing] }
        printings = e.possible(printings).printings
        // Collector lines that fit none of the name's printings were misread: the number and the
        // set code read with them do not pick one either.
        let narrowed = e.narrow(printings, catalog: catalog)
        if !narrowed.isEmpty { printings = narrowed }
        // A set code read that names some of these printings' sets picks those, before the
        // number (a garbled number line can hold a legible set code line, and a number misread
        // may fit another set's printing); a near code as sure as `numberFromTitle` asks, counted
        // as `exact` counts it: by the square root of its score.
        var setTrust = 1.0
        if !narrowed.isEmpty, printings.count > 1, let inSet = e.inSetRead(printings, minimumNearScore: rules.numberFromTitleSet) {
            printings = inSet.printings
            setTrust = inSet.score.squareRoot()
        }
        if !narrowed.isEmpty, let number = e.number {
            let numbered = printings.filter { $0.collectorNumber == number }
            if !numbered.isEmpty { printings = numbered }
        }
        if let year = text.year {
            let dated = printings.filter { p in p.releasedAt.flatMap { Int($0.prefix(4)) }.map { abs($0 - year) <= 1 } ?? false }
            if !dated.isEmpty { printings = dated }
        }
        printings = Self.uniqued(printings)
        let method = nameWithTitle ? "title+text" : nameByText ? "text" : byTypeLine ? "type-line" : "text+name"
        let nameConfidence = ((nameByText || byTypeLine) && !nameWithTitle ? t.textAloneConfidence : t.withTitleConfidence) * setTrust
        // A title read cleanly as a name the catalog does not hold (a card newer than the catalog)
        // says the text names another card with words like its own: the text does not decide.
        // (Not when the text was read naming the catalog's card itself, nor for a card printed
        // in another language, whose words are capitalised otherwise.)
        let unknownTitle = !titleAgrees && !selfNamed && e.language == "en" && e.titleIsNoise && Self.looksLikeTitle(e.title)
        if printings.count == 1, !unknownTitle {
            return result(printings[0], confidence: nameConfidence, alternatives: ofName.map(\.printing), method: method)
        }
        // (Not decided: no candidate scores as an identified card would.)
        let shares = Double(unknownTitle ? max(2, printings.count) : printings.count)
        return ambiguous(printings.map { MatchCandidate(printing: $0, score: nameConfidence / shares) }, method: method)
    }

    /// The name the text points to, and whether it names it without the title: on many words
    /// with a clear lead (`byText`), or as the one name among the best that the text was read
    /// naming as its own text does (`selfNamed`; `<name> deals …`: a title cut off, pale or
    /// glared over is often printed again in the rules text, and it tells apart names the text
    /// alone scores alike, another card holding most of the same words). `margin`: the name's
    /// lead over the next (negative when a close name scored higher).
    struct TextChoice {
        var top: (name: String, score: Double)
        var margin: Double
        var byText: Bool
        var selfNamed: Bool
        /// A line read whole as a type line that this name alone is printed with (`typeLineName`).
        var byTypeLine = false
        /// The text names the card without the title.
        var standsAlone: Bool { byText || selfNamed || byTypeLine }
    }

    /// The one name a surely read line of the text box is the whole type line of, when no other
    /// name is printed with it (`CardCatalog.names(printedWithTypeLine:)`): all a basic land's
    /// text is its type line, whose words a snow-covered land of the same type and every card
    /// that searches for that type hold too, but not in that order alone.
    func typeLineName(_ text: TextEvidence) throws -> String? {
        for line in text.sureLines {
            if let names = try catalog.names(printedWithTypeLine: line), names.count == 1, let name = names.first,
               text.matches.contains(where: { $0.printing.name == name }) {
                return name
            }
        }
        return nil
    }

    /// `TextChoice` for `text`; nil when it names nothing.
    func textChoice(_ text: TextEvidence) throws -> TextChoice? {
        let t = tuning
        let names = text.names
        guard let first = names.first else { return nil }
        let close = names.filter { first.score - $0.score < t.textAloneMargin }
        let named = text.fromPhoto ? [] : close.filter { text.namesItself($0.name) }
        let selfNamed = named.count == 1 && named[0].score >= t.withTitleScore
        var top = selfNamed ? named[0] : first
        var margin = top.name == first.name ? text.lead(of: names) : top.score - first.score
        var clearLead = margin >= t.textAloneMargin
            || (!text.fromPhoto && text.dominates(top.name, within: t.textAloneMargin, by: t.dominatingWords))
        // Names whose texts hold the same words, told apart by the figures read.
        if !clearLead, !selfNamed, !text.fromPhoto, let told = close.first(where: { text.figuresTellApart($0.name, within: t.textAloneMargin) }) {
            top = told
            margin = told.score - (names.first { $0.name != told.name }?.score ?? 0)
            clearLead = true
        }
        let byText = top.score >= t.textAloneScore && clearLead && text.wordsFound(for: top.name) >= t.textAloneWords
        return TextChoice(top: top, margin: margin, byText: byText, selfNamed: selfNamed)
    }

    /// `TextChoice` for the name a line read as its type line gives (`typeLineName`), taken only
    /// where the text named nothing otherwise (`CardMatcher.textResult`): the rest of what was
    /// read must score that card at least as well as any other, and as well as text alone must
    /// (a card newer than the catalog may share the type line of one card in it, but not its
    /// rules text).
    func typeLineChoice(_ text: TextEvidence) throws -> TextChoice? {
        let names = text.names
        guard let name = try typeLineName(text), let typed = names.first(where: { $0.name == name }) else { return nil }
        let margin = typed.score - (names.first { $0.name != name }?.score ?? 0)
        guard typed.score >= tuning.textAloneScore, margin >= 0 else { return nil }
        return TextChoice(top: typed, margin: margin, byText: false, selfNamed: false, byTypeLine: true)
    }

    /// What the card's text says, by `textRule`: on the text's own choice of name (`textChoice`),
    /// else on the name its type line gives (`typeLineChoice`); with the choice it was made on.
    func textResult(_ e: Evidence, _ text: TextEvidence, _ choice: TextChoice?) throws -> (result: MatchResult, choice: TextChoice)? {
        if let choice, let result = try textRule(e, text, choice) { return (result, choice) }
        if let typed = try typeLineChoice(text), let result = try textRule(e, text, typed) { return (result, typed) }
        return nil
    }

    /// Whether `title` as read (four letters or more) is a run of whole words of `name`: the end of
    /// a long name, one word of a two-word name; or, read as two words or more, a run whose first
    /// word is the end of one of `name`'s: a title whose start the photo or a tilt cut off.
    static func isPartialTitle(_ title: String?, of name: String, minimumLetters: Int) -> Bool {
        guard let title else { return false }
        let read = title.lowercased().split(whereSeparator: { !$0.isLetter }).joined(separator: " ")
        guard read.filter(\.isLetter).count >= minimumLetters else { return false }
        let full = " " + name.lowercased().split(whereSeparator: { !$0.isLetter }).joined(separator: " ") + " "
        return full.contains(" " + read + " ") || (read.contains(" ") && full.contains(read + " "))
    }

    /// Whether `title` as read is shaped like an English card name: two words or more of three
    /// letters or more, each a capital followed by lower-case letters (an apostrophe inside, a
    /// capital after a hyphen), the small words between them in lower case, and no digits; no word
    /// of a type line or of the artist's credit (a band placed on them). The first word may be the
    /// end of a word, four lower-case letters or more with a vowel (not the end of such a word): a
    /// title whose start the photo or a tilt cut off. Noise read in a title bar mixes cases,
    /// digits and scraps; a foreign name keeps its later words in lower case.
    static func looksLikeTitle(_ title: String?) -> Bool {
        guard let title, !title.contains(where: \.isNumber) else { return false }
        let small: Set<String> = ["of", "the", "and", "to", "in", "on", "for", "from", "with", "a", "an", "at", "by"]
        let printed: Set<String> = ["Illus", "Legendary", "Basic", "Snow", "Creature", "Artifact", "Enchantment", "Instant",
                                    "Sorcery", "Land", "Planeswalker", "Tribal", "Token"]
        var named = 0
        for (index, word) in title.split(separator: " ").enumerated() {
            let letters = word.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:!"))
            if small.contains(letters.lowercased()) { continue }
            if index == 0, letters.filter(\.isLetter).count >= 4, letters.allSatisfy({ $0.isLowercase || "'’".contains($0) }) {
                // Not the end of a type line's or a credit's word, its first letter maybe the
                // cut letter misread (`ichantment`) and `I` read as `l` (`lllus`); nor a scrap
                // with no vowel.
                func folded(_ word: some StringProtocol) -> String { String(word.lowercased().map { "il1|".contains($0) ? "l" : $0 }) }
                let end = folded(letters.dropFirst())
                guard letters.contains(where: "aeiouy".contains), !printed.contains(where: { folded($0).hasSuffix(end) }) else { return false }
                named += 1
                continue
            }
            let parts = letters.split(separator: "-", omittingEmptySubsequences: false)
            guard letters.count >= 3, !printed.contains(String(letters)), parts.allSatisfy({ part in
                guard let first = part.first, first.isUppercase else { return false }
                return part.dropFirst().allSatisfy { $0.isLowercase || "'’".contains($0) }
            }) else { return false }
            named += 1
        }
        return named >= 2
    }

    /// The words of a text as the index spells them: lower case, accents folded.
    static func words(in text: String) -> Set<String> {
        Set(text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
    }

    /// Each printing once, in order.
    static func uniqued(_ printings: [Printing]) -> [Printing] {
        var seen = Set<String>()
        return printings.filter { seen.insert($0.id).inserted }
    }
}
