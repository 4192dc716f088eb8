import Foundation

/// Every number the reader's search decides with, in one documented place, with the measurement
/// that chose it (figures on `../shared/photos` and the copies `scripts/robustness.sh` makes).
/// Reachable through `CardReader.Options.tuning`; the benchmark sweeps one without a rebuild
/// (`cardscan-bench --tune search.extendedBandPrior=-0.1`, `scripts/robustness.sh --tune …`).
///
/// Card coordinates (where each band sits on the card) are `CardLayout`'s (docs/reader.md).
public struct Tuning: Sendable, Codable, Equatable {
    /// Which hypotheses are read and in what order.
    public var search = Search()
    /// How a title band is judged.
    public var title = Title()
    /// How the evidence of one reading is scored, and when it ends the search.
    public var scoring = Scoring()
    /// Which way up a quad is read first.
    public var orientation = Orientation()
    /// The last resorts: the title rescue and cards placed around the located region as its art
    /// or around text boxes.
    public var lastResorts = LastResorts()
    /// Other quads grown from the best reading.
    public var alternatives = Alternatives()
    /// The matcher's other rules: how title, set code, number, set size and rarity agreeing give
    /// a confidence (`CardMatcher`).
    public var matching = Matching()
    /// The matcher's text rule: when the card's printed words decide (`CardMatcher.textRule`).
    public var textMatching = TextMatching()
    /// The whole photo's text, read when no card found in it was recognised.
    public var photoText = PhotoText()
    /// How card-shaped regions are found and scored in the photo (`CardLocator`).
    public var locator = Locator()
    /// Cards looked for beside the cards read (`NeighbourCards`): a binder page, a grid, a row.
    public var neighbours = Neighbours()
    /// Titles read anywhere in a photo of several cards, outside the cards found: cards that
    /// show only their title strip (an overlapping spread) or that the locator missed.
    public var photoTitles = PhotoTitles()
    /// A stack of cards spread so that each shows its collector lines: one card per pair of
    /// collector lines read.
    public var stack = Stack()

    public init() {}

    public struct Search: Sendable, Codable, Equatable {
        /// Hypotheses read for one card at most. The generators propose at most 25 today (two quads
        /// × two ways up × two band sets, two rescues, four placements around the located region
        /// as its art, eight around text boxes, three alternatives), so it does not bind yet; a new
        /// generator must live within it.
        public var maximumHypotheses = 25
        /// An image whose width over height lies in this range is shaped like a card held upright:
        /// most likely a flat scan, so the whole image is a hypothesis too.
        public var scanAspectMinimum = 0.64
        public var scanAspectMaximum = 0.80
        /// A scan-shaped image is read as a whole first, unless the locator found a region of this
        /// confidence or more covering less than `photoCardShare` of it: a card in a 3:4 phone
        /// photo, not a scan. (Reading that card first cut the single-card photos' median from 204
        /// to 165 ms and the copies' total by 15%, with the same readings.)
        public var confidentLocation = 0.6
        public var photoCardShare = 0.6
        /// Credit given to a reading of the extended bands (beyond the quad): the standard bands
        /// win a tie.
        public var extendedBandPrior = -0.15
    }

    public struct Title: Sendable, Codable, Equatable {
        /// Below this quality (and with no known title) a title band is no title: the collector
        /// band below it is not read.
        public var minimumQuality = 0.3
        /// From this quality up a title band read cleanly: a name the vocabulary lacks is a newer
        /// card, not a misread, and re-reading it will not find one.
        public var cleanQuality = 0.5
        /// A title band whose layout holds more words is not read: art, rules text or a table.
        /// (Bands that read a known name held at most 8 words; bands of noise up to 17, and those
        /// over 12 took ~1 s to read.)
        public var maximumBandWords = 12
        /// The fewest letters of a name taken from a guessed read (a binarised band, a placed
        /// quad): short names are what noise and fragments of longer titles hit.
        public var minimumGuessedNameLetters = 6
        /// The fewest letters of a name taken from the start of a line read in block mode.
        public var minimumLeadingNameLetters = 10
        /// A line's height on the card (share of the card's height) from which it starts to count
        /// as title-sized, and the span over which it becomes fully so: small print (a copyright
        /// line read upside down) is no title.
        public var smallestLetterHeight = 0.012
        public var letterHeightSpan = 0.014
        /// Characters from which a line's length no longer lowers its quality.
        public var fullLength = 4
    }

