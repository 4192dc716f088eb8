import CardScanOCR
import Foundation

/// A stack of cards spread so that each shows its lower-left corner with its collector lines (a
/// quick way to enter a box of cards by set and number; `Tuning.stack`). The cards' black borders
/// touch, so the locator finds the stack as one region, and its collector band then holds the
/// number lines of several cards. The region is read sparsely at the collector lines' size; each
/// number line with a set line under it is a card, placed around its lines.
extension ReadPipeline {
    /// The number lines on distinct rows of `reading`'s collector band (a line split by the
    /// layout counts once) when they may be a stack's (`stackCards`): a region with four corners
    /// whose band shows at least `Tuning.stack.minimumNumberLines` of them; else nil. Not the
    /// copyright line: an older frame's number stands there without a set line under it, so no
    /// pair could be read. Nothing is read.
    func stackNumberRows(of reading: CardReading) -> [CardObservation]? {
        guard let corners = reading.quad?.corners, corners.count == 4 else { return nil }
        let rows = Self.numberRows(reading.observations.filter { $0.region == .collector })
        return rows.count >= max(1, options.tuning.stack.minimumNumberLines) ? rows : nil
    }

    /// The number lines among `observations`, one per printed line (a line split by the layout
    /// joined), top to bottom.
    static func numberRows(_ observations: [CardObservation]) -> [CardObservation] {
        FieldExtractor.joinLines(observations.filter { CollectorLineParser.parseNumberLine($0.observation.text) != nil })
    }

    /// Whether `stackCards` would read `reading` as a stack, without reading anything.
    func mayBeStack(_ reading: CardReading) -> Bool {
        stackNumberRows(of: reading) != nil
    }

    /// The number lines just beyond the bottom edge of the card at `quad` (the next card's, in a
    /// stack spread to show each card's collector lines), in the card's coordinates; nil when none.
    /// The band `Tuning.stack.probeLeft`…`probeRight` wide, `probeDepth` deep, at half the
    /// collector band's resolution, told the stack read's dpi, read once (the band is turned
    /// dark on light when its ground is dark) and not recognised past `probeWords` words.
    func linesBelow(_ quad: Quad, gray: GrayImage) -> [CardObservation]? {
        let t = options.tuning.stack
        let region = CardRegion(u0: t.probeLeft, v0: 1.0, u1: t.probeRight, v1: 1.0 + t.probeDepth)
        let patch = Self.patch(region, cardHeight: CardLayout.bottomCardHeight / 2, gray: gray, corners: quad, trimmed: false)
        let began = Clock.now
        guard let read = try? read(patch, .collector, region, psm: .sparseText, retryInverted: false, maximumWords: t.probeWords,
                                   resolution: t.resolution) else { return nil }
        let rows = Self.numberRows(read.observations)
        DebugDump.trace("stack probe \(Int(Clock.ms(began, Clock.now)))ms: \(rows.count) number lines")
        return rows.isEmpty ? nil : rows
    }

