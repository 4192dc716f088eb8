import CardScanOCR

/// Reading every card of one photo, one region at a time: the most card-like region first (the
/// main card, reported whatever is read on it), then the other located regions (and the less
/// card-like regions the locator found beside them, `CardLocator.besideCards`), then places beside
/// the cards read (`NeighbourCards`), each decided in turn: kept when something recognisable was
/// read on it (a title the vocabulary knows, or a collector number), or when the caller's
/// confirmation keeps it.
///
/// `CardReader.readAll` reads the regions one by one (`readEach`). The steps are public so that a
/// caller with several engines can read regions before their turn on the others (`upcoming`,
/// `read(_:with:)`, which depend on nothing a decision changes), and decide them in turn (`next`,
/// `decide`): the same regions are decided in the same order on the same readings, so the cards
/// found are the same however many engines read them (`CardScanner` with helpers).
///
/// One thread makes the decisions (`readMainCard`, `next`, `upcoming`, `decide`); `read(_:with:)`
/// may run on any thread, each with its own reader.
public final class PhotoRead: @unchecked Sendable {
    /// A place to read: a located region or a place beside the cards read.
    public struct Region: @unchecked Sendable {
        /// Its place in the order the regions are decided (the first after the main card is 0).
        public let order: Int
        let located: LocatedCard
        /// The cards read when it was handed out (with the main card's place, once read): its read
        /// wants a confirmation unless it lies on one of them (`RegionRead.wantsConfirmation`).
        let cardsThen: [Quad]
    }

    /// One region read, to be decided in its turn.
    public struct RegionRead: @unchecked Sendable {
        public let region: Region
        let attempt: ReadPipeline.Attempt
        /// The region's reading, as reported when it is kept.
        public let reading: CardReading
        /// Nothing recognisable was read on it, and it is card-like enough or lies beside cards
        /// read or located: `decide` asks the confirmation about it, unless a card read since covers it.
        public let wantsConfirmation: Bool
        /// Milliseconds the read took.
        let spent: Double
    }

    public let image: Image
    /// The photo's grey pixels, made once.
    public let gray: GrayImage
    public let limit: Int
    let pipeline: ReadPipeline
    private let located: [LocatedCard]
    /// Every region the locator found (`located` and those beside them): the layout they show
    /// gives the step between cards where the cards read show none (`propose`).
    private let layout: [Quad]
    private let scanShaped: Bool
    private let converted: UInt64, start: UInt64, locatedAt: UInt64

    /// The cards read so far (the main card first, once read). Never empty after `readMainCard`.
    public private(set) var readings: [CardReading] = []
    /// The main card's reading: other regions on it are not other cards.
    private var first: ReadPipeline.Attempt?
    /// The main region read as no card, and it may be two (`LocatedCard.parts`): its parts are
    /// read first, and the first kept as a card takes its place.
    private var mainInParts = false
    private var pending: [(order: Int, located: LocatedCard)] = []
    private var handedOut = 0
    private var cards: [Quad] = [], tried: [Quad] = []
    private var proposed = 0
    private var current: Region?
    private var finished = false
    /// Asked once, before places are first proposed, when nothing recognisable was read on the
    /// main card's title and collector lines: true when its text names a card (`confirmMain`).
    private var mainConfirmation: (() throws -> Bool)?

    /// Converts the photo to grey and locates its card-like regions (`limit`: cards to read at most).
    public convenience init(image: Image, limit: Int, reader: CardReader) {
        self.init(image: image, limit: limit, pipeline: reader.pipeline)
    }

    init(image: Image, limit: Int, pipeline: ReadPipeline) {
        converted = Clock.now
        DebugDump.trace("photo \(image.name)")
        self.image = image
        self.limit = limit
        self.pipeline = pipeline
        gray = image.grayPixels()
        start = Clock.now
        let search = pipeline.options.tuning.search
        let aspect = Double(gray.width) / Double(gray.height)
        // A portrait image shaped like a card is most likely a flat scan of one card.
        scanShaped = aspect > search.scanAspectMinimum && aspect < search.scanAspectMaximum
        let found = CardLocator(tuning: pipeline.options.tuning.locator, neighbours: pipeline.options.tuning.neighbours)
            .locateWithBeside(gray, limit: limit)
        located = found.cards
        layout = (found.cards + found.beside).map(\.corners)
        locatedAt = Clock.now
        // The main region's parts (read first when it reads as no card) and the regions of their
        // size (read once a part is a card) have the first places.
        handedOut = (located.first?.parts.count ?? 0) + (located.first?.partPeers.count ?? 0)
        // The less card-like regions beside the located ones come after them.
        for other in located.dropFirst() + found.beside { enqueue(other) }
    }