    public struct Scoring: Sendable, Codable, Equatable {
        /// A reading's score is its title quality plus these credits.
        public var knownTitleCredit = 0.5
        public var collectorNumberCredit = 0.6
        public var setCodeCredit = 0.4
        /// A reading with collector lines and a title of this quality (or a known one) ends the
        /// search for where the card is.
        public var convincingTitleQuality = 0.6
        /// Below this quality a known title with nothing read below it does not settle where the
        /// card is: the vocabulary snaps fragments of noise to names, so the other way up is read
        /// too and the better reading wins. (Known titles read this badly on the shared photos:
        /// two fragments of noise, three real titles that still win on score.)
        public var unsettledTitleQuality = 0.15
    }

    public struct Orientation: Sendable, Codable, Equatable {
        /// Grey levels by which the text box must be lighter than the art box for the quad's way
        /// up to be read alone (darker by as much: upside down first). Upside-down cards measured
        /// −50 and −55, upright ones −45 (a saga, a graded slab's label) to +174.
        public var decisiveLightness = 25.0
        /// Credit given to a reading of the way up a decisive test put second (on the main card),
        /// as much as a known title's credit: against the test, the other way wins on a name the
        /// vocabulary knows read better than the test's way read its band (a saga's art measuring
        /// lighter than its text box), not on text-like noise. Turned round, the title band holds
        /// the rules text upside down, which read at 0.27–0.38 where glare or paint left the title
        /// bar reading nothing, and the card was read the wrong way up (its collector lines
        /// unread; −0.3 still let 0.38 win).
        public var overruledWayPrior = -0.5
    }

    public struct LastResorts: Sendable, Codable, Equatable {
        /// Readings re-read by the title rescue (distinct quads or ways up, best title first),
        /// and the least title quality worth the four reads (a band that read next to nothing is
        /// glare, art or a table).
        public var rescueCandidates = 2
        public var rescueMinimumQuality = 0.05
        /// Local-contrast binarisation of a pale title: the window is the band's height divided by
        /// this (at least 9 px), and a pixel must differ from its window's mean by `binarizeMargin`.
        public var binarizeWindowDivisor = 3
        public var binarizeMargin = 20
        /// Light regions of the photo around which a card is placed, most box-like first.
        public var textBoxes = 2
        /// Cards placed around text boxes that read no known name, and as many placed around the
        /// art, kept (best title first) as places the card may be instead
        /// (`CardReading.elsewhere`): their text is read when nothing at the card's place names a
        /// card.
        public var placesElsewhere = 2
    }

    public struct Alternatives: Sendable, Codable, Equatable {
        /// Credit given to a reading of an alternative quad.
        public var prior = -0.05
        /// An alternative is taken when it scores this much more than the best reading (or reads
        /// the same known name above collector lines the best reading lacks).
        public var margin = 0.1
    }

