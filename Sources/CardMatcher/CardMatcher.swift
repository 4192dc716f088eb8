import CardCatalog
import CardReader
import Foundation

/// Turns noisy extracted fields into one printing with a calibrated confidence, or says that it is
/// ambiguous and lists candidates. A confident wrong answer is the worst outcome, so every path to
/// `identified` needs two independent pieces of evidence to agree (e.g. set + number and title).
public struct CardMatcher: Sendable {
    let catalog: CardCatalog
    /// The thresholds of the text rule (`Tuning.textMatching`).
    let tuning: Tuning.TextMatching
    /// The other rules' thresholds and confidences (`Tuning.matching`).
    let rules: Tuning.Matching

    /// Results at or above this confidence are `identified`.
    public var identifyThreshold: Double { rules.identifyThreshold }

    /// Creates a matcher over a catalog.
    public init(catalog: CardCatalog, tuning: Tuning = Tuning()) {
        self.catalog = catalog
        self.tuning = tuning.textMatching
        self.rules = tuning.matching
    }

    /// Whether reading the card's text box and credits can help this matcher: its catalog keeps
    /// the printings' texts (`CardCatalog.hasTextIndex`).
    public var usesText: Bool { catalog.hasTextIndex }

    /// Matches one card as read: its fields, the photo's capture day (printings released well
    /// after it cannot be in the photo), and the card's text when the reader read it
    /// (`CardReader.readText`).
    public func match(_ reading: CardReading) throws -> MatchResult {
        try match(reading.fields, captureDay: reading.captureDay, observations: reading.observations)
    }

    /// Matches one card's fields. `captureDay` (`YYYY-MM-DD`): when the photo was taken, if known.
    /// `observations`: what the reader read; its text-box and credit lines, if any, are text evidence.
    public func match(_ fields: ExtractedFields, captureDay: String? = nil, observations: [CardObservation] = []) throws -> MatchResult {
        let evidence = Evidence(fields: fields, captureDay: captureDay, observations: observations, catalog: catalog, rules: rules)
        var found = MatchResult(status: .unidentified, card: nil, confidence: 0, candidates: [], method: "none")
        for rule in [exact, numberFromTitle, setFromNumber, setFromSize, titleOnly] {
            if let result = try rule(evidence) {
                found = result
                break
            }
        }
        if let byArtist = artistTellsApart(found, evidence) { found = byArtist }
        guard let text = try TextEvidence(observations, catalog: catalog, sureCredits: tuning.sureCreditsConfidence,
                                              sureLines: tuning.sureLineConfidence) else { return found }
        let choice = try textChoice(text)
        if found.status == .identified {
            // Collector lines without a set code are weaker than the card's own text: when the
            // text names another card, neither is taken.
            if found.method.hasPrefix(Self.setFromSizeMethod), let byText = try textResult(evidence, text, choice)?.result, byText.name != found.name {
                let firsts = [found.candidates.first, byText.candidates.first].compactMap { $0 }
                var both = ambiguous(firsts.map { MatchCandidate(printing: $0.printing, score: $0.score * rules.ambiguousFactor) },
                                     method: Self.setFromSizeMethod)
                both.text = text.support(for: found.card)
                return both
            }
            // (Text read on a card already identified: said, not used.)
            found.text = text.support(for: found.card)
            return found
        }
        // The text never overrules a name the title and collector lines agreed on. A name the
        // title alone suggested (a misread title snapped to a near name; no printing identified),
        // or the collector lines alone (`exact` short of identified: a title that did not count,
        // a rarity not read), gives way to one the text names without the title, on many words
        // or in its own text; the conflict leaves the printing open.
        let conflicts = { (byText: MatchResult) in found.name.map { $0 != byText.name } ?? false }
        let weakName = found.method.hasPrefix(Self.titleOnlyMethod) || found.method == Self.exactMethod
        // A name the type line alone gives, which a rule above gave already, says nothing of the
        // printing: that rule's printings (narrowed by the number or set read) stand.
        guard let (result, used) = try textResult(evidence, text, choice),
              !(used.byTypeLine && result.name == found.name), !conflicts(result) || (weakName && used.standsAlone) else {
            found.text = text.support(for: found.card ?? found.candidates.first?.printing)
            return found
        }
        var byText = result
        if conflicts(byText) {
            byText = ambiguous(byText.candidates.map { MatchCandidate(printing: $0.printing, score: $0.score * rules.ambiguousFactor) },
                               method: byText.method)
        }
        byText.text = text.support(for: byText.card ?? byText.candidates.first?.printing)
        return byText
    }

    // MARK: - Rules, strongest first