    private var tuning: Tuning.Neighbours { pipeline.options.tuning.neighbours }

    private func enqueue(_ region: LocatedCard) {
        pending.append((handedOut, region))
        handedOut += 1
    }

    /// Reads the main card with `reader`'s engines: the first step. A flat scan (the whole image
    /// read as the card) is one card: no other region is read.
    public func readMainCard(with reader: CardReader) throws {
        try readMainCard(with: reader.pipeline)
    }

    func readMainCard(with pipeline: ReadPipeline) throws {
        precondition(first == nil, "the main card is read once")
        DebugDump.trace("main region confidence \(located.first?.confidence ?? 0)")
        let read = try pipeline.read(gray: gray, located: located.first, scanShaped: scanShaped, policy: .mainCard)
        first = read
        readings = [reading(read, locateConfidence: located.first?.confidence ?? 0,
                            decode: Clock.ms(converted, start), locate: Clock.ms(start, locatedAt), ocr: Clock.ms(locatedAt, Clock.now))]
        if ReadPipeline.isCard(read) { cards = [read.corners] }
        tried = [read.corners]
        // The whole image read as the card: a flat scan of one card.
        finished = ReadPipeline.isWholeImage(read.corners, gray)
        if !finished, !ReadPipeline.isCard(read), let parts = located.first?.parts, !parts.isEmpty {
            DebugDump.trace("main region read as no card: its \(parts.count) parts read first")
            mainInParts = true
            pending.insert(contentsOf: parts.enumerated().map { ($0.offset, $0.element) }, at: 0)
        }
    }

    /// How to confirm the main card by its text (the caller's confirmation of its reading, or the
    /// card it identified the reading as): asked, at most once, when places beside the cards are
    /// first proposed and the main card's title and collector lines said nothing recognisable. A
    /// main card so confirmed is a card the places are proposed beside (the only one, or one of
    /// the two that give the step). Set after `readMainCard`, before `next`.
    public func confirmMain(by confirmation: @escaping () throws -> Bool) {
        mainConfirmation = confirmation
    }

    /// The cards read, with the main card's place (it may have been placed elsewhere than its
    /// located region, around its art or its text box: a region on the same card is not another
    /// card), unless that may be two cards still to read (`mainInParts`).
    private var occupied: [Quad] { cards + (mainInParts ? [] : first.map { [$0.corners] } ?? []) }

    /// The next region to decide, nil when the photo is done (the limit reached, or no region
    /// left). The other located regions come first, then places beside the cards read (or beside
    /// the regions located, where they show the layout's step: `propose`), proposed when no
    /// region is left (a place is read again where a region of another size or shape was read in
    /// vain: a card's inner frame, found where touching borders merge, reads no title).
    /// A region on a card read is passed over.
    public func next() throws -> Region? {
        precondition(first != nil && current == nil, "the main card is read first, and each region decided before the next")
        guard !finished else { return nil }
        while readings.count < limit {
            if pending.isEmpty {
                if let confirmation = mainConfirmation, let main = first {
                    mainConfirmation = nil
                    if !mainInParts, !cards.contains(main.corners), try confirmation() {
                        DebugDump.trace("main card confirmed by its text")
                        cards.insert(main.corners, at: 0)
                    }
                }
                propose()
                if pending.isEmpty { break }
            }
            let other = pending.removeFirst()
            guard !occupied.contains(where: { CardLocator.overlaps(other.located.corners, $0) }) else { continue }
            current = Region(order: other.order, located: other.located, cardsThen: occupied)
            return current
        }
        finished = true
        return nil
    }

    /// Up to `count` regions whose turn comes after the current one, as far as known now (the
    /// places beside cards are known only when their turn comes), not on a card read so far:
    /// their reads may start before their turn. Before the main card is read, the other located
    /// regions.
    public func upcoming(_ count: Int) -> [Region] {
        guard !finished, max(readings.count, 1) < limit else { return [] }
        let occupied = occupied
        return Array(pending.lazy.filter { p in !occupied.contains { CardLocator.overlaps(p.located.corners, $0) } }
            .prefix(count).map { Region(order: $0.order, located: $0.located, cardsThen: occupied) })
    }