    /// Confidences are the matcher's estimate that the printing is right; `scripts/score-scans.py
    /// --calibration` sets them against the measured rate per rule.
    public struct Matching: Sendable, Codable, Equatable {
        /// Results at or above this confidence are `identified`.
        public var identifyThreshold = 0.85
        /// What a decision resting on the photo's capture day keeps of its confidence (the
        /// camera's clock can be wrong).
        public var dateTrust = 0.95
        /// A name score from here up is the title read exactly (case and punctuation aside).
        public var exactTitleScore = 0.99
        /// A title scoring below this against its nearest name is noise.
        public var noiseTitleScore = 0.75
        /// Names searched for a title: those scoring at least this.
        public var nameSearchMinimum = 0.4
        /// Set + number (`exact`): a title agreeing this well gives `titleAgreesConfidence`, one
        /// near it `titleNearConfidence` (each × √ of the set code's score). An unreadable or
        /// foreign title needs set code, printed size (where the frame prints one: not from
        /// `sizelessNumbersSince` on) and rarity (or the artist's name read beside them) all to
        /// agree (`allAgreeConfidence`, else
        /// `partlyAgreeConfidence`; a size or rarity read that the printing lacks, and a title
        /// that disagrees, give `disagreeConfidence`). A set code
        /// read exactly is taken from `exactSetConfidence` up.
        public var titleAgreesScore = 0.85
        public var titleAgreesConfidence = 0.97
        public var titleNearScore = 0.6
        public var titleNearConfidence = 0.88
        public var allAgreeConfidence = 0.86
        public var partlyAgreeConfidence = 0.6
        public var disagreeConfidence = 0.3
        public var exactSetConfidence = 0.6
        /// Printings released from this day on print a four-digit number and no set size (the
        /// collector line of Dominaria United, September 2022, on): for them a number read so,
        /// with no size, counts as the size agreeing. (An older card's `007/264` read without its
        /// size as `0071` does not.) A day as YYYYMMDD.
        public var sizelessNumbersSince = 20_220_901
        /// Set read, number not (`number-from-title`): a name and a set code scoring this much;
        /// confidence `numberFromTitleFactor` × name score × √ set score.
        public var numberFromTitleName = 0.8
        public var numberFromTitleSet = 0.7
        public var numberFromTitleFactor = 0.9
        /// Number read, set not (`set-from-number`): a name scoring this much; confidence up to
        /// `setFromNumberCap`, × name score × `setFromNumberSized` (printed size agrees) or
        /// `setFromNumberUnsized`, × the number's trust.
        public var setFromNumberName = 0.8
        public var setFromNumberCap = 0.95
        public var setFromNumberSized = 0.95
        public var setFromNumberUnsized = 0.9
        /// The share of collector numbers read that are right (a prior), and how many numbers a
        /// misread one is drawn from (about a large set's printed size): Bayes' rule gives a
        /// number's trust among a name's printings.
        public var numberReadTrust = 0.85
        public var numberSpace = 300.0
        /// Title only (`title-only`): a name scoring this much. One printing of the name: up to
        /// `titleOnlyCap`, `titleOnlyTitleWeight` × name score + `titleOnlyMarginWeight` × its
        /// lead over other names (full at `titleOnlyMargin`, or `titleOnlyExactMargin` for an
        /// exact title); a reprint narrowed to one: `titleOnlyReprintFactor` × score × lead.
        /// Short names weigh less: × (`shortNameBase` + `shortNamePerLetter` × letters), at most 1.
        public var titleOnlyName = 0.6
        public var titleOnlyCap = 0.95
        public var titleOnlyTitleWeight = 0.55
        public var titleOnlyMarginWeight = 0.4
        public var titleOnlyMargin = 0.3
        public var titleOnlyExactMargin = 0.15
        public var titleOnlyReprintFactor = 0.86
        public var shortNameBase = 0.6
        public var shortNamePerLetter = 0.05
        /// Candidates' scores: the others beside an identified card (half of its confidence, at
        /// most `otherCandidateCap`), an ambiguous rule's (`ambiguousFactor` × name score), and
        /// printings released after the photo was taken (× `laterPrintingFactor`).
        public var otherCandidateCap = 0.5
        public var ambiguousFactor = 0.5
        public var laterPrintingFactor = 0.25
        /// An artist's name read that one of the candidates a rule left tied holds, and no other
        /// (`CardMatcher.artistTellsApart`): a word of this many letters or more read as printed,
        /// of `artistFuzzyLetters` or more read one OCR edit off, and the confidence of the one
        /// candidate it leaves.
        public var artistWordLetters = 4
        public var artistFuzzyLetters = 6
        public var artistTieConfidence = 0.86
    }

