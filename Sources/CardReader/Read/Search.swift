import CardScanOCR

/// The reader's search for one card, as data: hypotheses (where the card may be and which way up),
/// each read into evidence (an `Attempt`), one scoring function (`Scoring`), acceptance rules that
/// say when a reading replaces the best one, and a budget.
///
/// The search runs in rounds, because later generators grow their hypotheses from what earlier
/// rounds read (a rescue re-reads the best title bands; an alternative quad is grown from the best
/// reading). Within a round the hypotheses are read in priority order, lazily: a generator's work
/// (a way-up test, finding text boxes) is done only when its hypotheses are reached.
///
/// | round | hypotheses | a reading is taken when | the round ends |
/// |---|---|---|---|
/// | placement | located quad, whole image; each way up, standard then extended bands | it scores higher | a reading is convincing, or the best settles the title |
/// | rescue | the best title bands binarised and re-read | it reads a known name | at the first taken |
/// | art, text boxes | a card placed around the located region as its art; then cards placed around light text boxes | it reads a known name of several letters (else the two best around text boxes, then the two best around the art, go out as `CardReading.elsewhere`, for their text to decide) | at the first taken |
/// | alternatives | the best quad grown by a border, completed to 63:88, hung from its top edge | it scores clearly higher, or completes the same name with collector lines | at the first taken |
///
/// Evidence is also added to the best reading between rounds (the copyright line of an older
/// frame). Adding a region is adding a reader in `+Attempt`; adding a way to find the card is
/// adding a `Hypothesis.Source` and its generator; adding evidence to the decision is a term in
/// `Scoring`.
extension ReadPipeline {
    /// One guess at where the card is and which way up, to be read.
    struct Hypothesis {
        /// What proposed the quad.
        enum Source: String {
            /// The locator's region (its edges refined).
            case located
            /// The whole image: a flat scan of one card.
            case wholeImage
            /// The best quad grown by a black border: it was the card's inner frame.
            case innerFrameExpanded = "inner frame expanded"
            /// The best quad's bottom edge moved to give the card's 63:88 shape.
            case aspectCompleted = "aspect completed"
            /// A 63:88 rectangle hung square from the best quad's top edge.
            case hungFromTop = "hung from top"
            /// A card placed around a light text box of the photo.
            case aroundTextBox = "around a text box"
            /// A card placed around the located region taken as its art.
            case aroundArt = "around its art"
            /// An earlier reading's title band binarised and re-read.
            case titleRescue = "title rescue"
        }

        /// TL, TR, BR, BL of the card as it is read (the way up decided).
        var corners: Quad
        var source: Source
        var wayUp: WayUp = .likely
        /// Read the extended bands (beyond the quad) instead of the standard ones.
        var extended = false
        /// Credit or debit carried into the reading's score.
        var prior = 0.0
        /// The reading it was grown from (rescues and alternatives).
        var basis: Attempt?
    }

    /// What the search for one card may try. The photo's main card is reported whatever is read
    /// on it, so it gets every generator; another region of the photo is kept only when a known
    /// title or a number is read, and there the extra generators only ever found false names in
    /// noise (on the shared photos the alternatives kept 4 other regions, each a false name, and a
    /// copyright line of noise could only add a false number).
    struct SearchPolicy: Equatable {
        /// Read the quad turned round too when the way-up test says upright but no known title was
        /// read (a saga's or a pale 1990s frame's art can measure lighter than its text box).
        var readsOtherWayWhenUpright: Bool
        /// Trust a decisive way-up test: read the collector lines below a standard title band of
        /// noise (a quad seen at a steep angle can miss the title and still hold them).
        var trustsDecisiveWayUp: Bool
        /// Place the card around the located region as its art, or around a light text box, when
        /// nothing known was read.
        var placesCards: Bool
        /// Try quads grown from the best reading when its title or number is missing …
        var triesAlternativeQuads: Bool
        /// … also when only the number is missing below a known title. (An other region is kept
        /// on a known title alone; there the grown quads mostly read a frame that prints no
        /// collector line again: on the synthetic binder page they were 46% of the OCR; over the
        /// shared photos, reading them no more changed no card's name.)
        var completesNumberWithAlternatives: Bool
        /// Read the copyright line below a title band that held nothing title-like.
        var readsCopyrightWithoutTitle: Bool
        /// The rescue reads a binarised band with no line in block mode too.
        var rescuesInBlockMode: Bool

