import CardScanOCR
import Foundation

/// One pass of the reader over one decoded photo.
struct ReadPipeline {
    let recognizer: TextRecognizer
    /// The collector band's own engine (the project's collector model), nil to read it with `recognizer`.
    var collectorRecognizer: TextRecognizer? = nil
    /// The second model's engine (`CardReader.SecondModel`), nil when there is none.
    var secondRecognizer: LazyRecognizer? = nil
    let options: CardReader.Options
    var extractor: FieldExtractor { FieldExtractor(resolveSetCode: options.resolveSetCode, resolveTitle: options.resolveTitle) }

    func run(image: Image) throws -> CardReading {
        try runAll(image: image, limit: 1)[0]
    }

    /// Reads up to `limit` cards, one region after another (`PhotoRead`): the most card-like
    /// region first (what `run` reads), then other card-sized regions of the photo and places
    /// beside the cards read, each kept only when something recognisable was read on it, or when
    /// `confirm` keeps it (`CardReader.readAll`). Never empty.
    func runAll(image: Image, limit: Int, confirm: CardReader.Confirmation? = nil) throws -> [CardReading] {
        let photo = PhotoRead(image: image, limit: limit, pipeline: self)
        try photo.readEach(with: self, confirm: confirm)
        return photo.readings
    }

    /// Whether a region's reading is a card: a title the vocabulary knows, or a collector number.
    static func isCard(_ read: Attempt) -> Bool {
        read.titleKnown || read.fields.collectorNumber != nil
    }

    /// Reads one card by the search (`Search.swift`): placement, then the last resorts, the
    /// copyright line of an older frame, alternative quads, and the copyright line wherever no
    /// number was read. `policy` says which generators the card gets.
    func read(gray: GrayImage, located: LocatedCard?, scanShaped: Bool, policy: SearchPolicy) throws -> Attempt {
        let tuning = options.tuning, scoring = Scoring(tuning: tuning)
        var search = Search(scoring: scoring, budget: tuning.search.maximumHypotheses)
        let edges = located.map { BorderRefiner().refine($0.corners, in: gray) }
        let quads = Self.hypotheses(located: edges, confidence: located?.confidence ?? 0, scanShaped: scanShaped,
                                    imageWidth: gray.width, imageHeight: gray.height, tuning: tuning)
        let sources: [Hypothesis.Source] = quads.map { Self.isWholeImage($0, gray) ? .wholeImage : .located }

        // Placement: each quad both ways up (the way-up test decides which first), the standard
        // bands then the extended ones.
        let placements = zip(quads, sources).lazy.flatMap { quad, source in
            placementHypotheses(quad, source: source, gray: gray, policy: policy)
        }
        try search.round("placement", placements, read: { h in
            var attempt = try attempt(h.corners, gray: gray, extended: h.extended, wayUp: h.wayUp)
            attempt.prior = h.prior
            return attempt
        }, accept: scoring.placementTaken, stop: { reading, _, best in
            scoring.endsPlacement(reading, best: best, lastPlace: quads[quads.count - 1])
        })

        // Last resorts: re-read pale titles; place the card around its art or its text box.
        let resorts = Self.lastResorts(best: search.best, tried: search.tried, vocabulary: options.resolveTitle != nil,
                                       placesCards: policy.placesCards, tuning: tuning)
        var rescued = false
        if resorts.rescue {
            rescued = try search.rescueRound(rescueCandidates(search.tried, tuning: tuning)) { basis in
                try rescuingTitle(basis, gray: gray, blockMode: policy.rescuesInBlockMode)
            }
        }
        var elsewhere: [Attempt] = []
        let neighbours = NeighbourCards(tuning: tuning.neighbours)
        if !rescued, resorts.placedCards {
            // The located region may be the card's art (its frame merging with the table): the
            // card placed around it. Else the card lies around a light text box of the photo.
            func placed(_ quads: [Quad], source: Hypothesis.Source) -> [Hypothesis] {
                quads.flatMap { corners in [false, true].map { Hypothesis(corners: corners, source: source, extended: $0) } }
            }
            func placedRound<S: Sequence>(_ name: String, _ hypotheses: S) throws -> Bool where S.Element == Hypothesis {
                try search.round(name, hypotheses, read: { h in
                    try attempt(h.corners, gray: gray, extended: h.extended, wayUp: .likely, onlyKnownTitle: true)
                }, accept: { reading, _ in scoring.placedCardTaken(reading) }, stop: { _, taken, _ in taken })
            }
            let aroundArt = placed(edges.map(CardLayout.cardsAround(art:)) ?? [], source: .aroundArt)
            let art = search.tried.count
            if try !placedRound("art", aroundArt) {
                let aroundTextBoxes = CardLocator(tuning: tuning.locator).textBoxes(gray, limit: tuning.lastResorts.textBoxes).lazy.flatMap { box in
                    placed(CardLayout.cardsAround(textBox: box), source: .aroundTextBox)
                }
                let textBoxes = search.tried.count
                // No known name: the cards placed around text boxes, then those placed around the
                // art, are still places the card may be, for its text to decide (a card whose
                // frame merges with a dark table is found as its text box; a card cut by the
                // photo's edge, as its art).
                if try !placedRound("text boxes", aroundTextBoxes) {
                    elsewhere = scoring.placesElsewhere(search.tried[textBoxes...])
                    elsewhere += scoring.placesElsewhere(search.tried[art..<textBoxes]).filter { place in
                        !elsewhere.contains { neighbours.samePlace($0.corners, place.corners) }
                    }
                }
            }
        }

        // An older frame prints its number in the copyright line, not in a misplaced band.
        if let found = search.best, found.fields.collectorNumber == nil, found.printsCopyright {
            try search.adding { try readingCopyright($0, gray: gray) }
        }

        // Alternatives: the title or the collector lines were not where the quad puts them (not
        // for the whole image, a flat scan: there is nothing beyond it to find).
        if policy.triesAlternativeQuads, let found = search.best,
           found.fields.title == nil || (found.fields.collectorNumber == nil && (policy.completesNumberWithAlternatives || !found.titleKnown)),
           !Self.isWholeImage(found.corners, gray) {
            try search.round("alternatives", alternativeHypotheses(of: found, gray: gray, tuning: tuning), read: { h in
                var attempt = try attempt(h.corners, gray: gray, extended: false, wayUp: h.wayUp)
                attempt.prior = h.prior
                return attempt
            }, accept: { reading, _ in scoring.alternativeTaken(reading, over: found) }, stop: { _, taken, _ in taken })
        }

        guard let best = search.best else { throw OCRError.recognitionFailed("no region to read") }
        let found = try secondLook(best, gray: gray)
        let titled = found.titleKnown || found.titleQuality >= tuning.title.minimumQuality
        // The copyright line holds a number on the 1998–2014 frames only: below a known name
        // printed in none of them it is not read.
        let olderFrame = !found.titleKnown || found.fields.title.map { options.printsNumberInCopyright?($0.value) ?? true } ?? true
        var read = found.fields.collectorNumber == nil && !found.copyrightRead && (policy.readsCopyrightWithoutTitle || titled) && olderFrame
            ? try readingCopyright(found, gray: gray) : found
        read.fields.borderColor = borderColor(of: read.corners, edges: edges, gray: gray)
        read.elsewhere = elsewhere.filter { !neighbours.samePlace($0.corners, read.corners) }
        return read
    }