    public struct TextMatching: Sendable, Codable, Equatable {
        /// Text alone names the card when its best name holds this share of the query's word
        /// weight, leads the next name by `textAloneMargin`, on `textAloneWords` words or more.
        /// Measured (`scan --text`, every card's text read: 939 reads of the labelled shared photos
        /// and their copies): with 5 words or more and a score of 0.55, no wrong best name led by
        /// more than 0.103 (foreign text, whose words English cards share); a lead of 0.2 named
        /// 584 cards, none wrong (0.25: 564).
        public var textAloneScore = 0.55
        public var textAloneMargin = 0.2
        public var textAloneWords = 5
        /// A name closer than `textAloneMargin` does not stand in the way when every word it holds
        /// the best name holds too, and the best holds this many more (0: off): names whose texts
        /// differ in a word or two (a colour, a land type) are told apart by those words. Not for
        /// the whole photo's text: there, several cards' words mix, and a name held them by chance
        /// (a 40-card photo named a card that was not in it).
        public var dominatingWords = 1
        /// With a title that agrees (a name match of `titleAgreementScore`, or whole words of the
        /// name of `partialTitleLetters` letters or more), weaker text suffices.
        public var titleAgreementScore = 0.6
        public var partialTitleLetters = 4
        public var withTitleScore = 0.3
        public var withTitleMargin = 0.1
        /// Confidence of a printing singled out by text alone, and by title and text.
        public var textAloneConfidence = 0.88
        public var withTitleConfidence = 0.92
        /// A credits line read less sure than this is searched for its artist's name only
        /// (scraps of the band's art read at 0.1–0.35; its lines of print at 0.7 and up, an
        /// artist's name on a poor photo at 0.3).
        public var sureCreditsConfidence = 0.5
        /// A text box read giving fewer than `rereadBelowLetters` letters in lines read at
        /// `sureLineConfidence` or more (a legible box's lines read at 0.6–0.9; a box in a shadow
        /// gave none) is read again, thresholded part by part (`ReadPipeline.readText`).
        public var sureLineConfidence = 0.5
        public var rereadBelowLetters = 20
        /// A text box (`maximumTextBoxWords`) or credits band (`maximumCreditsWords`) whose layout
        /// holds more words is not recognised: texture (a playmat, a toploader's backing, art)
        /// where a place proposed for a card holds none. Tesseract's layout counts a line of
        /// print as few words (0.3 of the words read, at most 0.7, on the shared photos' text
        /// boxes; none of those read 20 sure letters held more than 48), and the longest card
        /// text in the catalog is 127 words; boxes of texture held 60–260 and took 0.5–3 s each
        /// to read. (A box under a toploader's glare held 101 and read nothing sure at one
        /// threshold; its part-by-part read, which is still made, held 46 and read the text.)
        /// Credits bands that read 20 sure letters held under 20 layout words; texture 20–130.
        public var maximumTextBoxWords = 100
        public var maximumCreditsWords = 40
    }

    public struct PhotoText: Sendable, Codable, Equatable {
        /// The photo is reduced by a whole factor until its longer side is at most this many
        /// pixels: rules text of a card filling a third of a phone photo keeps a cap height of
        /// about 12 px or more, and a sparse read of a 12 MP photo stays near 1.5 s a turn.
        public var longSide = 2000
        /// Quarter turns read (0: upright only; 4: every way up, the photo's text direction is
        /// not known when no card was found).
        public var turns = 4
        /// Lines Tesseract is less sure of, or with fewer letters, are left out of the search:
        /// a photo's background and art read as many short, low-confidence scraps, which only
        /// dilute the words and slow the search. (Text lines of a legible card read at 0.6–0.9.)
        public var minimumLineConfidence = 0.5
        public var minimumLineLetters = 4
    }