        static let mainCard = SearchPolicy(readsOtherWayWhenUpright: true, trustsDecisiveWayUp: true, placesCards: true,
                                           triesAlternativeQuads: true, completesNumberWithAlternatives: true, readsCopyrightWithoutTitle: true,
                                           rescuesInBlockMode: true)
        static let otherRegion = SearchPolicy(readsOtherWayWhenUpright: false, trustsDecisiveWayUp: false, placesCards: false,
                                              triesAlternativeQuads: true, completesNumberWithAlternatives: false, readsCopyrightWithoutTitle: false,
                                              rescuesInBlockMode: false)
    }

    /// The state of one card's search: the best reading, every reading made, and the budget left.
    struct Search {
        let scoring: Scoring
        private(set) var best: Attempt?
        private(set) var tried: [Attempt] = []
        private(set) var budget: Int

        init(scoring: Scoring, budget: Int) {
            self.scoring = scoring
            self.budget = budget
        }

        /// Reads `hypotheses` in order until `stop` says the round is over or the budget is spent.
        /// `read` returns the evidence of one hypothesis; `accept` returns the reading that becomes
        /// the best (the candidate, a merge of it with the best, or nil to keep the best); `stop`
        /// sees the reading, whether it was taken, and the best. Returns whether any was taken.
        @discardableResult
        mutating func round<S: Sequence>(_ name: String, _ hypotheses: S,
                                         read: (Hypothesis) throws -> Attempt,
                                         accept: (Attempt, Attempt?) -> Attempt?,
                                         stop: (Attempt, Bool, Attempt?) -> Bool) rethrows -> Bool where S.Element == Hypothesis {
            var anyTaken = false
            for hypothesis in hypotheses {
                guard budget > 0 else {
                    DebugDump.trace("\(name): budget spent")
                    return anyTaken
                }
                budget -= 1
                let reading = try read(hypothesis)
                tried.append(reading)
                let taken = accept(reading, best)
                DebugDump.trace("\(name): \(hypothesis.source.rawValue), \(hypothesis.wayUp.rawValue)\(hypothesis.extended ? ", extended" : ""): score \(scoring.score(reading)) \(taken == nil ? "not taken" : "taken")")
                if let taken { best = taken; anyTaken = true }
                if stop(reading, taken != nil, best) {
                    DebugDump.trace("\(name): done (stop rule held)")
                    return anyTaken
                }
            }
            DebugDump.trace("\(name): done (no hypothesis left)")
            return anyTaken
        }

        /// The title rescue's round: each candidate's reading (`Hypothesis.basis`) read again by
        /// `rescue` (nil when that read no known title), the first known title so read taken. Only a
        /// title the rescue read: a candidate whose title was known already (a guessed read the
        /// placement's scoring did not take over the best, such as a name snapped from the small
        /// print read upside down) stays not taken. Returns whether one was taken.
        mutating func rescueRound(_ candidates: [Hypothesis], rescue: (Attempt) throws -> Attempt?) rethrows -> Bool {
            var readAgain = false
            return try round("rescue", candidates, read: { h in
                let rescued = try rescue(h.basis!)
                readAgain = rescued != nil
                return rescued ?? h.basis!
            }, accept: { reading, _ in readAgain && reading.titleKnown ? reading : nil }, stop: { _, taken, _ in taken })
        }

        /// More evidence read on the best reading (a region it lacks).
        mutating func adding(_ evidence: (Attempt) throws -> Attempt) rethrows {
            guard let found = best else { return }
            best = try evidence(found)
        }
    }
}