    /// Set + number (+ language) found in the catalog, and the title agrees.
    ///
    /// A card printed in a language the catalog does not hold (Scryfall's default bulk file is
    /// English) is the same card as the catalog's printing with that set and number: it is matched
    /// to that printing, its title (a foreign name) counts as unreadable, and the result says which
    /// language the card is printed in (`MatchResult.printedLanguage`).
    private func exact(_ e: Evidence) throws -> MatchResult? {
        guard let number = e.number else { return nil }
        for set in e.setCandidates {
            var printings = try catalog.printings(set: set.code, number: number, language: e.language)
            var printedLanguage: String?
            if printings.isEmpty, let language = e.language, language != "en" {
                printings = try catalog.printings(set: set.code, number: number, language: nil)
                printedLanguage = language
            }
            guard let p = printings.first else { continue }
            let titleScore = e.titleScore(p)
            // The frames of sets released from late 2022 on print no set size: the set code, a
            // four-digit number and the rarity are all their lines show.
            let released = p.releasedAt.flatMap { Int($0.filter(\.isNumber)) } ?? 0
            let sizeless = e.printsNoSize && released >= rules.sizelessNumbersSince
            // The set size read against the set's printed size: nil where either is unknown.
            let sizeMatches = e.setSize.flatMap { size in catalog.set(code: set.code)?.printedSize.map { $0 == size } }
            let sizeAgrees = e.setSize == nil ? sizeless : sizeMatches ?? true
            let rarityAgrees = e.rarity.map { p.rarity != nil && p.fitsRarityLetter($0) } ?? false
            let artistAgrees = e.credits(p)
            var confidence: Double
            var titleCounts = true
            if titleScore >= rules.titleAgreesScore {
                confidence = rules.titleAgreesConfidence * set.score.squareRoot()
            } else if titleScore >= rules.titleNearScore {
                confidence = rules.titleNearConfidence * set.score.squareRoot()
            } else if e.titleIsNoise || p.language != "en" || printedLanguage != nil {
                // Unreadable or foreign title: the set code, number, printed size (where the frame
                // prints one) and rarity (or the artist's name read beside them) must all agree. A size or rarity read that this printing
                // does not have says the number (or the set) was misread: trust neither. The
                // title's nearest names are no candidates: it was not read as a name.
                titleCounts = false
                let rarityDisagrees = e.rarity.map { p.rarity != nil && !p.fitsRarityLetter($0) } ?? false
                confidence = sizeMatches == false || rarityDisagrees ? rules.disagreeConfidence
                    : set.exact && sizeAgrees && (rarityAgrees || artistAgrees) ? rules.allAgreeConfidence : rules.partlyAgreeConfidence
            } else {
                confidence = rules.disagreeConfidence // number and title disagree: trust neither
            }
            // A guessed set code that does not reach the threshold leaves the decision to the
            // recovery rules below (which weigh the title and number without the guess).
            if confidence >= rules.identifyThreshold || (set.exact && confidence >= rules.exactSetConfidence) {
                var found = result(p, confidence: confidence, alternatives: titleCounts ? try e.titlePrintings(limit: 4) : [], method: Self.exactMethod)
                found.printedLanguage = printedLanguage
                return found
            }
        }
        return nil
    }

    /// The set was read but the number was not (or misread): the title picks the card within the set.
    private func numberFromTitle(_ e: Evidence) throws -> MatchResult? {
        guard let best = e.bestName, best.score >= rules.numberFromTitleName else { return nil }
        for set in e.setCandidates where set.score >= rules.numberFromTitleSet {
            let inSet = try catalog.printings(named: best.name, language: e.language).filter { $0.setCode == set.code }
            if inSet.count == 1 {
                return result(inSet[0], confidence: rules.numberFromTitleFactor * best.score * set.score.squareRoot(), alternatives: try e.titlePrintings(limit: 4), method: "number-from-title")
            }
            if inSet.count > 1 {
                return ambiguous(inSet.map { MatchCandidate(printing: $0, score: rules.ambiguousFactor * best.score) }, method: "number-from-title")
            }
        }
        return nil
    }