    /// Placement hypotheses for one quad: the way-up test's first choice (and, unless it was
    /// decisive, the other way up), each with the standard bands then the extended ones.
    /// Upright, the title band holds large confident text and the collector lines parse; upside
    /// down, the title band holds the small print and the "collector lines" are the title bar's
    /// mana symbols.
    func placementHypotheses(_ quad: Quad, source: Hypothesis.Source, gray: GrayImage, policy: SearchPolicy) -> [Hypothesis] {
        let tuning = options.tuning
        let lightness = Self.textBoxLightness(quad, gray: gray)
        let decisive = tuning.orientation.decisiveLightness
        let turns = lightness > decisive ? (policy.readsOtherWayWhenUpright ? [0, 2] : [0]) : lightness < -decisive ? [2, 0] : [0, 2]
        DebugDump.trace("text box lighter than art by \(lightness): turns \(turns)")
        let sure = policy.trustsDecisiveWayUp && abs(lightness) > decisive
        return turns.flatMap { turn in
            let corners = quad.turned(by: turn)
            let wayUp: WayUp = turn != turns[0] ? (sure ? .overruled : .other) : sure ? .sure : .likely
            return [false, true].map { extended in
                Hypothesis(corners: corners, source: source, wayUp: wayUp, extended: extended,
                           prior: (extended ? tuning.search.extendedBandPrior : 0) + Self.wayUpPrior(wayUp, tuning: tuning))
            }
        }
    }

    /// The credit a reading gets for its way up: `Tuning.Orientation.overruledWayPrior` against a
    /// decisive way-up test, else none.
    static func wayUpPrior(_ wayUp: WayUp, tuning: Tuning) -> Double {
        wayUp == .overruled ? tuning.orientation.overruledWayPrior : 0
    }