    /// Proposes places beside the cards read, one step from each (`NeighbourCards`), not on a card
    /// or a region to read, nor where a region was read; each with the card the locator finds
    /// around it (`NeighbourCards.refined`) as the place read when nothing is read at the step.
    /// Where the cards read show no step, the regions located of a card read's size (not on a
    /// card read) give it when `Tuning.Neighbours.layoutPairs` pairs of them lie a step apart,
    /// and places are proposed beside those regions too.
    private func propose() {
        let neighbours = NeighbourCards(tuning: tuning)
        let locator = CardLocator(tuning: pipeline.options.tuning.locator, neighbours: tuning)
        var steps = neighbours.steps(cards), anchors = cards
        if steps.across == nil, steps.down == nil {
            // The cards read show no step (one card read among toploaders or pockets whose other
            // cards read nothing on their title and collector lines): the regions located, read
            // or not, show the layout's step when enough pairs of them lie side by side (a grid or
            // a row, not two parts of an overlapping spread), and places are proposed beside them
            // as beside the cards.
            let regions = layout.filter { region in
                !cards.contains { neighbours.liesOn(region, $0) }
                    && cards.contains { neighbours.offset(of: region, from: $0) != nil }
            }
            let shown = neighbours.steps(cards + regions, minimumPairs: tuning.layoutPairs)
            if shown.across != nil || shown.down != nil { (steps, anchors) = (shown, cards + regions) }
        }
        DebugDump.trace("proposing beside \(cards.count) cards and \(anchors.count - cards.count) regions: step across \(steps.across.map { String(format: "%.2f", $0) } ?? "-"), down \(steps.down.map { String(format: "%.2f", $0) } ?? "-")")
        for card in anchors {
            for stepped in neighbours.proposals(around: card, steps: steps, imageWidth: gray.width, imageHeight: gray.height) {
                guard proposed < tuning.maximumProposals,
                      !(cards + pending.map(\.located.corners)).contains(where: { CardLocator.overlaps(stepped, $0) }),
                      !tried.contains(where: { neighbours.samePlace(stepped, $0) }) else { continue }
                // Read where the step put it, then where the locator finds the card around it
                // (unless that region was read in vain already).
                let found = neighbours.refined(stepped, in: gray, locator: locator, besides: cards)
                    .flatMap { f in tried.contains { neighbours.samePlace(f, $0) } ? nil : f }
                enqueue(LocatedCard(corners: stepped, confidence: 0, method: NeighbourCards.method, alsoAt: found))
                proposed += 1
            }
        }
    }

    /// Reads `region` with `reader`'s engines (a reader with the same options as the one this
    /// photo was begun with). Any thread, any time: it depends on nothing the decisions change.
    public func read(_ region: Region, with reader: CardReader) throws -> RegionRead {
        try read(region, with: reader.pipeline)
    }

    func read(_ region: Region, with pipeline: ReadPipeline) throws -> RegionRead {
        let other = region.located, began = Clock.now
        DebugDump.trace("other region (\(other.method)) confidence \(other.confidence) at \(Self.describe(other.corners))")
        var read = try pipeline.read(gray: gray, located: other, scanShaped: false, policy: .otherRegion)
        // Nothing recognisable where the region was put: the other place the card may be, found
        // by its edges, is read instead (and its text, when that is asked for).
        if !ReadPipeline.isCard(read), let elsewhere = other.alsoAt {
            DebugDump.trace("read again at \(Self.describe(elsewhere))")
            read = try pipeline.read(gray: gray, located: LocatedCard(corners: elsewhere, confidence: other.confidence, method: other.method),
                                     scanShaped: false, policy: .otherRegion)
        }
        let spent = Clock.ms(began, Clock.now)
        let made = reading(read, locateConfidence: other.confidence, decode: 0, locate: 0, ocr: spent)
        let wants = !ReadPipeline.isCard(read) && isConfirmable(other) && isAnother(read, besides: region.cardsThen)
        return RegionRead(region: region, attempt: read, reading: made, wantsConfirmation: wants, spent: spent)
    }

    /// A region whose reading said nothing recognisable may still be confirmed as a card when it
    /// is card-like (`Tuning.Neighbours.confirmedLocation`) or a place beside cards read or located.
    private func isConfirmable(_ region: LocatedCard) -> Bool {
        region.confidence >= tuning.confirmedLocation
            || [NeighbourCards.method, CardLocator.besideMethod, CardLocator.partMethod].contains(region.method)
    }

