import CardScanOCR
import Foundation

/// A stack of cards spread so that each shows its lower-left corner with its collector lines (a
/// quick way to enter a box of cards by set and number; `Tuning.stack`). The cards' black borders
/// touch, so the locator finds the stack as one region, and its collector band then holds the
/// number lines of several cards. The region is read sparsely at the collector lines' size; each
/// number line with a set line under it is a card, placed around its lines.
extension ReadPipeline {
    /// The cards of the stack `reading` was read on, or nil when its collector band shows fewer
    /// than `Tuning.stack.minimumNumberLines` number lines (a single card: nothing is read) or the
    /// read finds fewer than `minimumCards` pairs of lines. The main reading's title goes to the
    /// card whose title band it lies in (the top card).
    func stackCards(of reading: CardReading, gray pixels: () -> GrayImage) -> (cards: [CardReading], milliseconds: Double)? {
        let t = options.tuning.stack
        guard let corners = reading.quad?.corners, corners.count == 4 else { return nil }
        let quad = Quad(corners)
        // Number lines on distinct rows of the band (a line split by the layout counts once).
        let numbers = reading.observations.filter { ($0.region == .collector || $0.region == .copyright)
            && CollectorLineParser.parseNumberLine($0.observation.text) != nil }
        let rows = FieldExtractor.joinLines(numbers)
        guard rows.count >= t.minimumNumberLines else { return nil }
        let began = Clock.now
        let gray = pixels()
        // The lines' height in the photo: their share of the region times the region's height.
        let regionHeight = (Self.length(quad[0], quad[3]) + Self.length(quad[1], quad[2])) / 2
        let heights = rows.map { $0.observation.boundingBox.height * regionHeight }.sorted()
        let lineHeight = heights[heights.count / 2]
        guard lineHeight > 1 else { return nil }
        // The region and a margin around it, cut out, turned upright and scaled so that a number
        // line is `lineHeight` pixels tall.
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let margin = t.margin * regionHeight
        let x0 = max(0, Int(xs.min()! - margin)), x1 = min(gray.width, Int((xs.max()! + margin).rounded(.up)))
        let y0 = max(0, Int(ys.min()! - margin)), y1 = min(gray.height, Int((ys.max()! + margin).rounded(.up)))
        guard x1 - x0 > 8, y1 - y0 > 8 else { return nil }
        let cut = gray.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let turns = (4 - reading.rotation / 90) % 4
        let turned = cut.turned(quarterTurns: turns)
        var scale = min(t.lineHeight / lineHeight, t.maximumScale)
        scale = min(scale, (Double(t.maximumPixels) / Double(turned.width * turned.height)).squareRoot())
        let factor = scale < 1 ? max(1, Int((1 / scale).rounded(.up))) : 1
        let patch = scale > 1 ? turned.enlarged(by: scale) : turned.reduced(by: factor)
        let patchScale = scale > 1 ? scale : 1 / Double(factor)
        let lines: [TextObservation]
        switch Result(catching: { try read(patch, .photo, CardRegion(u0: 0, v0: 0, u1: 1, v1: 1), psm: .sparseText, resolution: t.resolution) }) {
        case .success(let read): lines = read.observations.map(\.observation)
        case .failure(let error):
            DebugDump.trace("stack read failed: \(error)")
            return nil
        }
        // Lines in the turned cut's pixels (top-left origin).
        let w = Double(patch.width), h = Double(patch.height)
        func box(_ b: NormalizedRect) -> Box {
            (x: b.x * w / patchScale, y: (1 - b.y - b.height) * h / patchScale, w: b.width * w / patchScale, h: b.height * h / patchScale)
        }
        // A photo point from the turned cut's pixels.
        func photo(_ p: PixelPoint) -> PixelPoint {
            let q = Self.unturned(p, quarterTurns: turns, width: cut.width, height: cut.height)
            return PixelPoint(x: q.x + Double(x0), y: q.y + Double(y0))
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
        guard pairs.count >= max(1, t.minimumCards) else { return nil }
        // The cards of a stack are of one size: the median number line's height gives it (one
        // line's box may take in a neighbour's scraps).
        let lineHeights = pairs.map(\.box.h).sorted()
        let cardHeight = lineHeights[lineHeights.count / 2] / t.numberHeight, cardWidth = cardHeight * 63 / 88
        var cards: [(quad: Quad, observations: [CardObservation], fields: ExtractedFields)] = []
        for pair in pairs {
            // The card around its lines: the number line starts `numberLeft` of the card's width
            // from its left edge and `numberTop` of its height from its top.
            let left = pair.box.x - t.numberLeft * cardWidth, top = pair.box.y - t.numberTop * cardHeight
            let upright = [PixelPoint(x: left, y: top), PixelPoint(x: left + cardWidth, y: top),
                           PixelPoint(x: left + cardWidth, y: top + cardHeight), PixelPoint(x: left, y: top + cardHeight)]
            // The lines in the placed card's coordinates (bottom-left origin), in the collector band.
            let observations = [pair.number, pair.set].map { o -> CardObservation in
                let b = box(o.boundingBox)
                var o = o
                o.boundingBox = NormalizedRect(x: (b.x - left) / cardWidth, y: 1 - (b.y + b.h - top) / cardHeight,
                                               width: b.w / cardWidth, height: b.h / cardHeight)
                return CardObservation(region: .collector, observation: o)
            }
            let fields = extractor.extract(observations)
            DebugDump.trace("stack card \(pair.number.text) / \(pair.set.text): \(fields.setCode?.value ?? "-") \(fields.collectorNumber?.value ?? "-")")
            // A pair whose set code is not known still shows a card (left to the matcher and review).
            guard fields.collectorNumber != nil else { continue }
            cards.append((Quad(upright.map(photo)), observations, fields))
        }
        guard cards.count >= max(1, t.minimumCards) else { return nil }
        var readings = cards.map { card -> CardReading in
            CardReading(file: reading.file, imageWidth: reading.imageWidth, imageHeight: reading.imageHeight,
                               quad: CardQuad(corners: card.quad.corners), rotation: reading.rotation, locateConfidence: 0,
                               fields: card.fields, observations: card.observations, timings: StageTimings(),
                               captureDay: reading.captureDay)
        }
        // The title read on the region belongs to the card whose title band holds it.
        let titles = reading.observations.filter { $0.region == .title }
        if let title = reading.fields.title, let line = titles.max(by: { $0.observation.confidence < $1.observation.confidence }) {
            let b = line.observation.boundingBox
            let centre = Self.point(on: quad, u: b.x + b.width / 2, v: 1 - b.y - b.height / 2)
            let band = CardLayout.extendedTitle
            let holder = readings.indices.filter { i in
                guard let c = readings[i].quad?.corners else { return false }
                let card = Quad(c)
                let bandQuad = Quad([Self.point(on: card, u: band.u0, v: band.v0), Self.point(on: card, u: band.u1, v: band.v0),
                                     Self.point(on: card, u: band.u1, v: band.v1), Self.point(on: card, u: band.u0, v: band.v1)])
                return bandQuad.contains(centre)
            }.first
            if let i = holder {
                readings[i].observations += titles
                readings[i].fields.title = title
            } else {
                // The top card's own lines were not read: its title stands for it, with the
                // region's other observations (its collector band holds other cards' lines).
                var top = reading
                top.observations = titles
                top.fields = extractor.extract(titles)
                readings.insert(top, at: 0)
            }
        }
        return (readings, Clock.ms(began, Clock.now))
    }

    /// The photo point at (`u`, `v`) of `quad` (shares of its width and height from its top-left
    /// corner), on the plane its corners span.
    static func point(on quad: Quad, u: Double, v: Double) -> PixelPoint {
        let top = PixelPoint(x: quad[0].x + u * (quad[1].x - quad[0].x), y: quad[0].y + u * (quad[1].y - quad[0].y))
        let bottom = PixelPoint(x: quad[3].x + u * (quad[2].x - quad[3].x), y: quad[3].y + u * (quad[2].y - quad[3].y))
        return PixelPoint(x: top.x + v * (bottom.x - top.x), y: top.y + v * (bottom.y - top.y))
    }

    static func length(_ a: PixelPoint, _ b: PixelPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}