    public struct PhotoTitles: Sendable, Codable, Equatable {
        /// Read only in a photo where at least this many cards were found (their size gives the
        /// scale of the titles, and a photo of one card is not a spread).
        public var minimumCards = 2
        /// The photo is scaled so that the cards found are this tall (their titles' letters then
        /// about 22 px, as `CardLayout.titleCardHeight` puts it): a title strip is read at the
        /// size the title band is read at …
        public var cardHeight = 800.0
        /// … but enlarged at most this much, and to at most this many pixels: a sparse read of a
        /// busy photo costs about 1–2 s per 8 megapixels, and at 16 a photo of 40 small cards
        /// ran past the OCR deadline (5 s).
        public var maximumScale = 2.0
        public var maximumPixels = 9_000_000
        /// Each card found is blanked (inset by this share of its size, so a neighbour's title
        /// strip beside it stays) before the read: only titles outside the cards found are read.
        public var blankInset = 0.03
        /// The photo is read once as it is and, when that shows a title, once per binarization
        /// here (ink: darker than the mean of a window of this share of the cards' height around
        /// it by `binarizationMargin` grey levels; a share of 0 reads no such pass). Tesseract's
        /// layout finds a different part of the titles of a busy photo on each (on the shared
        /// several-card photos each read found titles the others missed; together they named
        /// about three times as many as the grey photo alone; about 1–2 s a read).
        public var firstWindowShare = 0.05
        public var secondWindowShare = 0.1
        public var binarizationMargin = 10
        /// A line names a card when its cleaned text snaps to a name (`FieldExtractor.resolve`)
        /// with at least this many letters and Tesseract's confidence … (A line's confidence
        /// falls with the frame and mana symbols read beside a title: right titles read at
        /// 0.35–0.5; on all shared photos 0.35 added two right titles and nothing else against
        /// 0.5; the checks below guard the rest.)
        public var minimumLetters = 4
        public var minimumConfidence = 0.35
        /// … and holds the name nearly letter for letter: one letter of it changed, missing or
        /// added per this many letters of the name (none under this many). A title read in part
        /// snaps to another card's name more easily (the end of a name to a printed foreign name
        /// two letters away).
        public var lettersPerMiss = 7
        /// A line that misses more is read again on its own, from a line height before it to
        /// this share of a card's width after its start (a title runs about 0.75 of the width).
        public var rereadWidthShare = 0.85
        /// … and its height (the box Tesseract gives a line: capitals and descenders) is this
        /// share of the cards' height, within the factors below: a title, not small print or a
        /// name printed large on a box. (On the shared several-card photos, titles of cards as far
        /// from the camera as those found read 0.7–1.0 of it, of cards lying nearer up to 2.5; the
        /// synthetic cards' larger titles up to 3.)
        public var lineHeightShare = 0.035
        public var minimumHeightFactor = 0.6
        public var maximumHeightFactor = 3.2
        /// A line with another line of text within this many of its heights above or below it
        /// (centre to centre), starting within as many of its heights of where it starts, is a
        /// line of a paragraph, not a title. (Titles stacked in a spread lie about 3.4 line
        /// heights apart; lines of rules text about 1.2.)
        public var paragraphSpacing = 1.6
        /// A line with another line ending within this many of its heights before it on its row
        /// continues that line (the words of one line are a space apart; titles of cards side by
        /// side have a mana cost and two frames between them).
        public var wordSpacing = 1.0
        /// Only lines of this many letters or more count as such neighbours: words, not scraps
        /// of art or the other half of a title read in two pieces.
        public var neighbourLetters = 6
        /// Where a title's line lies on its card (share of the card's width from the left edge to
        /// the line's start; share of its height from the top edge to the line's middle): the
        /// card is placed around the line for reporting and drawing.
        public var lineLeftShare = 0.075
        public var lineMiddleShare = 0.07
        /// Titles in columns of overlapping cards (`ReadPipeline.titleGaps`): titles start within
        /// this share of a card's width of each other to be one column …
        public var columnShare = 0.12
        /// … the step is the shortest gap between titles in the column, of at least this many
        /// line heights (shorter: one title read twice); a gap wider than this many steps (and
        /// narrower than the most: wider is a whole card below its title), and as much above
        /// the column's top title, is read again …
        public var minimumStepLines = 2.0
        public var gapSteps = 1.5
        public var maximumGapSteps = 4.0
        /// … once the column shows at least this many titles. Rows likewise
        /// (`ReadPipeline.titleRowGaps`): titles whose middles lie within this many line
        /// heights of each other are one row, of at least this many titles (two give the step
        /// of cards side by side).
        public var minimumColumnTitles = 3
        public var rowLines = 1.5
        public var minimumRowTitles = 2
        /// Strips are read again after a title found in one, at most this many rounds in all.
        public var stripRounds = 2
    }