    /// A read that moved onto a card already read (a grown or placed quad), or lies partly on one
    /// (a proposal straddling two cards reads one's title), is not another card.
    private func isAnother(_ read: ReadPipeline.Attempt, besides cards: [Quad]) -> Bool {
        let neighbours = NeighbourCards(tuning: tuning)
        return !cards.contains { neighbours.liesOn(read.corners, $0) }
    }

    /// Decides the region `next` handed out, given its read: kept as a card when something
    /// recognisable was read on it, or when `confirm` (asked only of a confirmable region on which
    /// nothing was, not on a card read) keeps it. Time spent on a region that held no card is the
    /// photo's: the main card's reading carries it. (A confirmed card carries the confirmation's
    /// time in the caller's result.)
    public func decide(_ region: RegionRead, confirm: ((CardReading, GrayImage) throws -> Bool)?) throws {
        guard let asked = current, asked.order == region.region.order else {
            preconditionFailure("decide the region next() handed out")
        }
        current = nil
        let read = region.attempt, began = Clock.now
        let another = isAnother(read, besides: occupied)
        var spent = region.spent, isCard = another && ReadPipeline.isCard(read)
        if another, !isCard, let confirm, isConfirmable(asked.located) {
            isCard = try confirm(region.reading, gray)
            if !isCard { spent += Clock.ms(began, Clock.now) }
        }
        DebugDump.trace("other region read in \(Int(spent))ms kept \(isCard) title \(read.fields.title?.value ?? "-") number \(read.fields.collectorNumber?.value ?? "-") at \(Self.describe(read.corners))")
        tried += [asked.located.corners] + [asked.located.alsoAt].compactMap { $0 }
        guard isCard else {
            readings[0].timings.ocr += spent
            // No part was a card: the main region stands as read.
            if mainInParts, !pending.contains(where: { $0.located.method == CardLocator.partMethod }) { mainInParts = false }
            return
        }
        cards.append(read.corners)
        if mainInParts {
            // A part of the main region is a card: the region was two cards, not one read as none.
            DebugDump.trace("main region replaced by its part")
            mainInParts = false
            first = read
            // It carries the photo's time, the main region's reads included.
            var part = region.reading
            part.timings.decode = readings[0].timings.decode
            part.timings.locate = readings[0].timings.locate
            part.timings.ocr += readings[0].timings.ocr
            readings[0] = part
            // The photo's other cards are of the part's size: its regions of that size come next.
            let peers = located.first?.partPeers ?? [], firstOrder = located.first?.parts.count ?? 0
            let after = pending.firstIndex { $0.located.method != CardLocator.partMethod } ?? pending.endIndex
            pending.insert(contentsOf: peers.enumerated().map { (firstOrder + $0.offset, $0.element) }, at: after)
            return
        }
        readings.append(region.reading)
    }

    /// Reads the main card, then decides every other region in turn, each read when its turn
    /// comes, all with `reader`'s engines (`CardReader.readAll`). The main card is confirmed
    /// (`confirmMain`) by `main` when given, else by `confirm` of its reading.
    public func readEach(with reader: CardReader, confirm: CardReader.Confirmation?, main: (() throws -> Bool)? = nil) throws {
        try readEach(with: reader.pipeline, confirm: confirm, main: main)
    }

    func readEach(with pipeline: ReadPipeline, confirm: CardReader.Confirmation?, main: (() throws -> Bool)? = nil) throws {
        try readMainCard(with: pipeline)
        if let main {
            confirmMain(by: main)
        } else if let confirm {
            confirmMain { [unowned self] in try confirm(readings[0], gray) }
        }
        while let region = try next() {
            try decide(read(region, with: pipeline), confirm: confirm)
        }
    }

    private func reading(_ read: ReadPipeline.Attempt, locateConfidence: Double, decode: Double, locate: Double, ocr: Double) -> CardReading {
        var timings = StageTimings()
        timings.decode = decode // pixel conversion; the caller adds file decoding
        timings.locate = locate
        timings.ocr = ocr
        return CardReading(
            file: image.name, imageWidth: image.width, imageHeight: image.height,
            quad: CardQuad(corners: read.corners.corners), rotation: ReadPipeline.rotation(of: read.corners),
            locateConfidence: locateConfidence, fields: read.fields, observations: read.observations, timings: timings,
            captureDay: image.captureDay,
            elsewhere: read.elsewhere.map { reading($0, locateConfidence: 0, decode: 0, locate: 0, ocr: 0) })
    }

    private static func describe(_ q: Quad) -> String {
        q.corners.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: " ")
    }
}
