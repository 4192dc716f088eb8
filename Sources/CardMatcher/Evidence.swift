import CardCatalog
import CardReader

/// What the reader extracted, resolved against the catalog once per card.
struct Evidence {
    let title: String?
    let number: String?
    let setSize: Int?
    /// The number was read as the frames of sets from late 2022 on print it (four digits, no set
    /// size after it): for such a printing no printed size can agree or disagree.
    let printsNoSize: Bool
    let rarity: String?
    let language: String?
    let era: FrameEra
    /// The border colour the reader measured around the card, when it decided one.
    let border: BorderColor?
    /// Set codes worth trying, best first, with a 0…1 score (1 for a code that exists as read).
    let setCandidates: [(code: String, score: Double, exact: Bool)]
    /// Fuzzy name matches for the title, best first.
    let names: [NameMatch]
    /// The title band's line as read, its ends cleaned of frame debris only, when the title lost
    /// words to that cleaning (`TitleCleaner` drops end words read less surely than the line, as
    /// mana symbols are; a pale title's last word is read less surely too).
    let wholeTitleLine: String?
    /// The title as the reader gave it: snapped to a card name when its vocabulary knew one.
    let titleValue: String?
    /// The latest release date of a printing that can be in the photo (from its capture day).
    let latestRelease: String?
    /// The words read where a card credits its artist: beside the collector lines (2015 on) and
    /// in the credits line (before); `credits(_:)` holds them against a printing's artist.
    let creditWords: Set<String>
    let artistWordLetters: Int
    let artistFuzzyLetters: Int
    let catalog: CardCatalog

    init(fields: ExtractedFields, captureDay: String?, observations: [CardObservation] = [], catalog: CardCatalog,
         rules: Tuning.Matching = Tuning().matching) {
        self.catalog = catalog
        creditWords = Set(observations.filter { $0.region == .collector || $0.region == .credits }
            .flatMap { CardMatcher.words(in: $0.observation.text) })
        artistWordLetters = rules.artistWordLetters
        artistFuzzyLetters = rules.artistFuzzyLetters
        noiseTitleScore = rules.noiseTitleScore
        latestRelease = captureDay.flatMap { CaptureDate.latestRelease(captureDay: $0) }
        // Score the title as read, not as snapped to a name: snapping would make every title
        // look perfect and inflate the confidence.
        title = fields.title.map { $0.sources.first ?? $0.value }
        let line = fields.title.flatMap { $0.sources.count > 1 ? TitleCleaner.clean($0.sources[1]) : nil }
        wholeTitleLine = line == title ? nil : line
        number = fields.collectorNumber?.value
        setSize = fields.setSize?.value
        printsNoSize = fields.setSize == nil && fields.printedNumber?.count == 4
        rarity = fields.rarity?.value
        language = fields.language?.value ?? "en"
        era = fields.frameEra
        border = fields.borderColor.flatMap { BorderColor(rawValue: $0.value) }
        var sets: [(String, Double, Bool)] = []
        if let code = fields.setCode?.value {
            if catalog.set(code: code) != nil { sets.append((code, 1, true)) }
            for m in catalog.nearestSetCodes(code, printedSize: fields.setSize?.value, limit: 3) where m.code != code {
                sets.append((m.code, m.score, false))
            }
        }
        setCandidates = sets
        names = title.map { catalog.searchNames($0, limit: 10, minimumScore: rules.nameSearchMinimum) } ?? []
        titleValue = fields.title?.value
    }

    /// The title names a card: the reader snapped it to a name, or the catalog's title vocabulary
    /// (`CardCatalog.resolveTitle`, what the reader snaps with) takes it as one, and that name is
    /// the one the title as read comes nearest to (`bestName`: its name, a face or a printed
    /// name). A read the reader snapped to one name that itself comes nearest to another is noise
    /// several names fit (`anne ar`, read at 0.01 where a title bar was painted over). (A name
    /// search: computed only by the rule that needs it.)
    var titleNamesCard: Bool {
        guard let value = titleValue, let named = catalog.resolveTitle(value), let best = bestName else { return false }
        return named == best.matchedText || named == best.name || best.name.components(separatedBy: " // ").contains(named)
    }

    /// Whether the title as read, or its whole line (`wholeTitleLine`), comes nearest to `name`
    /// among all names, with at least `minimumScore`.
    func titleNames(_ name: String, minimumScore: Double) -> Bool {
        if let best = bestName, best.name == name, best.score >= minimumScore { return true }
        guard let line = wholeTitleLine, let best = catalog.searchNames(line, limit: 1, minimumScore: minimumScore).first else { return false }
        return best.name == name
    }

    /// Whether a word of `p`'s artist's name was read where the card credits its artist: as
    /// printed (`artistWordLetters` letters or more), or one OCR edit off (`artistFuzzyLetters`
    /// or more: a letter dropped, added or confused). For a few candidates only: held against
    /// every artist, scraps of art and frame would meet some name.
    func credits(_ p: Printing) -> Bool {
        guard !creditWords.isEmpty else { return false }
        return CardMatcher.words(in: p.artist ?? "").contains { word in
            word.count >= artistWordLetters && creditWords.contains { token in
                token == word || (word.count >= artistFuzzyLetters && OCRText.distance(token, word) <= 1)
            }
        }
    }

