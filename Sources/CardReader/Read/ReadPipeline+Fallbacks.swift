import CardScanOCR

/// Last resorts of `ReadPipeline.read` when no known title was found where the locator put the
/// card: re-reading pale titles (the rescue), and placing the card around its text box. Both only
/// take a card name the caller's vocabulary knows.
extension ReadPipeline {
    /// The rescue: the two attempts (distinct quads or ways up) whose title band read most like a
    /// title re-read by `rescuingTitle(_:gray:main:)`; the first that yields a known name, or nil.
    /// `main`: the photo's main card (only there is a band with no line read in block mode too).
    func rescuingTitle(of tried: [Attempt], gray: GrayImage, main: Bool) throws -> Attempt? {
        // A band that read next to nothing (glare, art, a table) is not worth the four reads.
        var ranked: [Attempt] = []
        for attempt in tried.sorted(by: { $0.titleQuality > $1.titleQuality }) where ranked.count < 2 && attempt.titleQuality >= 0.05 {
            if !ranked.contains(where: { $0.corners == attempt.corners }) { ranked.append(attempt) }
        }
        for candidate in ranked {
            let rescued = try rescuingTitle(candidate, gray: gray, main: main)
            DebugDump.trace("title rescue from quality \(candidate.titleQuality): \(rescued.titleKnown ? rescued.fields.title?.value ?? "" : "no")")
            if rescued.titleKnown { return rescued }
        }
        return nil
    }

    /// The attempt read again with its title band binarised by local contrast (light lettering,
    /// then dark), in the standard band and the extended one, when that reads a card name the
    /// vocabulary knows; otherwise the attempt unchanged. Pale outlined titles on a textured bar
    /// (1993–1997 frames) defeat Tesseract's global threshold. Only a known name is taken: a
    /// binarised band of noise reads as letters too.
    private func rescuingTitle(_ found: Attempt, gray: GrayImage, main: Bool) throws -> Attempt {
        for region in [CardLayout.title, CardLayout.extendedTitle] {
            let patch = Self.patch(region, cardHeight: CardLayout.titleCardHeight, gray: gray, corners: found.corners)
            for lightText in [true, false] {
                let binarized = patch.localContrastBinarized(window: max(9, patch.height / 3), margin: 20, lightText: lightText)
                var title = try read(binarized, "title", region, psm: .singleLine, retryInverted: false) // dark on white by construction
                // The whole line must name the card (no dropping of words around a name, as
                // `FieldExtractor.resolve` does): binarised noise holds short runs of letters.
                let line = title.observations.count == 1 ? title.observations[0].observation : nil
                var cleaned = line.map { TitleCleaner.clean($0.text, characterConfidences: $0.characterConfidences) } ?? ""
                if cleaned.filter(\.isLetter).count < Self.minimumGuessedNameLetters || options.resolveTitle?(cleaned) == nil {
                    // (On the main card only, and with the dark lettering: on the other regions of
                    // a photo it found nothing and cost 1.2 s of a 30 s scan; every name it found,
                    // on the copies in scripts/robustness.sh and in the tests, was read from the
                    // lettering's dark outline, in either band.)
                    guard main, !lightText, title.observations.isEmpty,
                          let block = try leadingNameInBlockMode(binarized, region) else { continue }
                    (title, cleaned) = block
                }
                DebugDump.trace("rescue read \(cleaned) in the \(region == CardLayout.title ? "standard" : "extended") band, \(lightText ? "light" : "dark") lettering")
                var attempt = try attempt(found.corners, gray: gray, extended: region == CardLayout.extendedTitle,
                                          wayUp: .likely, title: title)
                attempt.prior = found.prior
                return attempt
            }
        }
        return found
    }

    /// A binarised title band read in block mode, for when single-line mode finds no line in it
    /// at all (specks of the textured bar after the title: a clean `Instill Energy`). Block mode
    /// reads the title and the specks after it, so the longest run of words from the start of
    /// its first line that names a known card is taken, if it has `minimumLeadingNameLetters`;
    /// returned as the band's one observation, with that name as its text.
    private func leadingNameInBlockMode(_ binarized: GrayImage, _ region: CardRegion) throws -> (RegionRead, String)? {
        let block = try read(binarized, "title", region, psm: .singleBlock, retryInverted: false)
        guard var first = block.observations.first else { return nil }
        let words = TitleCleaner.clean(first.observation.text, characterConfidences: first.observation.characterConfidences).split(separator: " ")
        for end in stride(from: words.count, to: 0, by: -1) {
            let span = words[..<end].joined(separator: " ")
            guard span.filter(\.isLetter).count >= Self.minimumLeadingNameLetters else { break }
            guard options.resolveTitle?(span) != nil else { continue }
            first.observation.text = span
            first.observation.characterConfidences = [] // they belong to the whole line
            return (RegionRead(observations: [first], quality: block.quality), span)
        }
        return nil
    }

    /// The fewest letters of a name taken from the start of a line read in block mode: short runs
    /// are what noise hits (`ok` became Okk).
    static let minimumLeadingNameLetters = 10

    /// A dark-bordered card on a dark background can be lost to the locator while its light text
    /// box stands out: the card placed around one of the photo's two most box-like light regions
    /// (either long side down) whose title band reads a known name of `minimumGuessedNameLetters`
    /// or more, or nil.
    /// A placed card is a guess, so a short name (what its noise hits: `Omen`, `Tear`) is not
    /// taken, and its collector band is read only below a known title.
    func cardAroundTextBox(gray: GrayImage) throws -> Attempt? {
        var found: Attempt?
        boxes: for box in CardLocator().textBoxes(gray, limit: 2) {
            DebugDump.log(["text box \(box.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: " "))"])
            for corners in CardLayout.cardsAround(textBox: box) {
                DebugDump.log(["card around it \(corners.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: " "))"])
                for extended in [false, true] {
                    let attempt = try attempt(corners, gray: gray, extended: extended, wayUp: .likely, onlyKnownTitle: true)
                    guard attempt.titleKnown, (attempt.fields.title?.value.filter(\.isLetter).count ?? 0) >= Self.minimumGuessedNameLetters else { continue }
                    found = attempt
                    break boxes
                }
            }
        }
        DebugDump.trace("text boxes: \(found?.fields.title?.value ?? "no known title")")
        return found
    }
}
