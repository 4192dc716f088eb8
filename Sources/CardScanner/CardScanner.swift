import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import Foundation

/// The library's one way from a photo to identified cards: decode once, read every card, match
/// each, and read a card's text box and credits when its title and collector lines did not settle
/// a printing (then match again with that evidence). `cardscan identify`, `scan`, `import` and the
/// benchmark all go through it. Owns one reader (one Tesseract engine): one scanner per thread.
public final class CardScanner {
    /// One card found in a photo: what was read and what it matched.
    public struct Card: Sendable {
        public var reading: CardReading
        public var match: MatchResult
    }

    public let reader: CardReader
    public let matcher: CardMatcher
    /// Read the text box and credits of a card that the title and collector lines left
    /// unidentified (only with a catalog that keeps card texts).
    public var readsText: Bool
    /// Read every card's text, also when its title and collector lines identified it (slower):
    /// the result then says what the card's words say of it (`MatchResult.text`), a check of the
    /// identification and the measurements that calibrate the text rule.
    public var readsTextAlways = false
    /// In a photo of several cards, read the titles that lie outside the cards found
    /// (`CardReader.titleCards`): cards that show only their title strip.
    public var readsPhotoTitles = true
    /// Read a region whose collector band shows several cards' number lines as a stack spread to
    /// show each card's collector lines (`CardReader.stackCards`): one card per number line and
    /// set line read.
    public var readsStacks = true
    /// Other workers' engines to share a photo's work with when they are idle (`ScanHelpers`):
    /// `scan` then reads a photo's regions ahead of their turn and identifies its cards on them
    /// too, with the same results as without. Nil: everything on this scanner's engine.
    public var helpers: ScanHelpers?

    /// A scanner over `catalog`, its reader given the catalog's vocabularies.
    public convenience init(catalog: CardCatalog, options: CardReader.Options = .init()) throws {
        try self.init(reader: CardReader(options: options.withVocabularies(of: catalog)),
                      matcher: CardMatcher(catalog: catalog, tuning: options.tuning))
    }

    /// A scanner from a reader and a matcher (the reader should have the matcher's catalog's vocabularies).
    public init(reader: CardReader, matcher: CardMatcher) {
        self.reader = reader
        self.matcher = matcher
        self.readsText = matcher.usesText
    }

    /// Every card in the photo at `path` (the main card first, then the other card-sized regions
    /// where something recognisable was read; up to `limit`), and the decoded photo. The file's
    /// decoding time is the first card's. A card-like region whose title and collector lines said
    /// nothing recognisable is a card when its text names one.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded or read.
    public func scan(contentsOf path: String, limit: Int = 24) throws -> (cards: [Card], photo: Image) {
        let identified = Identified()
        defer { identified.titlesAhead?.jobs.close() }
        let (readings, image) = try reader.readAllKeepingImage(contentsOf: path, limit: limit, reading: reading(identified))
        return (try identify(readings, in: image, confirmed: identified.cards(for: readings), titlesAhead: identified.titlesAhead,
                             gray: identified.gray), image)
    }

    /// Every card in an already decoded photo (see `scan(contentsOf:limit:)`).
    public func scan(image: Image, limit: Int = 24) throws -> [Card] {
        let identified = Identified()
        defer { identified.titlesAhead?.jobs.close() }
        let readings = try reader.readAll(image: image, limit: limit, reading: reading(identified))
        return try identify(readings, in: image, confirmed: identified.cards(for: readings), titlesAhead: identified.titlesAhead,
                            gray: identified.gray)
    }

    /// The cards identified while a photo's regions were read: the regions confirmed by their
    /// text, and (with helpers) the cards identified as soon as they were kept.
    final class Identified {
        /// Each with the reading it was confirmed on (`fitted` gives it the final timings: a part
        /// of the main region kept takes the main reading's time, `PhotoRead.decide`).
        var confirmed: [(then: CardReading, card: Card)] = []
        var early: [(then: CardReading, card: Card)] = []
        /// The photo's titles outside its cards, read ahead on a lent engine (`readSharing`).
        var titlesAhead: TitlesAhead?
        /// The photo's grey pixels the reader made (`PhotoRead.gray`): a card's text read, or a
        /// stack probed, after the photo's regions are read uses them instead of making them again.
        var gray: GrayImage?

