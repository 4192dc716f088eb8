import CardScanOCR

/// Last resorts of `ReadPipeline.read` when no known title was found where the locator put the
/// card: re-reading pale titles (the rescue), and placing the card around its art or its text box.
/// Both only take a card name the caller's vocabulary knows.
extension ReadPipeline {
    /// The rescue's hypotheses: the readings (distinct quads or ways up) whose title band read
    /// most like a title, best first, each to be re-read by `rescuingTitle(_:gray:blockMode:)`.
    func rescueCandidates(_ tried: [Attempt], tuning: Tuning) -> [Hypothesis] {
        var ranked: [Attempt] = []
        for attempt in tried.sorted(by: { $0.titleQuality > $1.titleQuality })
        where ranked.count < tuning.lastResorts.rescueCandidates && attempt.titleQuality >= tuning.lastResorts.rescueMinimumQuality {
            if !ranked.contains(where: { $0.corners == attempt.corners }) { ranked.append(attempt) }
        }
        return ranked.map { Hypothesis(corners: $0.corners, source: .titleRescue, wayUp: $0.wayUp, prior: $0.prior, basis: $0) }
    }

    /// The attempt read again with its title band binarised by local contrast (light lettering,
    /// then dark), in the standard band and the extended one, when that reads a card name the
    /// vocabulary knows; otherwise nil. Pale outlined titles on a textured bar
    /// (1993–1997 frames) defeat Tesseract's global threshold. Only a known name is taken: a
    /// binarised band of noise reads as letters too. `blockMode`: a band where single-line mode
    /// found no line is read in block mode too (dark lettering only: every name that found, on the
    /// copies and in the tests, was read from the lettering's dark outline; on the photo's other
    /// regions it found nothing and cost 1.2 s of a 30 s scan).
    func rescuingTitle(_ found: Attempt, gray: GrayImage, blockMode: Bool) throws -> Attempt? {
        let tuning = options.tuning
        for region in [CardLayout.title, CardLayout.extendedTitle] {
            let patch = Self.patch(region, cardHeight: CardLayout.titleCardHeight, gray: gray, corners: found.corners)
            for lightText in [true, false] {
                let binarized = patch.localContrastBinarized(window: max(9, patch.height / tuning.lastResorts.binarizeWindowDivisor),
                                                             margin: tuning.lastResorts.binarizeMargin, lightText: lightText)
                var title = try read(binarized, .title, region, psm: .singleLine, retryInverted: false) // dark on white by construction
                // The line read must name the card as it stands (no dropping of words around a
                // name, as `FieldExtractor.resolve` does): binarised noise holds short runs of letters.
                let line = title.observations.count == 1 ? title.observations[0].observation : nil
                let named = line.map { FieldExtractor.named($0) { options.resolveTitle?($0) } }
                var cleaned = named?.read ?? ""
                if cleaned.filter(\.isLetter).count < tuning.title.minimumGuessedNameLetters || named?.name == nil {
                    guard blockMode, !lightText, title.observations.isEmpty,
                          let block = try leadingNameInBlockMode(binarized, region) else { continue }
                    (title, cleaned) = block
                } else if named?.wholeLine == true {
                    // Named by the whole line: its characters' confidences, which had the cleaning
                    // drop a word, are left out, so that the reading's title is the name checked here.
                    title.observations[0].observation.characterConfidences = []
                }
                DebugDump.trace("rescue read \(cleaned) in the \(region == CardLayout.title ? "standard" : "extended") band, \(lightText ? "light" : "dark") lettering")
                var attempt = try attempt(found.corners, gray: gray, extended: region == CardLayout.extendedTitle,
                                          wayUp: found.wayUp, title: title)
                attempt.prior = found.prior
                return attempt
            }
        }
        return nil
    }

    /// A binarised title band read in block mode, for when single-line mode finds no line in it
    /// at all (specks of the textured bar after a clean title). Block mode
    /// reads the title and the specks after it, so the longest run of words from the start of
    /// its first line that names a known card is taken, if it has `minimumLeadingNameLetters`;
    /// returned as the band's one observation, with that name as its text.
    private func leadingNameInBlockMode(_ binarized: GrayImage, _ region: CardRegion) throws -> (RegionRead, String)? {
        let block = try read(binarized, .title, region, psm: .singleBlock, retryInverted: false)
        guard var first = block.observations.first else { return nil }
        let words = TitleCleaner.clean(first.observation.text, characterConfidences: first.observation.characterConfidences).split(separator: " ")
        for end in stride(from: words.count, to: 0, by: -1) {
            let span = words[..<end].joined(separator: " ")
            guard span.filter(\.isLetter).count >= options.tuning.title.minimumLeadingNameLetters else { break }
            guard options.resolveTitle?(span) != nil else { continue }
            first.observation.text = span
            first.observation.characterConfidences = [] // they belong to the whole line
            return (RegionRead(observations: [first], quality: block.quality), span)
        }
        return nil
    }
}