    /// Alternative quads grown from the best reading: grown by a black border (the locator may
    /// have stopped at the inner frame of a black-bordered card lost in a dark background); the
    /// bottom edge put where the card's 63:88 shape says (the quad ran on into a shadow or stopped
    /// short, and the title settled the top edge); below a known title, a card-shaped rectangle
    /// hung from the top edge (the sides ran on into something as dark as the border and flare out).
    private func alternativeHypotheses(of found: Attempt, gray: GrayImage, tuning: Tuning) -> [Hypothesis] {
        let grown: [(Hypothesis.Source, Quad?)] = [
            (.innerFrameExpanded, Self.innerFrameExpanded(found.corners)),
            (.aspectCompleted, Self.aspectCompleted(found.corners, imageWidth: gray.width, imageHeight: gray.height)),
            (.hungFromTop, found.titleKnown ? Self.hungFromTop(found.corners) : nil),
        ]
        // A quad grown from a reading made at the way a decisive test chose is read at it too
        // (its collector lines below a title band of noise, as the reading's were); one grown
        // from a reading against the test carries the reading's debit.
        let wayUp: WayUp = found.wayUp == .sure ? .sure : .likely
        let prior = tuning.alternatives.prior + Self.wayUpPrior(found.wayUp, tuning: tuning)
        return grown.compactMap { source, corners in
            corners.map { Hypothesis(corners: $0, source: source, wayUp: wayUp, prior: prior, basis: found) }
        }
    }

    /// The border colour measured at the card's edges: at the located quad (edges the locator
    /// found, turned to the reading's way up) when the reading is the same card, grown or moved a
    /// little, rather than at a quad the reading grew or placed by guess; nil for a scan filling
    /// the image (no edge around it to measure).
    private func borderColor(of corners: Quad, edges: Quad?, gray: GrayImage) -> ExtractedField<String>? {
        guard !Self.isWholeImage(corners, gray) else { return nil }
        var quad = corners
        let sizeRatio = edges.map { $0.area / max(1, corners.area) } ?? 0
        if let edges, CardLocator.overlaps(edges, corners), sizeRatio > 0.6, sizeRatio < 1.6 {
            // The located corners in the reading's order: the turn that puts them nearest.
            func offset(_ q: Quad) -> Double { zip(q.corners, corners.corners).reduce(0) { $0 + Geometry.distance($1.0, $1.1) } }
            quad = edges.turns.min { offset($0) < offset($1) } ?? corners
        }
        let border = BorderColorMeter().measure(quad, in: gray)
        DebugDump.trace("border \(border.map { "\($0.value) (\($0.sources[0]))" } ?? "undecided")")
        return border
    }

    /// The attempt with its copyright line read too: older frames print the number there, right of centre.
    /// (Black-bordered 2003–2014 cards print it white; `patch` turns it dark, so Tesseract's
    /// inverted retry would only double the cost of a line that reads badly.)
    private func readingCopyright(_ attempt: Attempt, gray: GrayImage) throws -> Attempt {
        var read = attempt
        let copyright = try readRegion(.copyright, CardLayout.copyright, cardHeight: CardLayout.bottomCardHeight,
                                       gray: gray, corners: read.corners, psm: .singleBlock, retryInverted: false)
        read.observations += copyright.observations
        read.fields = extractor.extract(read.observations)
        return read
    }

    /// Where the card may be, in the order read: the located quad (`located`, with the locator's
    /// `confidence`), and the whole image when nothing was located or the image is a portrait
    /// shaped like a card (`scanShaped`: most likely a flat scan). Content decides among them and
    /// between up and down: the title band must hold a line of large, confident text. A scan-shaped
    /// image goes first as a whole, unless a confident card-like region covers under 60% of it:
    /// that is a card in a phone photo (3:4 portrait photos are scan-shaped), not a scan, whose
    /// card-like regions are its art or text box at best. (On the shared photos this read the same
    /// cards and cut the single-card photos' median from 204 to 165 ms; on their copies in
    /// `scripts/robustness.sh` it cut the total by 15%, with the same readings.)
    static func hypotheses(located: Quad?, confidence: Double, scanShaped: Bool, imageWidth: Int, imageHeight: Int,
                           tuning: Tuning = Tuning()) -> [Quad] {
        let whole = wholeImage(width: imageWidth, height: imageHeight)
        guard let located else { return [whole] }
        guard scanShaped else { return [located] }
        let share = located.area / Double(imageWidth * imageHeight)
        return confidence >= tuning.search.confidentLocation && share < tuning.search.photoCardShare ? [located, whole] : [whole, located]
    }

    /// Which last resorts `read` tries once the placements are read: the title rescue, then a card
    /// placed around the located region as its art or around a text box. Both look for a known
    /// name, so neither without a vocabulary, nor when a known title was found, nor when a title
    /// band read cleanly (that is a name the vocabulary lacks, not a misread). Placed cards only
    /// when the policy allows them and no collector lines parsed: parsed lines put the card where
    /// the locator did, and a card placed around a part of it is a guess (a title band of noise over parsed lines, seen steeply from
    /// below, had its placed card read a fragment that snapped to another name).
    static func lastResorts(best: Attempt?, tried: [Attempt], vocabulary: Bool, placesCards: Bool,
                            tuning: Tuning = Tuning()) -> (rescue: Bool, placedCards: Bool) {
        guard vocabulary, best?.titleKnown != true, tried.allSatisfy({ $0.titleQuality < tuning.title.cleanQuality }) else { return (false, false) }
        return (true, placesCards && best?.fields.collectorNumber == nil)
    }
}