        /// All of them, with the timings of the photo's final `readings`.
        func cards(for readings: [CardReading]) -> [Card] {
            CardScanner.fitted(confirmed, to: readings) + CardScanner.fitted(early, to: readings)
        }
    }

    /// How `scan` reads a photo's cards: one region after another on this engine, or with
    /// `helpers`, regions read ahead and cards identified on the engines lent (`readSharing`).
    private func reading(_ identified: Identified) -> (PhotoRead) throws -> Void {
        { [self] photo in
            identified.gray = photo.gray
            if let helpers {
                identified.early = try readSharing(photo, with: helpers, confirmed: identified)
            } else {
                // The main card identified once: its text, read to confirm it, is not read again.
                try photo.readEach(with: reader, confirm: confirmation(identified), main: readsText ? { [self] in
                    let main = photo.readings[0], card = try identify(main) { photo.gray }
                    identified.early = [(main, card)]
                    return card.match.name != nil
                } : nil)
            }
        }
    }

    /// The reader's confirmation of a region on which nothing recognisable was read: the region
    /// kept when its text names a card (`confirmedCard`). Nil without card texts to match.
    private func confirmation(_ identified: Identified) -> CardReader.Confirmation? {
        guard readsText else { return nil }
        return { [self] reading, gray in
            guard let card = try confirmedCard(reading, gray) else { return false }
            identified.confirmed.append((reading, card))
            return true
        }
    }

    /// The card a region's text names: its text read and matched (as for any card its title and
    /// collector lines left unidentified); nil when that names no card.
    func confirmedCard(_ reading: CardReading, _ gray: GrayImage) throws -> Card? {
        let card = try identify(reading) { gray }
        return card.match.name != nil ? card : nil
    }

    /// Each reading of `image` identified (a reading `confirmed` holds as it was matched then);
    /// the photo's grey pixels are made once, when some card needs its text read.
    public func identify(_ readings: [CardReading], in image: Image) throws -> [Card] {
        try identify(readings, in: image, confirmed: [], titlesAhead: nil, gray: nil)
    }

    /// The titles read outside a photo's cards (`CardReader.titleCards`), started on the first
    /// engine free as soon as the photo's regions were decided (`readSharing`), while its cards
    /// are still being identified on the others; taken when the cards they were read outside
    /// (their quads and ways up) are the photo's cards in the end, else dropped and read again:
    /// the same either way.
    struct TitlesAhead {
        let quads: [CardQuad?], rotations: [Int]
        let task: ScanHelpers.Task<(cards: [CardReading], milliseconds: Double)>
        /// Their own jobs, closed when the photo is done.
        let jobs: ScanHelpers.Group

        init(outside readings: [CardReading], in image: Image, gray: GrayImage, jobs: ScanHelpers.Group) {
            quads = readings.map(\.quad)
            rotations = readings.map(\.rotation)
            self.jobs = jobs
            // First in the queue: the longest job of the photo, and what its last step waits on.
            task = jobs.submit(first: true) { $0.reader.titleCards(outside: readings, in: image, gray: gray) }
        }

        /// The titles read ahead, when `readings` are the cards they were read outside (else nil,
        /// the read dropped), run on `scanner` when no engine has started it.
        func titles(outside readings: [CardReading], running scanner: CardScanner) throws -> (cards: [CardReading], milliseconds: Double)? {
            guard readings.map(\.quad) == quads, readings.map(\.rotation) == rotations else {
                jobs.cancel(task)
                return nil
            }
            jobs.helpers.countReadAheadTaken()
            return try jobs.value(task, running: scanner)
        }
    }