    public struct Stack: Sendable, Codable, Equatable {
        /// A region is read as a stack when its collector band shows this many cards' rows
        /// (`ReadPipeline.cardRows`: a number line, or a set line whose number line was not read;
        /// one card shows one; an older frame's copyright line does not count: its number has no
        /// set line under it to pair with) …
        public var minimumNumberLines = 2
        /// … and is one when following it finds at least this many cards (a number line and a
        /// set line with a number each).
        public var minimumCards = 2
        /// The resolution Tesseract is told for the probe's sparse reads (`probeLeft`, `seedTop`,
        /// `searchLeft`): at 300 dpi its layout drops lines of this size as too small (on the
        /// synthetic stack read whole every `0107 M`-style line; 200 keeps them, and 70–200 read
        /// the same).
        public var resolution = 200
        /// Each card of a stack is read on this band of its card (share of its width and height;
        /// the number line's top lies at `numberTop`, the set line's bottom about 0.975), at the
        /// collector band's resolution: a card placed a little wrong still shows its lines whole,
        /// and the next card's (a step of about 0.1 below) do not show. (Read at 0.6 of that
        /// resolution the variants lost 17 of 56 cards; at 0.8–1.5 times it they read 48–60 of
        /// 104 and 42–45 of 116, no trend.)
        public var bandLeft = -0.03
        public var bandTop = 0.91
        public var bandRight = 0.45
        public var bandBottom = 0.99
        /// … not recognised past this many words (a card's two lines hold about eight; art or
        /// a table read there holds dozens) …
        public var bandWords = 20
        /// … and read again once where its number line puts the card when that is more than this
        /// share of the card away and no card was read (its set line cut off).
        public var lookAgain = 0.01
        /// Where no card was read a step on, the cards' rows around where its would be are read
        /// as the probe reads (from `searchLeft` left of its start to `searchRight` right, from
        /// `searchUp` above its top to `searchDown` below; shares of a card) and the card read
        /// at the nearest: the step varies by a few hundredths from card to card.
        public var searchLeft = 0.2
        public var searchRight = 0.3
        public var searchUp = 0.06
        public var searchDown = 0.08
        /// Neighbouring cards lie at least this share of a card's height apart (two number line
        /// heights: rows closer than that are one card's lines).
        public var minimumStep = 0.03
        /// A stack is followed until this many steps in a row find no card (one card's lines
        /// misread does not end it), or the photo ends, or this many cards are found.
        public var maximumMisses = 2
        public var maximumCards = 60
        /// Where a number line lies on its card, for placing the card around it: the height of
        /// the box Tesseract gives it (the lower median over the lines: the cards are of one
        /// size, and a box may take in two lines),
        /// its start from the card's left edge (share of the width) and its top from the card's
        /// top edge (share of the height). Measured on the synthetic stack (boxes 9.4–10 px on
        /// cards 660 px tall) and the synthetic 2015 and 2023 frames read flat (0.049–0.050,
        /// 0.942–0.943).
        public var numberHeight = 0.015
        /// The region's title is the card's whose title line would lie nearest it, within this
        /// share of a card's height (the cards lie a step of about 0.1 apart).
        public var titleDistance = 0.1
        public var numberLeft = 0.05
        public var numberTop = 0.942
        /// A set line's top lies this share of a card's height below its number line's top (the
        /// synthetic 2015 frames read flat: 0.018, lines 0.015 high); a set line moved up by it
        /// lies within this many of its heights of its own number line (the next card's lies
        /// two or more away: `minimumStep`).
        public var setLineBelow = 0.018
        public var sameCardLines = 0.75
        /// A photo's one card whose number was read is probed for a stack below it (the locator
        /// may find a stack's top card alone): the band from `probeLeft` to `probeRight` of a
        /// card's width (a number line starts at 0.05, a stack's sideways step either way) and
        /// from its bottom edge `probeDepth` of its height down (a stack's step is about 0.1),
        /// not recognised past `probeWords` words (a table's texture; a stack shows a few lines
        /// a card; 30 was not fitted: the variants' stacks were read under it). On the shared
        /// photos it found no number line on any of 64 probed photos; its read took 1–2 ms on
        /// most, up to ~55 ms on textured tables (×1.026 per single-card photo in all, on the
        /// reader's own grey pixels). A band to 0.5 wide and 0.25 deep read 2 more variant
        /// cards of 116 at ×1.047 (grey pixels then made again for it).
        public var probeLeft = -0.15
        public var probeRight = 0.3
        public var probeDepth = 0.2
        public var probeWords = 30
        /// When the probe finds a number line, the band from `seedTop` of the card's height down
        /// is read as the probe is: the card's own lines and the next cards', whose places give
        /// the stack's step.
        public var seedTop = 0.85
        /// The cards' size from the top card's edge and number line is taken when it differs by
        /// at most this share from the size the lines' height gives.
        public var sizeAgreement = 0.3
    }