    /// The number (and set size) were read but the set code was not: the title's printings with
    /// that number decide.
    private func setFromNumber(_ e: Evidence) throws -> MatchResult? {
        guard let best = e.bestName, best.score >= rules.setFromNumberName, let number = e.number else { return nil }
        let all = try catalog.printings(named: best.name, language: e.language)
        var hits = all.filter { $0.collectorNumber == number }
        if let size = e.setSize, hits.count > 1 {
            let sized = hits.filter { catalog.set(code: $0.setCode)?.printedSize == size }
            if !sized.isEmpty { hits = sized }
        }
        guard !hits.isEmpty else { return nil }
        // Digital-only printings and printings released after the photo was taken are not in it.
        let (possible, dated) = e.possible(hits)
        hits = possible
        if hits.count == 1 {
            // Title and number agree on one printing; a printed set size that matches its set is
            // a third, independent agreement.
            let sizeAgrees = e.setSize != nil && catalog.set(code: hits[0].setCode)?.printedSize == e.setSize
            // The agreement is only as good as a misread number's chance to miss every other
            // printing of the name: a basic land has a printing at nearly every number.
            let pool = sizeAgrees ? all.filter { catalog.set(code: $0.setCode)?.printedSize == e.setSize } : all
            let confidence = min(rules.setFromNumberCap, (sizeAgrees ? rules.setFromNumberSized : rules.setFromNumberUnsized) * best.score)
                * numberTrust(among: e.possible(pool).printings) * (dated ? rules.dateTrust : 1)
            return result(hits[0], confidence: confidence, alternatives: all, method: dated ? "set-from-number+date" : "set-from-number")
        }
        return ambiguous(hits.map { MatchCandidate(printing: $0, score: rules.ambiguousFactor) }, method: "set-from-number")
    }

    static let exactMethod = "exact"
    static let setFromSizeMethod = "set-from-size"
    static let titleOnlyMethod = "title-only"

    /// The number and the printed set size were read, but no set code (its letters misread) and
    /// no title (unreadable, or printed in a language the catalog does not hold): the sets that
    /// print that size hold the card at that number. One printing there, of the frame era read,
    /// whose rarity agrees with the rarity read, takes the set code's place in `exact`'s
    /// all-agree case: a size printed by one set only names the set as well as its code does.
    private func setFromSize(_ e: Evidence) throws -> MatchResult? {
        guard e.setCandidates.isEmpty, e.titleIsNoise, let number = e.number, let size = e.setSize else { return nil }
        var hits: [Printing] = []
        for set in catalog.sets where set.printedSize == size {
            var found = try catalog.printings(set: set.code, number: number, language: e.language)
            if found.isEmpty, let language = e.language, language != "en" {
                found = try catalog.printings(set: set.code, number: number, language: nil)
            }
            hits += found.prefix(1)
        }
        let (possible, dated) = e.possible(hits)
        let narrowed = e.narrow(possible, catalog: catalog)
        guard !narrowed.isEmpty else { return nil }
        if possible.count == 1, narrowed.count == 1, e.rarity != nil {
            var found = result(narrowed[0], confidence: rules.allAgreeConfidence * (dated ? rules.dateTrust : 1),
                               alternatives: [], method: Self.setFromSizeMethod + (dated ? "+date" : ""))
            // A card printed in a language the catalog does not hold (as `exact` says it).
            if let language = e.language, language != "en", narrowed[0].language != language { found.printedLanguage = language }
            return found
        }
        return ambiguous(narrowed.map { MatchCandidate(printing: $0, score: rules.ambiguousFactor / Double(narrowed.count)) },
                         method: Self.setFromSizeMethod + (dated ? "+date" : ""))
    }

    /// How likely a collector number read is the card's own, given that it names one of these
    /// printings (all of one name). A number is read right most of the time (`numberReadTrust`),
    /// but a misread one lands on some printing of the name about as often as the name's
    /// distinct numbers fill the range numbers are drawn from (`numberSpace`): rarely for a card
    /// with three printings, nearly always for a basic land with hundreds (Bayes' rule).
    func numberTrust(among printings: [Printing]) -> Double {
        let coincidence = min(1, Double(Set(printings.map(\.collectorNumber)).count) / rules.numberSpace)
        return rules.numberReadTrust / (rules.numberReadTrust + (1 - rules.numberReadTrust) * coincidence)
    }

