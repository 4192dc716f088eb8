import CardScanOCR
import Foundation

/// A stack of cards spread so that each shows its lower-left corner with its collector lines (a
/// quick way to enter a box of cards by set and number; `Tuning.stack`). The cards' black borders
/// touch, so the locator finds the stack as one region, and its collector band then holds the
/// number lines of several cards; or it finds the top card alone, and a band below it shows the
/// next card's lines. From those lines the stack is followed card by card (`stackCards`): each
/// card is placed around its number line and its collector lines read as a card's are.
extension ReadPipeline {
    /// The cards' rows of `reading`'s collector band (`cardRows`) when they may be a stack's
    /// (`stackCards`): a region with four corners whose band shows at least
    /// `Tuning.stack.minimumNumberLines` of them, a number line among them (the cards' size
    /// comes from its height); else nil. Not the copyright line: an older
    /// frame's number stands there without a set line under it, so no card of a stack could be
    /// read. Nothing is read.
    func stackNumberRows(of reading: CardReading) -> [CardObservation]? {
        guard let corners = reading.quad?.corners, corners.count == 4 else { return nil }
        let rows = cardRows(reading.observations.filter { $0.region == .collector })
        return rows.count >= max(1, options.tuning.stack.minimumNumberLines) && rows.contains(where: Self.isNumberRow) ? rows : nil
    }

    /// The number lines among `observations`, one per printed line (a line split by the layout
    /// joined), top to bottom.
    static func numberRows(_ observations: [CardObservation]) -> [CardObservation] {
        FieldExtractor.joinLines(observations.filter(isNumberRow))
    }

    /// Whether a row of `cardRows` is a number line (not a set line standing for one).
    static func isNumberRow(_ row: CardObservation) -> Bool { CollectorLineParser.parseNumberLine(row.observation.text) != nil }

    /// One line per card of `observations` (the stack's cards show a number line over a set
    /// line): its number line, or, where that was not read, its set line (printed as one:
    /// `CollectorLineParser.hasSetLineShape`) moved up to where the
    /// number line would lie (`Tuning.stack.setLineBelow`: small print loses a number line's
    /// slash or digits more often than a set line's code). A set line with a number line there
    /// is that card's. Top to bottom.
    func cardRows(_ observations: [CardObservation]) -> [CardObservation] {
        let t = options.tuning.stack
        let numbers = Self.numberRows(observations)
        // Moved by the number lines' height when there are any (a set line's box takes in the
        // artist's descenders), else by its own.
        let heights = numbers.map(\.observation.boundingBox.height).sorted()
        let lineHeight = heights.isEmpty ? nil : heights[(heights.count - 1) / 2]
        let sets = FieldExtractor.joinLines(observations.filter {
            !Self.isNumberRow($0) && CollectorLineParser.hasSetLineShape($0.observation.text)
        }).map { line -> CardObservation in
            var moved = line
            moved.observation.boundingBox.y += (lineHeight ?? line.observation.boundingBox.height) * t.setLineBelow / t.numberHeight
            return moved
        }.filter { line in
            let b = line.observation.boundingBox
            return !numbers.contains { abs($0.observation.boundingBox.fromTop - b.fromTop) < t.sameCardLines * b.height }
        }
        return (numbers + sets).sorted { $0.observation.boundingBox.fromTop < $1.observation.boundingBox.fromTop }
    }

    /// Whether `stackCards` would read `reading` as a stack, without reading anything.
    func mayBeStack(_ reading: CardReading) -> Bool {
        stackNumberRows(of: reading) != nil
    }

    /// The cards' rows just beyond the bottom edge of the card at `quad` (the next card's, in a
    /// stack spread to show each card's collector lines), in the card's coordinates; nil when none.
    /// The band `Tuning.stack.probeLeft`…`probeRight` wide, from `top` (a share of the card's
    /// height; by default its bottom edge) to `probeDepth` below its bottom edge, read as
    /// `numberLines` reads.
    func linesBelow(_ quad: Quad, gray: GrayImage, from top: Double = 1) -> [CardObservation]? {
        let t = options.tuning.stack
        return numberLines(in: CardRegion(u0: t.probeLeft, v0: top, u1: t.probeRight, v1: 1.0 + t.probeDepth), of: quad, gray: gray,
                           purpose: top < 1 ? "stack seed" : "stack probe")
    }