    public struct Neighbours: Sendable, Codable, Equatable {
        /// Two read cards are neighbours when their centres lie this many card widths apart across
        /// (or heights down), from … to: side by side with a gap (a binder pocket's seam, a
        /// table's spacing), not overlapping and not a card apart.
        public var minimumStep = 1.0
        public var maximumStep = 1.6
        /// … and at most this share of a card height (width) out of line.
        public var maximumSkew = 0.3
        /// … and of about one size (the smaller's area at least this share of the larger's), their
        /// sides running the same ways (the cosine between their widths at least this).
        public var minimumSizeRatio = 0.7
        public var minimumAxisCosine = 0.95
        /// Where nothing is read at a proposal, the card the locator finds in the photo around it
        /// (this share of a card's size beyond it on each side) is read, when that card lies
        /// within `refineShift` of a card's height of it (`NeighbourCards.refined`).
        public var refineMargin = 0.25
        public var refineShift = 0.2
        /// A proposal's corners may lie this share of a card's width outside the photo.
        public var outsideShare = 0.4
        /// A place beside a card with less than this share of it inside the photo lies beyond
        /// the photo (`NeighbourCards.closes`): more may show a cut card's title.
        public var closedInsideShare = 0.25
        /// A proposal is not read where a region was read whose corners lie within this share
        /// of a card's height of its own on average (the same place).
        public var samePlaceShare = 0.05
        /// A card read on more than this share of its area over a card read before is that card
        /// again, or a misplaced quad that read its title (cards side by side share none).
        public var maximumSharedArea = 0.2
        /// Proposals read in one photo at most (each costs a card's read, ~0.1–0.8 s).
        public var maximumProposals = 12
        /// Where the cards read show no step, the regions located give it when at least this many
        /// pairs of them (with the cards) lie a step apart: a grid or a row of toploaders, not the
        /// two parts of an overlapping spread that one pair shows.
        public var layoutPairs = 2
        /// A located region other than the first, on which nothing recognisable was read, is
        /// offered to the caller's confirmation (its text read: ~0.3–1 s) when it is at least this
        /// card-like (`LocatedCard.confidence`); a region beside cards located or read (the
        /// locator's, or one step from them) always is. At 0.9 the labelled several-card photos had 31 cards
        /// named, at 0.6 (the locator's peer score: every other region) 32; single-card photos
        /// read the same at both (their copies, measured at 0.6 only, the same as before).
        public var confirmedLocation = 0.6
    }

    /// Sizes are in pixels of the locator's thumbnail, areas as shares of it, unless said.
    public struct Locator: Sendable, Codable, Equatable {
        /// Long side of the working thumbnail the photo is reduced to.
        public var thumbnailSide = 480
        /// A region smaller than the thumbnail's area over this is not a card candidate.
        public var componentAreaDivisor = 150
        /// The segmentations: edge maps at these multiples of the edges' Otsu level, and
        /// brightness thresholds at Otsu's level, that level ± `thresholdSpread`, and two fixed
        /// levels (a dark ground, a white border).
        public var edgeStrengthLow = 0.6
        public var edgeStrengthMid = 1.0
        public var edgeStrengthHigh = 1.6
        public var thresholdSpread = 40
        public var fixedDarkLevel = 60
        public var fixedLightLevel = 200
        /// A region running into the photo's edge within this margin touches it; two touched
        /// edges make it background.
        public var edgeMargin = 5
        /// Regions covering less or more of the thumbnail than this are no card.
        public var minimumAreaShare = 0.01
        public var maximumAreaShare = 0.995
        /// A region whose sides fit no lines gets a trapezoid from its hull when it fills its
        /// rectangle this well.
        public var trapezoidFill = 0.6
        /// Regions scoring less are dropped.
        public var minimumScore = 0.15
        /// What a region that runs into one edge of the photo keeps of its score: the frame may
        /// cut it, so its shape says less, and what runs into the edge is more often table, a box
        /// or a stack of cards than the card (two cards side by side on a mat were taken as one
        /// region reaching the photo's bottom, a fan of three as one reaching its top). At 0.6
        /// the shared photos lost nothing and their turned, tilted and halved copies gained 3
        /// printings; at 0.4 a card in an unlabelled photo was lost.
        public var edgeTouchPenalty = 0.6
        /// The shape score: the aspect's spread around 63:88, and the area share at which size
        /// stops counting against a region (`0.5 + share / sizeShare`, at most 1).
        public var aspectSpread = 0.07
        public var sizeShare = 0.08
        /// Sides are fitted to the boundary points within this share of the shorter side
        /// (at least 2 px), between `fitSideStart` and `fitSideEnd` of each side (corners are
        /// rounded), from `fitMinimumPoints` points or more; a fitted corner further than `fitCornerBands` bands from the
        /// rectangle's is a wild fit.
        public var fitBand = 0.04
        public var fitSideStart = 0.1
        public var fitSideEnd = 0.9
        public var fitMinimumPoints = 6
        public var fitCornerBands = 3.0
        /// A card-like region this many times larger (from … to) that contains the best one and
        /// scores at least `containingScore` is the card around its art or text box …
        public var containingMinimumRatio = 1.6
        public var containingMaximumRatio = 4.0
        public var containingScore = 0.35
        /// … unless it holds a peer: a region of about the same size (ratio from `1/peerRatio`
        /// to `peerRatio`, lower bound `peerMinimumRatio`) scoring `peerScore` or more beside the
        /// best, i.e. a group of cards (a binder page, a row on a table).
        public var peerScore = 0.6
        public var peerMinimumRatio = 0.6
        public var peerMaximumRatio = 1.6
        /// Other cards of a photo are as card-like as the first (`peerScore`) and between these
        /// multiples of its area.
        public var otherCardMinimumRatio = 0.5
        public var otherCardMaximumRatio = 2.0
        /// A region lying one step beside a card taken, of its size and turned as it is, is taken
        /// from this score (`CardLocator.besideCards`).
        public var besideScore = 0.4
        /// Text boxes (light, solid, about twice as wide as tall): at least the thumbnail's area
        /// over `textBoxAreaDivisor`, filling their rectangle to `textBoxFill`, an aspect between
        /// the bounds (scored around `textBoxAspect` with `textBoxAspectSpread`), and less than
        /// `textBoxMaximumShare` of the thumbnail.
        public var textBoxAreaDivisor = 800
        public var textBoxFill = 0.8
        public var textBoxMinimumAspect = 0.4
        public var textBoxMaximumAspect = 0.72
        public var textBoxAspect = 0.56
        public var textBoxAspectSpread = 0.1
        public var textBoxMaximumShare = 0.3
        /// A text box within this margin of the thumbnail's edge is cut off: not taken.
        public var textBoxEdgeMargin = 2
        /// A quad whose rectified width over height exceeds this is turned a quarter (a card's
        /// is 88:63 = 1.4 lying down; near square, the fallback focal length could decide).
        public var decisiveRectifiedRatio = 1 / 0.8
    }