    /// The best name match, if any.
    var bestName: NameMatch? { names.first }

    /// No title, or one that is no card's name read nearly right (letters read in an underexposed
    /// title bar still come nearest to some name): it can neither confirm a printing nor contradict
    /// the collector lines.
    var titleIsNoise: Bool { (bestName?.score ?? 0) < noiseTitleScore }

    /// Below this best name score a title is noise (`Tuning.matching.noiseTitleScore`). (Titles
    /// read with a letter or two wrong score 0.8 and up against their name.)
    let noiseTitleScore: Double

    /// How far the best name's score is ahead of the next name's (1 when it is alone).
    var nameMargin: Double {
        guard let best = names.first else { return 0 }
        return names.count > 1 ? best.score - names[1].score : 1
    }

    /// How well the title agrees with a printing's names (0 when it is not among the matches).
    func titleScore(_ p: Printing) -> Double {
        let own = Set([p.name] + p.faceNames + [p.printedName].compactMap { $0 })
        return names.filter { own.contains($0.name) || own.contains($0.matchedText) }.map(\.score).max() ?? 0
    }

    /// Printings of the best name (for listing alternatives).
    func titlePrintings(limit: Int) throws -> [Printing] {
        guard let best = bestName else { return [] }
        return Array(try catalog.printings(named: best.name, language: nil).prefix(limit))
    }

    /// The printings that can be in a photo: printed on paper (a digital-only printing cannot be
    /// photographed), and released by the photo's capture day when that is known and trusted.
    /// Each filter applies only when it leaves some printing (a wrong flag or a wrong clock must
    /// not empty the list). `dated`: the capture day ruled some out.
    func possible(_ printings: [Printing]) -> (printings: [Printing], dated: Bool) {
        let physical = Self.onPaper(printings)
        guard let latestRelease else { return (physical, false) }
        let released = physical.filter { ($0.releasedAt ?? "") <= latestRelease }
        return released.isEmpty || released.count == physical.count ? (physical, false) : (released, true)
    }

    /// The printings that exist on paper (all of them when none is marked so).
    static func onPaper(_ printings: [Printing]) -> [Printing] {
        let paper = printings.filter { $0.isPaper != false }
        return paper.isEmpty ? printings : paper
    }

    /// The printings of the set code read: those of a set read exactly; else, when no code was
    /// read exactly, of a nearest code scoring `minimumNearScore` or more. With the best score
    /// of a set that holds them (1 when read exactly); nil when none of `printings` is in such a set.
    func inSetRead(_ printings: [Printing], minimumNearScore: Double) -> (printings: [Printing], score: Double)? {
        let exact = setCandidates.filter(\.exact)
        let sets = exact.isEmpty ? setCandidates.filter { $0.score >= minimumNearScore } : exact
        let scores = Dictionary(sets.map { ($0.code, $0.score) }, uniquingKeysWith: max)
        let inSets = printings.filter { scores[$0.setCode] != nil }
        guard let score = inSets.compactMap({ scores[$0.setCode] }).max() else { return nil }
        return (inSets, score)
    }

    /// Keeps the printings consistent with the frame era, printed set size and rarity, then with
    /// the border colour when that leaves any (a printing whose border the catalog does not know
    /// stays; a border that no printing has was mismeasured, or the catalog lacks the printing).
    func narrow(_ printings: [Printing], catalog: CardCatalog) -> [Printing] {
        let read = narrowByCollectorLines(printings, catalog: catalog)
        guard let border else { return read }
        let bordered = read.filter { $0.borderColor == nil || $0.borderColor == border }
        return bordered.isEmpty ? read : bordered
    }

    /// Keeps the printings consistent with the frame era, printed set size and rarity.
    /// A set code read that names none of these printings' sets (nor is near one) says the bottom
    /// read was noise: the era, set size and rarity from it narrow nothing either.
    private func narrowByCollectorLines(_ printings: [Printing], catalog: CardCatalog) -> [Printing] {
        let bottomIsNoise = !setCandidates.isEmpty && !printings.contains { p in setCandidates.contains { $0.code == p.setCode } }
        if bottomIsNoise { return printings }
        return printings.filter { p in
            if let size = setSize, let printed = catalog.set(code: p.setCode)?.printedSize, printed != size { return false }
            if let r = rarity, !p.fitsRarityLetter(r) { return false }
            guard let date = p.releasedAt else { return true }
            switch era {
            case .modern2023: return date >= "2022-09"
            case .modern2015: return date >= "2014-07" && date < "2023-01"
            case .classic2003: return date >= "1998-01" && date < "2015-01"
            case .unknown: return true
            }
        }
    }
}