    /// The cards' rows (`cardRows`) in `region` of the card at `quad` (its coordinates), nil when none: the
    /// band at half the collector band's resolution, told the stack's dpi (`Tuning.stack.resolution`),
    /// read sparsely once (turned dark on light when its ground is dark) and not recognised past
    /// `probeWords` words; traced with `purpose`.
    func numberLines(in region: CardRegion, of quad: Quad, gray: GrayImage, purpose: String) -> [CardObservation]? {
        let t = options.tuning.stack
        let patch = Self.patch(region, cardHeight: CardLayout.bottomCardHeight / 2, gray: gray, corners: quad, trimmed: false)
        let began = Clock.now
        guard let read = try? read(patch, .collector, region, psm: .sparseText, retryInverted: false, maximumWords: t.probeWords,
                                   resolution: t.resolution) else { return nil }
        let rows = cardRows(read.observations)
        DebugDump.trace("\(purpose) \(Int(Clock.ms(began, Clock.now)))ms: \(rows.count) rows")
        return rows.isEmpty ? nil : rows
    }

    /// The cards of the stack `reading` was read on (see `CardReader.stackCards`): nil when its
    /// collector band shows fewer than `Tuning.stack.minimumNumberLines` cards' rows (`cardRows`) and it is
    /// not probed (nothing is read); no cards, with the time spent, when the probe or the reads
    /// find no stack (fewer than `minimumCards` cards) or fail (the OCR deadline).
    ///
    /// The stack is followed card by card. The cards' rows found (the band's; or, probed, the
    /// card's own and the next cards', read again in one band) give where a card lies and the
    /// step from one card to the next. Each card is a card-sized quad placed around its number
    /// line, its collector lines read as a card's are (`Tuning.stack.bandLeft`…, at the
    /// collector band's resolution), and it is moved to lie around the number line read. Each
    /// row's card is read; then from the last card found a step down, and from the first a step
    /// up, the next, the step taken again from each pair of neighbours; where none reads, the
    /// rows around are searched (`searchLeft`…); until `maximumMisses` steps in a row
    /// find no card or the photo ends; then the places between cards found more than a step and
    /// a half apart. The main reading's title goes to the card whose title band it lies in (the
    /// top card).
    func stackCards(of reading: CardReading, gray pixels: () -> GrayImage, probing: Bool = false) -> (cards: [CardReading], milliseconds: Double)? {
        let t = options.tuning.stack
        let began = Clock.now
        // Nothing read: nil; read, and no stack found: no cards, with the time the reads took.
        var readAny = false
        func spent() -> (cards: [CardReading], milliseconds: Double)? {
            readAny ? ([], Clock.ms(began, Clock.now)) : nil
        }
        guard let corners = reading.quad?.corners, corners.count == 4 else { return nil }
        let quad = Quad(corners)
        // The band's rows; else, when `probing` (the photo's one card, a number line read in its
        // collector band), the card's own and those just below it.
        // (Not below a number read in the copyright line: a stack's cards show number and set lines.)
        var rows = stackNumberRows(of: reading) ?? []
        if !rows.isEmpty {
            // The band read again untrimmed, so that its lines' places and heights are the
            // region's (the collector band's boxes are on its trimmed patch).
            readAny = true
            if let again = numberLines(in: CardLayout.collector, of: quad, gray: pixels(), purpose: "stack band"), again.count >= 2,
               again.contains(where: Self.isNumberRow) { rows = again }
        }
        if rows.isEmpty, probing, !Self.numberRows(reading.observations.filter { $0.region == .collector }).isEmpty {
            readAny = true
            guard let below = linesBelow(quad, gray: pixels()) else { return spent() }
            // The card's own lines and the next cards' read again in one band, so that their
            // places compare (the collector band's boxes are on its trimmed patch); with the
            // probe's lines (on the same card's coordinates) that this read did not give whole.
            let seeds = linesBelow(quad, gray: pixels(), from: t.seedTop) ?? []
            func box(_ line: CardObservation) -> Box {
                let b = line.observation.boundingBox
                return (b.x, b.y, b.width, b.height)
            }
            rows = seeds + below.filter { line in !seeds.contains { Self.sameLine(box($0), box(line)) } }
        }
        guard rows.count >= 2 else { return spent() }
        readAny = true
        let gray = pixels()
        // Places are in photo pixels along the region's top edge (x) and square to it (y), from
        // its top-left corner: the top edge is the top card's (its title is read there), and the
        // stack's cards lie as it does. (A region holding the stack is not card-shaped: its
        // sides follow the fan.)
        let region = Homography(quad)
        let length = max(1e-9, Geometry.distance(quad[0], quad[1]))
        let ex = ((quad[1].x - quad[0].x) / length, (quad[1].y - quad[0].y) / length), ey = (-ex.1, ex.0)
        func photo(_ x: Double, _ y: Double) -> PixelPoint {
            PixelPoint(x: quad[0].x + x * ex.0 + y * ey.0, y: quad[0].y + x * ex.1 + y * ey.1)
        }
        func frame(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
            let dx = p.x - quad[0].x, dy = p.y - quad[0].y
            return (dx * ex.0 + dy * ex.1, dx * ey.0 + dy * ey.1)
        }
        // A box on the region (card coordinates, bottom-left origin) in the frame: its top-left
        // corner and its height.
        func framed(_ b: NormalizedRect) -> (x: Double, y: Double, height: Double) {
            let top = frame(region.map(b.x, 1 - b.y - b.height)), bottom = frame(region.map(b.x, 1 - b.y))
            return (top.x, top.y, bottom.y - top.y)
        }
        // A card is `cardWidth` × `cardHeight` pixels: at first the size the number lines' height
        // gives (`numberHeight` of a card's height; the lower median: a box may take in two
        // lines, and boxes vary by ±15%; not the set lines': their artist's name reaches below
        // the line and their boxes vary more), in the end the size the top card's edge and
        // number line give (below).
        let seedLines = rows.map { framed($0.observation.boundingBox) }
        let heights = zip(rows, seedLines).filter { Self.isNumberRow($0.0) }.map(\.1.height).sorted()
        guard !heights.isEmpty else { return spent() }
        var cardHeight = heights[(heights.count - 1) / 2] / t.numberHeight
        var cardWidth = cardHeight * CardLocator.cardAspect
        guard cardHeight > 1 else { return spent() }
        typealias Place = (x: Double, y: Double)
        // A card's top-left corner from its number line's, and its corners in the photo.
        func origin(_ line: Place) -> Place { (line.x - t.numberLeft * cardWidth, line.y - t.numberTop * cardHeight) }
        func cardCorners(_ o: Place) -> [PixelPoint] {
            [photo(o.x, o.y), photo(o.x + cardWidth, o.y), photo(o.x + cardWidth, o.y + cardHeight), photo(o.x, o.y + cardHeight)]
        }
        // The card at `o` read: its lines (its own card coordinates) and where its number line
        // puts it. A number line read without a card around it (no set line under it, no number
        // in it) still places the card: it is read again there once when that moves it.
        // `.outside` when its lines would lie outside the photo or the read failed.
        enum Look { case card(origin: Place, observations: [CardObservation], fields: ExtractedFields)
                    case line(origin: Place), none, outside }
        var failed = false
        let band = CardRegion(u0: t.bandLeft, v0: t.bandTop, u1: t.bandRight, v1: t.bandBottom)
        func look(_ o: Place, again: Bool = true) -> Look {
            let middle = photo(o.x + (band.u0 + band.u1) / 2 * cardWidth, o.y + (band.v0 + band.v1) / 2 * cardHeight)
            guard middle.x >= 0, middle.y >= 0, middle.x < Double(gray.width), middle.y < Double(gray.height) else { return .outside }
            let patch = Self.patch(band, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: Quad(cardCorners(o)), trimmed: false)
            guard let read = try? read(patch, .collector, band, psm: .sparseText, maximumWords: t.bandWords) else {
                failed = true
                return .outside
            }
            var observations = read.observations, fields = extractor.extract(observations)
            // A field not read (the set code, the number, or the rarity letter, which the matcher
            // weighs): the single card's further looks (`CollectorRetry`), then the second
            // model's (`secondLook`), each pooled with it, while one is missing and the band read
            // a digit.
            func lacking() -> Bool { fields.setCode == nil || fields.collectorNumber == nil || fields.rarity == nil }
            func pool(_ again: RegionRead?, _ look: String) {
                guard let again else { return }
                absorb(again, below: [], into: &fields, &observations, look: "stack card \(look)", takingRarity: true)
            }
            if lacking(), observations.contains(where: { $0.observation.text.contains { $0.isNumber } }) {
                for retry in CollectorRetry.all where lacking() {
                    pool(try? self.read(patch.reduced(by: retry.reduction), .collector, band, psm: retry.psm, whitelist: retry.whitelist,
                                        maximumWords: t.bandWords), "retry \(retry)")
                }
                if lacking(), let engine = secondRecognizer?.engine() {
                    pool(try? self.read(patch, .collector, band, psm: .sparseText, maximumWords: t.bandWords, engine: engine), "second model")
                }
            }
            // The number line nearest where the card's would be.
            // (Placed by the first read's boxes when it read one: a block read's box may hold
            // both lines.)
            let numbers = Self.numberRows(read.observations)
            guard let number = (numbers.isEmpty ? Self.numberRows(observations) : numbers).min(by: {
                abs($0.observation.boundingBox.fromTop - t.numberTop) < abs($1.observation.boundingBox.fromTop - t.numberTop)
            }) else { return .none }
            // The card moved to lie around its number line, its lines with it.
            let b = number.observation.boundingBox
            let du = b.x - t.numberLeft, dv = b.fromTop - t.numberTop
            let moved = (x: o.x + du * cardWidth, y: o.y + dv * cardHeight)
            observations = observations.map { o -> CardObservation in
                var o = o
                o.observation.boundingBox.x -= du
                o.observation.boundingBox.y += dv
                return o
            }
            DebugDump.trace("stack card at \(Int(o.x)), \(Int(o.y)) moved \(du), \(dv): \(fields.setCode?.value ?? "-") \(fields.collectorNumber?.value ?? "-")")
            guard fields.collectorNumber != nil,
                  observations.contains(where: { CollectorLineParser.parseSetLine($0.observation.text) != nil }) else {
                let far = abs(du) > t.lookAgain || abs(dv) > t.lookAgain
                return again && far ? look(moved, again: false) : .line(origin: moved)
            }
            return .card(origin: moved, observations: observations, fields: fields)
        }
        // No card read where one was expected (a stack's step varies): the cards' rows around
        // it (`Tuning.stack.searchLeft`…), and the card at the one nearest it read, unless that
        // puts it where it was just read (its own set line, its number line unread again).
        func search(_ o: Place) -> Look {
            let around = CardRegion(u0: t.numberLeft - t.searchLeft, v0: t.numberTop - t.searchUp,
                                    u1: t.numberLeft + t.searchRight, v1: t.numberTop + t.searchDown)
            func distance(_ b: NormalizedRect) -> Double {
                abs(b.x - t.numberLeft) * CardLocator.cardAspect + abs(b.fromTop - t.numberTop)
            }
            guard let nearest = numberLines(in: around, of: Quad(cardCorners(o)), gray: gray, purpose: "stack search")?
                .min(by: { distance($0.observation.boundingBox) < distance($1.observation.boundingBox) }) else { return .none }
            let b = nearest.observation.boundingBox
            let du = b.x - t.numberLeft, dv = b.fromTop - t.numberTop
            guard abs(du) > t.lookAgain || abs(dv) > t.lookAgain else { return .none }
            return look((o.x + du * cardWidth, o.y + dv * cardHeight), again: false)
        }
        // The rows' cards, top to bottom, and the step between neighbours: the smallest that is
        // more than `minimumStep` of a card's height (rows further apart skipped a card).
        let seeds = seedLines.map { origin(($0.x, $0.y)) }.sorted { $0.y < $1.y }
        let steps = zip(seeds, seeds.dropFirst()).map { (x: $1.x - $0.x, y: $1.y - $0.y) }.filter { $0.y >= t.minimumStep * cardHeight }
        guard let step = steps.min(by: { $0.y < $1.y }) else { return spent() }
        var found: [(origin: Place, observations: [CardObservation], fields: ExtractedFields)] = []
        func isFound(_ o: Place) -> Bool {
            found.contains { abs($0.origin.y - o.y) < step.y / 2 && abs($0.origin.x - o.x) < abs(step.x) / 2 + step.y / 2 }
        }
        // The card at a place, the number lines around it searched when none reads there; a
        // card read that is not one found already is taken.
        func seek(_ p: Place) -> Look {
            let seen = look(p)
            if case .none = seen { return search(p) }
            return seen
        }
        func take(_ seen: Look) -> Bool {
            guard case let .card(origin, observations, fields) = seen, !isFound(origin) else { return false }
            found.append((origin, observations, fields))
            return true
        }
        // Each row's card.
        for seed in seeds where !isFound(seed) && !failed { _ = take(seek(seed)) }
        // Followed from the last card down and from the first up (from the seeds' ends when none
        // of them read).
        for direction in [1.0, -1.0] {
            let ends = found.isEmpty ? seeds : found.map(\.origin)
            guard var at = (direction > 0 ? ends.max { $0.y < $1.y } : ends.min { $0.y < $1.y }) else { continue }
            var by = (x: direction * step.x, y: direction * step.y), misses = 0
            while misses < t.maximumMisses, found.count < t.maximumCards, !failed {
                let next = (x: at.x + by.x, y: at.y + by.y)
                guard !isFound(next) else { break }
                let seen = seek(next)
                // (A card read again, its lines misplaced, is a miss: the step goes on from where
                // the next card was looked for.)
                guard take(seen), case let .card(origin, _, _) = seen else {
                    if case .outside = seen { break }
                    misses += 1
                    if case let .line(origin) = seen { at = origin } else { at = next }
                    continue
                }
                // The step again from a neighbour (within half a step of the last one: a line
                // placed wrong does not steer the rest; a first step taken wrong stays, and each
                // card is then found by the search).
                let again = (x: origin.x - at.x, y: origin.y - at.y)
                if misses == 0, abs(again.x - by.x) + abs(again.y - by.y) < abs(by.y) / 2 { by = again }
                at = origin
                misses = 0
            }
        }
        // Between two cards found more than a step and a half apart (a row's card not read),
        // the places a step apart read too.
        found.sort { $0.origin.y < $1.origin.y }
        for (a, b) in zip(found.map(\.origin), found.map(\.origin).dropFirst()) where b.y - a.y > 1.5 * step.y && !failed {
            let n = Int((b.y - a.y) / step.y + 0.5)
            for k in 1..<max(2, n) where found.count < t.maximumCards {
                let p = (x: a.x + (b.x - a.x) * Double(k) / Double(n), y: a.y + (b.y - a.y) * Double(k) / Double(n))
                if !isFound(p) { _ = take(seek(p)) }
            }
        }
        // A read that failed (the OCR deadline) reads no stack: the region stands as it was read.
        guard !failed, found.count >= max(1, t.minimumCards) else { return spent() }
        found.sort { $0.origin.y < $1.origin.y }
        // The cards' size again from the top card, when the region's title was read (its top
        // edge is then the top card's): from its top edge to its number line is `numberTop` of
        // its height. Taken when within `sizeAgreement` of the lines' size; each card stays
        // around its number line.
        // (When the top card's own lines were not read, the first card found is the next one,
        // and the size comes out a step's worth too large, ~10%: within the lines' spread, so
        // not told apart. Its lines are read and placed the same; only its quad is larger.)
        if reading.fields.title != nil, let first = found.first {
            let height = (first.origin.y + t.numberTop * cardHeight) / t.numberTop
            if height > 0, abs(height / cardHeight - 1) <= t.sizeAgreement {
                let (oldWidth, oldHeight) = (cardWidth, cardHeight)
                cardHeight = height
                cardWidth = height * CardLocator.cardAspect
                found = found.map { card in
                    let o = (x: card.origin.x + t.numberLeft * (oldWidth - cardWidth), y: card.origin.y + t.numberTop * (oldHeight - cardHeight))
                    let observations = card.observations.map { observation -> CardObservation in
                        var observation = observation
                        let b = observation.observation.boundingBox
                        let left = card.origin.x + b.x * oldWidth, boxTop = card.origin.y + b.fromTop * oldHeight
                        let h = b.height * oldHeight / cardHeight
                        observation.observation.boundingBox = NormalizedRect(x: (left - o.x) / cardWidth, y: 1 - (boxTop - o.y) / cardHeight - h,
                                                                             width: b.width * oldWidth / cardWidth, height: h)
                        return observation
                    }
                    return (o, observations, card.fields)
                }
            }
        }
        func card(_ o: Place, _ observations: [CardObservation], _ fields: ExtractedFields) -> CardReading {
            CardReading(file: reading.file, imageWidth: reading.imageWidth, imageHeight: reading.imageHeight,
                        quad: CardQuad(corners: cardCorners(o)), rotation: reading.rotation, locateConfidence: 0,
                        fields: fields, observations: observations, timings: StageTimings(), captureDay: reading.captureDay)
        }
        var readings = found.map { card($0.origin, $0.observations, $0.fields) }
        // The title read on the region is the top card's: it goes to the card whose title line
        // would lie nearest it (within `titleDistance` of a card's height), its box put on that
        // card. When no card lies near (the top card's own lines were not read), the title stands
        // as a card of its own, placed around the line as a title read outside the cards is.
        let titles = reading.observations.filter { $0.region == .title }
        if reading.fields.title != nil, let line = titles.max(by: { $0.observation.confidence < $1.observation.confidence }) {
            let b = line.observation.boundingBox
            let start = framed(b), end = frame(region.map(b.x + b.width, 1 - b.y))
            let title = (x: start.x, y: start.y, width: end.x - start.x, height: start.height)
            let centre = (x: title.x + title.width / 2, y: title.y + title.height / 2)
            let titleBand = CardLayout.title
            // Distances in card heights.
            let nearest = found.indices.map { i -> (Int, Double) in
                let o = found[i].origin
                let dx = (centre.x - o.x) / cardHeight - (titleBand.u0 + titleBand.u1) / 2 * CardLocator.cardAspect
                let dy = (centre.y - o.y) / cardHeight - (titleBand.v0 + titleBand.v1) / 2
                return (i, (dx * dx + dy * dy).squareRoot())
            }.min { $0.1 < $1.1 }
            // The title line alone goes to the card (the band's other lines were scraps of it or
            // of the frame, boxed on the region).
            func placed(_ o: Place) -> [CardObservation] {
                var placed = line
                placed.observation.boundingBox = NormalizedRect(x: (title.x - o.x) / cardWidth, y: 1 - (title.y + title.height - o.y) / cardHeight,
                                                                width: title.width / cardWidth, height: title.height / cardHeight)
                return [placed]
            }
            DebugDump.trace("stack title \(reading.fields.title?.value ?? "-"): nearest card \(nearest.map { "\($0.0) at \($0.1)" } ?? "-") of the card's height")
            if let (i, distance) = nearest, distance <= t.titleDistance {
                readings[i].observations += placed(found[i].origin)
                readings[i].fields.title = reading.fields.title
            } else {
                let layout = options.tuning.photoTitles
                let o = (x: title.x - layout.lineLeftShare * cardWidth, y: centre.y - layout.lineMiddleShare * cardHeight)
                let observations = placed(o)
                readings.insert(card(o, observations, extractor.extract(observations)), at: 0)
            }
        }
        return (readings, Clock.ms(began, Clock.now))
    }
}

extension NormalizedRect {
    /// How far its top edge lies from the top (boxes have a bottom-left origin).
    fileprivate var fromTop: Double { 1 - maxY }
}