    /// The cards of the stack `reading` was read on (see `CardReader.stackCards`): nil when its
    /// collector band shows fewer than `Tuning.stack.minimumNumberLines` number lines and it is
    /// not probed (nothing is read); no cards, with the time spent, when the probe or the read
    /// finds no stack (fewer than `minimumCards` pairs of lines). The main reading's title goes
    /// to the card whose title band it lies in (the top card).
    func stackCards(of reading: CardReading, gray pixels: () -> GrayImage, probing: Bool = false) -> (cards: [CardReading], milliseconds: Double)? {
        let t = options.tuning.stack
        let began = Clock.now
        // Nothing read: nil; read, and no stack found: no cards, with the time the reads took.
        var readAny = false
        func spent() -> (cards: [CardReading], milliseconds: Double)? {
            readAny ? ([], Clock.ms(began, Clock.now)) : nil
        }
        // The band's rows; else, when `probing` (the photo's one card, a number line read in its
        // collector band), the number lines just below the card: then the whole photo is the
        // stack's area.
        var found = stackNumberRows(of: reading), probed = false
        // (Not below a number read in the copyright line: a stack's cards show number and set lines.)
        if found == nil, probing, !Self.numberRows(reading.observations.filter { $0.region == .collector }).isEmpty,
           let corners = reading.quad?.corners, corners.count == 4 {
            readAny = true
            found = linesBelow(Quad(corners), gray: pixels())
            probed = found != nil
        }
        guard let rows = found, let corners = reading.quad?.corners else { return spent() }
        let quad = Quad(corners)
        let gray = pixels()
        // The lines' height in the photo: their share of the region times the region's height.
        let regionHeight = (Geometry.distance(quad[0], quad[3]) + Geometry.distance(quad[1], quad[2])) / 2
        let heights = rows.map { $0.observation.boundingBox.height * regionHeight }.sorted()
        let lineHeight = heights[heights.count / 2]
        guard lineHeight > 1 else { return spent() }
        // The region and a margin around it, cut out, turned upright and scaled so that a number
        // line is `lineHeight` pixels tall.
        let area = probed ? [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(gray.width), y: Double(gray.height))] : corners
        guard case let (cut, x0, y0)? = gray.cropped(around: area, margin: t.margin * regionHeight),
              cut.width > 8, cut.height > 8 else { return spent() }
        let turns = (4 - reading.rotation / 90) % 4
        let turned = cut.turned(quarterTurns: turns)
        let (patch, patchScale) = turned.scaled(by: t.lineHeight / lineHeight, maximumScale: t.maximumScale, maximumPixels: t.maximumPixels)
        // Light lines on black borders are read inverted again. A read that fails (the OCR
        // deadline) reads no stack: the region stands as it was read.
        readAny = true
        let lines = sparseLines(patch, retryInverted: true, resolution: t.resolution, purpose: "stack").map(\.observation)
        guard !lines.isEmpty else { return spent() }
        // Lines in the turned cut's pixels (top-left origin).
        let w = Double(patch.width), h = Double(patch.height)
        func box(_ b: NormalizedRect) -> Box {
            (x: b.x * w / patchScale, y: (1 - b.y - b.height) * h / patchScale, w: b.width * w / patchScale, h: b.height * h / patchScale)
        }
        // A photo point from the turned cut's pixels, and back.
        func photo(_ p: PixelPoint) -> PixelPoint {
            let q = Self.unturned(p, quarterTurns: turns, width: cut.width, height: cut.height)
            return PixelPoint(x: q.x + Double(x0), y: q.y + Double(y0))
        }
        func inCut(_ p: PixelPoint) -> PixelPoint {
            Self.turned(PixelPoint(x: p.x - Double(x0), y: p.y - Double(y0)), quarterTurns: turns, width: cut.width, height: cut.height)
        }
        // Pairs of lines: a number line, and the set line just under it starting where it starts.
        var pairs: [(number: TextObservation, set: TextObservation, box: Box)] = []
        for line in lines where CollectorLineParser.parseNumberLine(line.text) != nil {
            let numberBox = box(line.boundingBox)
            let under = lines.filter { other in
                let b = box(other.boundingBox)
                let drop = b.y - numberBox.y
                return drop > numberBox.h / 2 && drop <= t.pairSpacing * numberBox.h
                    && abs(b.x - numberBox.x) <= t.pairIndent * numberBox.h
                    && CollectorLineParser.parseSetLine(other.text) != nil
            }.min { box($0.boundingBox).y < box($1.boundingBox).y }
            // The same lines read twice (the layout splits and joins differently): the first kept.
            guard let set = under, !pairs.contains(where: { Self.sameLine($0.box, numberBox) }) else { continue }
            pairs.append((line, set, numberBox))
        }
        guard pairs.count >= max(1, t.minimumCards) else { return spent() }
        // The cards of a stack are of one size: the median number line's height gives it (one
        // line's box may take in a neighbour's scraps).
        let lineHeights = pairs.map(\.box.h).sorted()
        let cardHeight = lineHeights[lineHeights.count / 2] / t.numberHeight, cardWidth = cardHeight * CardLocator.cardAspect
        // A card's corners (turned cut's pixels) from its top-left corner, and a line's box on it
        // (card coordinates, bottom-left origin).
        func cardCorners(_ left: Double, _ top: Double) -> [PixelPoint] {
            [PixelPoint(x: left, y: top), PixelPoint(x: left + cardWidth, y: top),
             PixelPoint(x: left + cardWidth, y: top + cardHeight), PixelPoint(x: left, y: top + cardHeight)]
        }
        func onCard(_ b: Box, left: Double, top: Double) -> NormalizedRect {
            NormalizedRect(x: (b.x - left) / cardWidth, y: 1 - (b.y + b.h - top) / cardHeight, width: b.w / cardWidth, height: b.h / cardHeight)
        }
        var cards: [(left: Double, top: Double, observations: [CardObservation], fields: ExtractedFields)] = []
        for pair in pairs {
            // The card around its lines: the number line starts `numberLeft` of the card's width
            // from its left edge and `numberTop` of its height from its top.
            let left = pair.box.x - t.numberLeft * cardWidth, top = pair.box.y - t.numberTop * cardHeight
            // The lines in the placed card's coordinates, in the collector band.
            let observations = [pair.number, pair.set].map { o -> CardObservation in
                var o = o
                o.boundingBox = onCard(box(o.boundingBox), left: left, top: top)
                return CardObservation(region: .collector, observation: o)
            }
            let fields = extractor.extract(observations)
            DebugDump.trace("stack card \(pair.number.text) / \(pair.set.text): \(fields.setCode?.value ?? "-") \(fields.collectorNumber?.value ?? "-")")
            // A pair whose set code is not known still shows a card (left to the matcher and review).
            guard fields.collectorNumber != nil else { continue }
            cards.append((left, top, observations, fields))
        }
        guard cards.count >= max(1, t.minimumCards) else { return spent() }
        func card(_ left: Double, _ top: Double, _ observations: [CardObservation], _ fields: ExtractedFields) -> CardReading {
            CardReading(file: reading.file, imageWidth: reading.imageWidth, imageHeight: reading.imageHeight,
                        quad: CardQuad(corners: cardCorners(left, top).map(photo)), rotation: reading.rotation, locateConfidence: 0,
                        fields: fields, observations: observations, timings: StageTimings(), captureDay: reading.captureDay)
        }
        var readings = cards.map { card($0.left, $0.top, $0.observations, $0.fields) }
        // The title read on the region is the top card's: it goes to the card whose title line
        // would lie nearest it (within `titleDistance` of a card's height), its box put on that
        // card. When no card lies near (the top card's own lines were not read), the title stands
        // as a card of its own, placed around the line as a title read outside the cards is.
        let titles = reading.observations.filter { $0.region == .title }
        if reading.fields.title != nil, let line = titles.max(by: { $0.observation.confidence < $1.observation.confidence }) {
            let region = Homography(quad), b = line.observation.boundingBox
            let a = region.map(b.x, 1 - b.y - b.height), z = region.map(b.x + b.width, 1 - b.y)
            let p = inCut(PixelPoint(x: a.x, y: a.y)), q = inCut(PixelPoint(x: z.x, y: z.y))
            let title: Box = (x: min(p.x, q.x), y: min(p.y, q.y), w: abs(q.x - p.x), h: abs(q.y - p.y))
            let centre = PixelPoint(x: title.x + title.w / 2, y: title.y + title.h / 2)
            let band = CardLayout.title
            let nearest = cards.indices.map { i -> (Int, Double) in
                let bandCentre = PixelPoint(x: cards[i].left + (band.u0 + band.u1) / 2 * cardWidth, y: cards[i].top + (band.v0 + band.v1) / 2 * cardHeight)
                return (i, Geometry.distance(centre, bandCentre))
            }.min { $0.1 < $1.1 }
            // The title line alone goes to the card (the band's other lines were scraps of it or
            // of the frame, boxed on the region).
            func placed(_ left: Double, _ top: Double) -> [CardObservation] {
                var o = line
                o.observation.boundingBox = onCard(title, left: left, top: top)
                return [o]
            }
            DebugDump.trace("stack title \(reading.fields.title?.value ?? "-"): nearest card \(nearest.map { "\($0.0) at \($0.1 / cardHeight)" } ?? "-") of the card's height")
            if let (i, distance) = nearest, distance <= t.titleDistance * cardHeight {
                readings[i].observations += placed(cards[i].left, cards[i].top)
                readings[i].fields.title = reading.fields.title
            } else {
                let layout = options.tuning.photoTitles
                let left = title.x - layout.lineLeftShare * cardWidth, top = centre.y - layout.lineMiddleShare * cardHeight
                let observations = placed(left, top)
                readings.insert(card(left, top, observations, extractor.extract(observations)), at: 0)
            }
        }
        return (readings, Clock.ms(began, Clock.now))
    }
}