    private func identify(_ readings: [CardReading], in image: Image, confirmed: [Card], titlesAhead: TitlesAhead?,
                          gray photoGray: GrayImage?) throws -> [Card] {
        var gray = photoGray
        func pixels() -> GrayImage {
            if gray == nil { gray = image.grayPixels() }
            return gray!
        }
        // A region that is a stack of cards showing their collector lines: its cards instead, the
        // reads' time carried by the first of them. They are matched on what their bands gave
        // them alone: the text box where a stack card is placed shows the cards lying over it.
        // A photo's one card whose number was read is probed for a stack's lines below it (the
        // locator may find a stack's top card alone); a read that finds no stack leaves the card
        // as it was, with the read's time.
        var stacked: [(reading: CardReading, fromStack: Bool, spent: Double)] = []
        for reading in readings {
            guard readsStacks, case (var stack, let spent)? = reader.stackCards(of: reading, gray: pixels, probing: readings.count == 1) else {
                stacked.append((reading, false, 0))
                continue
            }
            guard !stack.isEmpty else {
                stacked.append((reading, false, spent))
                continue
            }
            stack[0].timings = reading.timings
            stack[0].timings.ocr += spent
            stack[0].timings.total += spent
            stacked += stack.map { ($0, true, 0) }
        }
        var cards = try stacked.map { reading, fromStack, spent in
            var reading = reading
            if fromStack { return Card(reading: reading, match: try timedMatch(&reading)) }
            var card = try confirmed.first { $0.reading.quad == reading.quad } ?? identify(reading, pixels: pixels)
            card.reading.timings.ocr += spent
            card.reading.timings.total += spent
            return card
        }
        if readsText, let main = cards.first, !stacked[0].fromStack, !cards.contains(where: { $0.match.name != nil }) {
            cards[0] = try identifyElsewhere(main, pixels: pixels())
            if cards[0].match.name == nil { cards[0] = try identifyByPhotoText(cards[0], pixels: pixels()) }
        }
        if readsPhotoTitles, cards.count >= reader.options.tuning.photoTitles.minimumCards {
            // The cards known by a title read outside the cards found, each kept when the matcher
            // names it; the reads' time is the photo's, carried by its first card.
            let outside = cards.map(\.reading)
            let (titled, spent) = try titlesAhead?.titles(outside: outside, running: self)
                ?? reader.titleCards(outside: outside, in: image, gray: pixels())
            cards[0].reading.timings.ocr += spent
            cards[0].reading.timings.total += spent
            for reading in titled {
                var reading = reading
                let match = try timedMatch(&reading)
                if match.name != nil { cards.append(Card(reading: reading, match: match)) }
            }
        }
        return cards
    }

    /// When no card found in the photo was recognised, the other places the main card may be
    /// (`CardReading.elsewhere`), each matched with its text read there (the way up its place
    /// gives): the first identified, else the first named; else the main card as it was. Either
    /// way with the time the reads took. A place is a guess, so its card counts only when its
    /// text names it too: a title band placed on noise snaps to short names.
    func identifyElsewhere(_ main: Card, pixels gray: GrayImage) throws -> Card {
        let tries = main.reading.elsewhere.map { place in
            { (spent: StageTimings) throws -> (Card?, StageTimings) in
                var place = place
                place.timings = spent
                let card = try self.identify(place, pixels: { gray }, turning: false, readingText: true)
                return (card, card.reading.timings)
            }
        }
        return try Self.best(of: tries, after: main.reading.timings, else: main) { $0.name != nil && $0.text?.bestName == $0.name }
    }

    /// When no card found in the photo was recognised, the photo's text wherever it lies, read
    /// each way up (the locator's quad, and with it the way up, may be wrong), matched with the
    /// main card's fields: a card the locator missed or cut is still found by its words. The main
    /// card matched anew when the text names a card; else as it was (with the time the reads took).
    func identifyByPhotoText(_ main: Card, pixels gray: GrayImage) throws -> Card {
        var reading = main.reading
        reading.observations.removeAll { $0.region.isCardText }
        return try bestWithText(reading, reads: reader.photoTextReads(gray), else: main) { $0.name != nil }
    }

    /// Matches one card read in `image` (see `identify(_:pixels:)`).
    public func identify(_ reading: CardReading, in image: Image) throws -> Card {
        try identify(reading) { image.grayPixels() }
    }