    /// Only the title: every printing of that name, narrowed by frame era, set size, rarity and
    /// border colour. Only for a title that names a card (`Evidence.titleNamesCard`): the nearest
    /// name to a title the vocabulary does not take is a guess, and on the shared photos and
    /// their copies every such guess was wrong (29 of 29: three or four letters of noise always
    /// come nearest to some short name).
    private func titleOnly(_ e: Evidence) throws -> MatchResult? {
        guard let best = e.bestName, best.score >= rules.titleOnlyName, e.titleNamesCard else { return nil }
        var printings = try catalog.printings(named: best.name, language: e.language ?? "en")
        if printings.isEmpty { printings = try catalog.printings(named: best.name, language: nil) }
        guard !printings.isEmpty else { return nil }
        // Only the printings that can be in a photo: on paper, and existing when it was taken.
        let (possible, dated) = e.possible(printings)
        let narrowed = e.narrow(possible, catalog: catalog)
        // One printing left. For a name with a single printing, the title must match it well *and*
        // clearly better than any other name (a misread title near two names is evidence for
        // neither; a title read exactly as a name needs half that lead: for another name 15% away
        // to be the card, several letters would have to be misread into exactly this name).
        // For a reprint narrowed to one printing by era, set size, rarity or border, those reads can be
        // wrong, so only a perfect title with a clear margin reaches the threshold. A name with
        // one printing as of the photo's capture day counts as a name with one printing, a little
        // less sure (the camera's clock can be wrong).
        if narrowed.count == 1 {
            let margin = min(1, e.nameMargin / (best.score >= rules.exactTitleScore ? rules.titleOnlyExactMargin : rules.titleOnlyMargin))
            // A short name is weak evidence on its own: a fragment of a longer title (a card cut by
            // the photo's edge, `Snap…` read as `Snag`) hits it exactly. Below eight letters
            // the confidence shrinks by 5% a letter.
            let letters = Double(best.matchedText.filter(\.isLetter).count)
            let length = min(1, rules.shortNameBase + rules.shortNamePerLetter * letters)
            let confidence = length * (possible.count == 1
                ? min(rules.titleOnlyCap, rules.titleOnlyTitleWeight * best.score + rules.titleOnlyMarginWeight * margin) * (dated ? rules.dateTrust : 1)
                : rules.titleOnlyReprintFactor * best.score * margin)
            return result(narrowed[0], confidence: confidence, alternatives: Evidence.onPaper(printings), method: Self.titleOnlyMethod + (dated ? "+date" : ""))
        }
        // Newest first; printings released after the photo was taken go last, at a lower score
        // (digital-only ones are left out).
        let ranked = (narrowed.isEmpty ? possible : narrowed).sorted { ($0.releasedAt ?? "") > ($1.releasedAt ?? "") }
        let later = Evidence.onPaper(printings).filter { p in !possible.contains { $0.id == p.id } }
        let score = best.score / Double(max(1, ranked.count))
        return ambiguous(ranked.map { MatchCandidate(printing: $0, score: score) } + later.map { MatchCandidate(printing: $0, score: score * rules.laterPrintingFactor) },
                         method: Self.titleOnlyMethod + (dated ? "+date" : ""))
    }

    /// The artist's name breaks a tie: among the candidates a rule left equally likely (the
    /// printings at a number and set size, the printings of a name), the one whose artist's name
    /// holds a word read where the card credits its artist (`Evidence.credits`) and no other
    /// candidate's does. Only these few candidates' names are compared, so a scrap of art or
    /// frame rarely meets one by chance, and printings whose artist is the same (a reprint of the
    /// same art) stay tied. One left is identified at `artistTieConfidence`; several, the tie narrowed.
    func artistTellsApart(_ found: MatchResult, _ e: Evidence) -> MatchResult? {
        guard found.status == .ambiguous, let top = found.candidates.first?.score else { return nil }
        let tied = found.candidates.filter { $0.score >= top - 1e-9 }
        guard tied.count > 1 else { return nil }
        let holding = tied.filter { e.credits($0.printing) }
        guard !holding.isEmpty, holding.count < tied.count else { return nil }
        let method = found.method + "+artist"
        if holding.count == 1 {
            var picked = result(holding[0].printing, confidence: rules.artistTieConfidence,
                                alternatives: tied.map(\.printing), method: method)
            picked.printedLanguage = found.printedLanguage
            return picked
        }
        return ambiguous(holding, method: method)
    }

    // MARK: - Results

    func result(_ p: Printing, confidence: Double, alternatives: [Printing], method: String) -> MatchResult {
        let others = alternatives.filter { $0.id != p.id }.prefix(4).map { MatchCandidate(printing: $0, score: min(confidence, rules.otherCandidateCap) * 0.5) }
        let candidates = [MatchCandidate(printing: p, score: confidence)] + others
        let status: MatchStatus = confidence >= rules.identifyThreshold ? .identified : .ambiguous
        return MatchResult(status: status, card: status == .identified ? p : nil, confidence: confidence, candidates: candidates, method: method)
    }

    func ambiguous(_ candidates: [MatchCandidate], method: String) -> MatchResult {
        MatchResult(status: .ambiguous, card: nil, confidence: candidates.first?.score ?? 0, candidates: Array(candidates.prefix(10)), method: method)
    }
}