    /// The tuning with `name` (a dotted path such as `search.extendedBandPrior`) set to `value`.
    /// - Throws: `TuningError` for an unknown name or a value of the wrong kind.
    public func setting(_ name: String, to value: String) throws -> Tuning {
        let encoder = JSONEncoder()
        guard var tree = try JSONSerialization.jsonObject(with: encoder.encode(self)) as? [String: Any] else {
            throw TuningError.unknownName(name)
        }
        let path = name.split(separator: ".").map(String.init)
        guard path.count == 2, var group = tree[path[0]] as? [String: Any], group[path[1]] != nil else {
            throw TuningError.unknownName(name)
        }
        guard let number = Double(value), number.isFinite else { throw TuningError.badValue(name, value) }
        // A whole number decodes into an integer or a real parameter alike; a fraction into a real one only.
        group[path[1]] = number == number.rounded() && abs(number) < 1e15 ? Int(number) as Any : number as Any
        tree[path[0]] = group
        do {
            return try JSONDecoder().decode(Tuning.self, from: JSONSerialization.data(withJSONObject: tree))
        } catch {
            throw TuningError.badValue(name, value)
        }
    }

    /// The tuning with each `name=value` of `assignments` set in turn.
    public func setting(_ assignments: [String]) throws -> Tuning {
        try assignments.reduce(self) { tuning, assignment in
            guard let eq = assignment.firstIndex(of: "=") else { throw TuningError.badAssignment(assignment) }
            return try tuning.setting(String(assignment[..<eq]), to: String(assignment[assignment.index(after: eq)...]))
        }
    }

    /// Every parameter as `name=value`, sorted by name (what `--tune` accepts).
    public var assignments: [String] {
        guard let data = try? JSONEncoder().encode(self),
              let tree = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return [] }
        return tree.flatMap { group, values in values.map { "\(group).\($0.key)=\($0.value)" } }.sorted()
    }
}

/// A `--tune` assignment that cannot be applied.
public enum TuningError: Error, CustomStringConvertible, Equatable {
    case unknownName(String)
    case badValue(String, String)
    case badAssignment(String)

    public var description: String {
        switch self {
        case .unknownName(let name): "unknown tuning parameter '\(name)' (names are group.parameter, e.g. search.extendedBandPrior)"
        case .badValue(let name, let value): "tuning parameter '\(name)' cannot be '\(value)'"
        case .badAssignment(let text): "tuning assignment '\(text)' is not name=value"
        }
    }
}