    /// Matches one card; when that does not identify it, reads its text box and credits on
    /// `pixels()` (the photo's grey pixels) and matches again. When no title or name was known
    /// either, the way up the reading took is a guess: the text is read the other way up too, and
    /// the better result is kept (unless `turning` is false: a place whose way up is given).
    /// `readingText`: the text is read even below an identified title, as `readsTextAlways` does.
    /// The card gains the observations that decided, the OCR time and the match time. A text read
    /// that fails (an OCR deadline) leaves the match of the title and collector lines as it was:
    /// the card is not lost.
    func identify(_ reading: CardReading, pixels: () -> GrayImage, turning: Bool = true, readingText always: Bool = false) throws -> Card {
        var reading = reading
        let match = try timedMatch(&reading)
        guard readsText, match.status != .identified || readsTextAlways || always else { return Card(reading: reading, match: match) }
        let ways = turning && match.status != .identified && (reading.fields.title == nil || match.name == nil) ? [false, true] : [false]
        let gray = pixels()
        let reads = ways.map { turned in { try self.reader.readText(of: reading, in: gray, turned: turned) } }
        return try bestWithText(reading, reads: reads, else: Card(reading: reading, match: match)) { _ in true }
    }

    /// `reading` matched again with each text read of `reads` added in turn: the best result
    /// among those `worth` accepts (`best(of:)`); else `fallback`. A read that fails (an OCR
    /// deadline) is skipped, its time counted: the card is not lost.
    private func bestWithText(_ reading: CardReading, reads: [() throws -> [CardObservation]], else fallback: Card,
                              worth: (MatchResult) -> Bool) throws -> Card {
        let tries = reads.map { read in
            { (spent: StageTimings) throws -> (Card?, StageTimings) in
                var timings = spent
                let began = DispatchTime.now().uptimeNanoseconds
                let text = try? read()
                let ms = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6
                timings.ocr += ms
                timings.total += ms
                guard let text, !text.isEmpty else { return (nil, timings) }
                var tried = reading
                tried.observations += text
                tried.timings = timings
                let found = try self.timedMatch(&tried)
                return (Card(reading: tried, match: found), tried.timings)
            }
        }
        return try Self.best(of: tries, after: reading.timings, else: fallback, worth: worth)
    }

    /// Runs `tries` in turn, each given the time spent so far (from `timings`) and giving its card
    /// (nil: nothing to match) and the time after it: the best card `worth` accepts (identified,
    /// then named, then finding most words), the first identified one taken ending the tries; else
    /// `fallback`. Either way the card carries the time every try took.
    private static func best(of tries: [(StageTimings) throws -> (Card?, StageTimings)], after timings: StageTimings,
                             else fallback: Card, worth: (MatchResult) -> Bool) throws -> Card {
        var timings = timings
        var best: Card?
        for attempt in tries {
            let (card, after) = try attempt(timings)
            timings = after
            guard let card else { continue }
            if worth(card.match), best == nil || rank(card.match) > rank(best!.match) || saysMore(card.match, than: best!.match) {
                best = card
            }
            if best?.match.status == .identified { break }
        }
        var card = best ?? fallback
        card.reading.timings = timings
        return card
    }

    /// How much a result says: identified, then a known name, then anything.
    private static func rank(_ m: MatchResult) -> Int {
        m.status == .identified ? 2 : m.name != nil ? 1 : 0
    }

    /// Between two reads that name nothing, whether `m`'s text found more words of its best card:
    /// the card reports the evidence of its most legible read (a read upside down finds one word
    /// of noise; the right way up, words of the card short of the text rule).
    private static func saysMore(_ m: MatchResult, than other: MatchResult) -> Bool {
        rank(m) == 0 && rank(other) == 0 && (m.text?.words.count ?? 0) > (other.text?.words.count ?? 0)
    }

    private func timedMatch(_ reading: inout CardReading) throws -> MatchResult {
        let began = DispatchTime.now().uptimeNanoseconds
        let match = try matcher.match(reading)
        let spent = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6
        reading.timings.match += spent
        reading.timings.total += spent
        return match
    }
}
