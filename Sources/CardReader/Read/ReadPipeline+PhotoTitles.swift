import CardScanOCR
import Foundation

/// Titles read anywhere in a photo of several cards, outside the cards found (`Tuning.photoTitles`).
/// In an overlapping spread or a fanned hand a card shows only its title strip, and the locator,
/// which looks for card-shaped regions, finds no card there; a person still reads the titles. The
/// cards found give the scale and the way up: the photo is turned so that they stand upright,
/// scaled so that their titles would be read at the title band's size, the cards found are
/// blanked, and the rest is read sparsely. A line is a card when it snaps to a name and is as tall
/// as the titles of the cards found.
extension ReadPipeline {
    func titleCards(outside cards: [Quad], rotations: [Int], image: Image, gray: GrayImage) -> (cards: [CardReading], milliseconds: Double) {
        let t = options.tuning.photoTitles
        guard cards.count >= max(1, t.minimumCards), options.resolveTitle != nil else { return ([], 0) }
        // Cards that close their layout leave no card of it to find (a full binder page).
        guard !NeighbourCards(tuning: options.tuning.neighbours).closes(cards, imageWidth: gray.width, imageHeight: gray.height) else {
            DebugDump.trace("photo titles: the cards found close their layout, not read")
            return ([], 0)
        }
        let began = Clock.now
        let heights = cards.map { q -> Double in
            let axes = NeighbourCards.axes(q)
            return (axes.v.x * axes.v.x + axes.v.y * axes.v.y).squareRoot()
        }.sorted()
        let cardHeight = heights[heights.count / 2]
        guard cardHeight > 1 else { return ([], 0) }
        // The way up most cards found take; the photo turned so that they stand upright.
        let counts = Dictionary(grouping: rotations, by: { $0 }).mapValues(\.count)
        let rotation = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 0
        let turns = (4 - rotation / 90) % 4
        let blanked = gray.blanking(cards.map { Self.inset($0, by: t.blankInset) }, with: gray.median())
        let turned = blanked.turned(quarterTurns: turns)
        let (patch, patchScale) = turned.scaled(by: t.cardHeight / cardHeight, maximumScale: t.maximumScale, maximumPixels: t.maximumPixels)
        // Tesseract's layout finds a different part of the titles on each binarization of a busy
        // photo: the grey photo (Tesseract's own threshold), then dark ink against its
        // surroundings at each window and margin of the tuning.
        // A pass that fails (the OCR deadline, on a photo of many small things) gives no lines:
        // the cards found stand as they are.
        // Lines in the turned photo's pixels (top-left origin).
        let w = Double(turned.width), h = Double(turned.height)
        let expectedHeight = cardHeight * t.lineHeightShare
        let cardWidth = cardHeight * CardLocator.cardAspect
        func pixels(_ b: NormalizedRect) -> Box { (x: b.x * w, y: (1 - b.y - b.height) * h, w: b.width * w, h: b.height * h) }
        typealias Found = (name: String, line: TextObservation, box: Box, quad: Quad)
        // A line read again on its own on the grey patch, from a little before it to as far right
        // as a title runs (`rereadWidthShare` of a card's width), a line height above and below
        // it (block layout: the single-line layout garbles a line with a frame's edges in its band).
        // (Each line's second read is kept: the grey pass's lines are judged again with the others.)
        var rereads: [String: [TextObservation]] = [:]
        func titleLines(at box: Box) -> [TextObservation] {
            let key = "\(Int(box.x)) \(Int(box.y)) \(Int(box.w)) \(Int(box.h))"
            if let known = rereads[key] { return known }
            let lines = titleLinesRead(at: box)
            rereads[key] = lines
            return lines
        }
        func titleLinesRead(at box: Box) -> [TextObservation] {
            linesRead(in: (x: box.x - box.h, y: box.y - box.h, w: t.rereadWidthShare * cardWidth + box.h, h: 3 * box.h))
        }
        // The lines of a part of the turned photo (pixels), read with `psm` (and `inverted` too:
        // a pale title on a dark bar reads as nothing, and inverted as dark on light).
        func linesRead(in area: Box, psm: PageSegmentationMode = .singleBlock, inverted: Bool = false) -> [TextObservation] {
            let x0 = max(0, Int(area.x * patchScale)), y0 = max(0, Int(area.y * patchScale))
            let x1 = min(patch.width, Int((area.x + area.w) * patchScale))
            let y1 = min(patch.height, Int((area.y + area.h) * patchScale))
            guard x1 - x0 > 8, y1 - y0 > 4 else { return [] }
            let band = patch.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            let observations = (inverted ? [band, band.inverted()] : [band]).flatMap { band in
                (try? read(band, .photo, CardRegion(u0: 0, v0: 0, u1: 1, v1: 1), psm: psm, retryInverted: false))?.observations ?? []
            }
            // Boxes as the sparse reads give them: shares of the turned photo, bottom-left origin.
            return observations.map { o in
                var o = o.observation
                let b = o.boundingBox, bw = Double(band.width), bh = Double(band.height)
                let left = (Double(x0) + b.x * bw) / patchScale, top = (Double(y0) + (1 - b.y - b.height) * bh) / patchScale
                o.boundingBox = NormalizedRect(x: left / w, y: 1 - (top + b.height * bh / patchScale) / h,
                                               width: b.width * bw / patchScale / w, height: b.height * bh / patchScale / h)
                return o
            }
        }
        func titles(in lines: [CardObservation]) -> [Found] {
            // Lines of words (read with some confidence), for telling a title from a line of a
            // paragraph; not scraps of art or of a title split in two.
            let texts = lines.map(\.observation).filter { $0.confidence >= t.minimumConfidence && $0.text.filter(\.isLetter).count >= t.neighbourLetters }
                .map { (text: $0.text, box: pixels($0.boundingBox)) }
            var found: [Found] = []
            for read in lines.map(\.observation) {
                var line = read
                // (Letters counted on the line as read first: no cleaning gives it more, and a
                // short line is not looked up.)
                guard line.confidence >= t.minimumConfidence, line.text.filter(\.isLetter).count >= t.minimumLetters,
                      let resolveTitle = options.resolveTitle else { continue }
                func named(_ o: TextObservation) -> (read: String, name: String?, wholeLine: Bool) {
                    FieldExtractor.named(o) { FieldExtractor.resolve($0, with: resolveTitle) }
                }
                let first = named(line)
                var cleaned = first.read
                guard cleaned.filter(\.isLetter).count >= t.minimumLetters, let name = first.name else { continue }
                // The name must be in the line nearly letter for letter: a title read in part
                // snaps to a name of another card (or another language) more easily than a
                // whole title band. A line that misses more is read again on its own, as a line
                // running on to the right as far as a title does (the sparse layout cuts a title
                // at a mana symbol or a gap, or loses its end): kept when that read holds the name.
                let letters = name.filter(\.isLetter).count
                func holdsName(_ text: String) -> Bool { Self.lettersMissed(name, in: text) <= letters / max(1, t.lettersPerMiss) }
                if !holdsName(cleaned) {
                    let again = titleLines(at: pixels(line.boundingBox)).lazy.map { o in (o, named(o)) }.first { o, named in
                        o.confidence >= t.minimumConfidence && named.name == name && holdsName(named.read)
                    }
                    guard let (reread, title) = again else { continue }
                    DebugDump.trace("photo title \(name) read again from \(line.text) as \(reread.text)")
                    line = reread
                    cleaned = title.read
                }
                let box = pixels(line.boundingBox)
                let ratio = box.h / expectedHeight
                // A title stands alone: the art or another card's frame lies below it, and above
                // it the card's edge. A line with text just above or below it, starting where it
                // starts, is a line of a paragraph (a keyword ability alone on a line of rules
                // text). Nor does a title follow other words on its row (a creature type at the
                // end of a type line).
                let neighbour = texts.first { text in
                    let other = text.box
                    guard !Self.sameLine(other, box) else { return false }
                    let rows = abs(other.y + other.h / 2 - box.y - box.h / 2)
                    return (rows <= t.paragraphSpacing * box.h && abs(other.x - box.x) <= t.paragraphSpacing * box.h)
                        || (rows <= box.h / 2 && other.x < box.x && other.x + other.w > box.x - t.wordSpacing * box.h)
                }
                // A title is capitalised: most of its words (of three letters or more) start with
                // a capital, where a line of rules text holds words in lower case that snap to a
                // name one letter away.
                let words = cleaned.split(separator: " ").filter { $0.filter(\.isLetter).count >= 3 }
                let capitalised = words.filter { $0.first(where: \.isLetter)?.isUppercase == true }.count
                DebugDump.trace("photo title \(name) from \(line.text) conf \(line.confidence) height \(ratio) beside \(neighbour?.text ?? "-") capitals \(capitalised)/\(words.count)")
                guard ratio >= t.minimumHeightFactor, ratio <= t.maximumHeightFactor, neighbour == nil, 2 * capitalised >= words.count else { continue }
                let middle = PixelPoint(x: box.x + box.w / 2, y: box.y + box.h / 2)
                let left = box.x - t.lineLeftShare * cardWidth, top = box.y + box.h / 2 - t.lineMiddleShare * cardHeight
                let upright = [PixelPoint(x: left, y: top), PixelPoint(x: left + cardWidth, y: top),
                               PixelPoint(x: left + cardWidth, y: top + cardHeight), PixelPoint(x: left, y: top + cardHeight)]
                let original = Self.unturned(middle, quarterTurns: turns, width: gray.width, height: gray.height)
                // A line on a card found is that card's (its rules text, or its title read again).
                guard !cards.contains(where: { $0.contains(original) }) else { continue }
                let quad = Quad(upright.map { Self.unturned($0, quarterTurns: turns, width: gray.width, height: gray.height) })
                // The same line read by another pass: the read naming the longer name (the whole
                // title, not a word of it), then the surer. The same name again on the card placed
                // around a line: its rules text naming it, below its title.
                let rank = { (n: String, l: TextObservation) in (n.count, l.confidence) }
                if let same = found.firstIndex(where: { Self.sameLine($0.box, box) }) {
                    if rank(found[same].name, found[same].line) < rank(name, line) { found[same] = (name, line, box, quad) }
                    continue
                }
                if let same = found.firstIndex(where: { $0.name == name && CardLocator.overlaps($0.quad, quad) }) {
                    if box.y < found[same].box.y { found[same] = (name, line, box, quad) }
                    continue
                }
                found.append((name, line, box, quad))
            }
            return found
        }
        var lines = sparseLines(patch)
        var found = titles(in: lines)
        // Where the grey photo shows no title outside the cards found, its binarizations are not
        // read either: the cards found fill the photo, or what lies beside them is no spread.
        if !found.isEmpty {
            let patchCardHeight = cardHeight * patchScale
            for share in [t.firstWindowShare, t.secondWindowShare] where share > 0 {
                lines += sparseLines(patch.localContrastBinarized(window: max(3, Int(share * patchCardHeight)), margin: t.binarizationMargin, lightText: false))
            }
            found = titles(in: lines)
        }
        // A title the sparse reads missed in a column or a row of overlapping cards lies in a
        // wide gap between the titles read, or beyond them: each such strip is read on its own
        // (again beyond a title so found: the next may lie one step further).
        var stripsRead = Set<String>()
        for _ in 0..<t.stripRounds {
            let boxes = found.map(\.box)
            let strips = (Self.titleGaps(boxes, cardWidth: cardWidth, tuning: t) + Self.titleRowGaps(boxes, cardWidth: cardWidth, tuning: t))
                .filter { stripsRead.insert("\(Int($0.x)) \(Int($0.y)) \(Int($0.w)) \(Int($0.h))").inserted }
            guard !strips.isEmpty else { break }
            DebugDump.trace("photo titles: \(strips.count) strips in columns and rows read again")
            lines += strips.flatMap { linesRead(in: $0, psm: .sparseText, inverted: true).map { CardObservation(region: .photo, observation: $0) } }
            let before = found.count
            found = titles(in: lines)
            if found.count == before { break }
        }
        let cards = found.map { card in
            // The line's box on the card placed around it (card coordinates, bottom-left origin).
            var line = card.line
            let u = t.lineLeftShare, width = card.box.w / cardWidth, height = card.box.h / cardHeight
            line.boundingBox = NormalizedRect(x: u, y: 1 - t.lineMiddleShare - height / 2, width: width, height: height)
            let observation = CardObservation(region: .title, observation: line)
            return CardReading(file: image.name, imageWidth: image.width, imageHeight: image.height,
                               quad: CardQuad(corners: card.quad.corners), rotation: rotation, locateConfidence: 0,
                               fields: extractor.extract([observation]), observations: [observation], timings: StageTimings(),
                               captureDay: image.captureDay)
        }
        return (cards, Clock.ms(began, Clock.now))
    }

    /// The lines of a sparse read of `patch`; none when the read fails (the OCR deadline, on a
    /// photo of many small things).
    func sparseLines(_ patch: GrayImage) -> [CardObservation] {
        let whole = CardRegion(u0: 0, v0: 0, u1: 1, v1: 1)
        switch Result(catching: { try read(patch, .photo, whole, psm: .sparseText, retryInverted: false) }) {
        case .success(let read): return read.observations
        case .failure(let error):
            DebugDump.trace("photo titles read failed: \(error)")
            return []
        }
    }

    /// A line's box in pixels (top-left origin).
    typealias Box = (x: Double, y: Double, w: Double, h: Double)

    /// Where titles not read may lie in columns of overlapping cards (an overlapping spread), given
    /// the title lines found (upright, top-left origin). In a column (titles starting within
    /// `columnShare` of a card's width of one another, `minimumColumnTitles` of them or more) the
    /// cards overlap by about one step, the shortest gap between its titles (of at least
    /// `minimumStepLines` line heights: shorter is one title read twice). A gap of more than
    /// `gapSteps` steps (up to `maximumGapSteps`) may hide a title, and so may the strip one and a half steps above the
    /// column's top title (a column's top card at the photo's edge). Each such strip, from a
    /// line height before the titles to as far right as a title runs (`rereadWidthShare` of a
    /// card's width).
    static func titleGaps(_ titles: [Box], cardWidth: Double, tuning t: Tuning.PhotoTitles) -> [Box] {
        var strips: [Box] = []
        for column in grouped(titles, by: \.x, within: t.columnShare * cardWidth) where column.count >= t.minimumColumnTitles {
            let sorted = column.sorted { $0.y < $1.y }
            let height = sorted.map(\.h).sorted()[sorted.count / 2]
            let left = sorted.map(\.x).min()! - height, width = t.rereadWidthShare * cardWidth + 2 * height
            let gaps = zip(sorted, sorted.dropFirst()).map { (top: $0.y + $0.h, bottom: $1.y, gap: $1.y - $0.y) }
            guard let step = step(gaps.map(\.gap), lineHeight: height, tuning: t) else { continue }
            for gap in gaps where isWide(gap.gap, step: step, tuning: t) {
                strips.append((x: left, y: gap.top, w: width, h: gap.bottom - gap.top))
            }
            let top = max(0, sorted[0].y - t.gapSteps * step)
            if sorted[0].y - top > height { strips.append((x: left, y: top, w: width, h: sorted[0].y - top)) }
        }
        return strips
    }

    /// Where titles not read may lie in rows of cards side by side, overlapping or not, given the
    /// title lines found (upright, top-left origin): in a row (titles whose middles lie within
    /// `rowLines` line heights of one another, `minimumRowTitles` of them or more) the step is
    /// the shortest distance between the starts of its titles. A gap wider than `gapSteps`
    /// steps (up to `maximumGapSteps`) may hide a title, and so may the strips `gapSteps` steps
    /// before the row's first title and after its last (a title after the last as long as a
    /// title runs). Each strip a line height above and below the row's titles.
    static func titleRowGaps(_ titles: [Box], cardWidth: Double, tuning t: Tuning.PhotoTitles) -> [Box] {
        guard !titles.isEmpty else { return [] }
        let height = titles.map(\.h).sorted()[titles.count / 2]
        var strips: [Box] = []
        for row in grouped(titles, by: { $0.y + $0.h / 2 }, within: t.rowLines * height) where row.count >= t.minimumRowTitles {
            let sorted = row.sorted { $0.x < $1.x }
            let top = sorted.map(\.y).min()! - height, bottom = sorted.map { $0.y + $0.h }.max()! + height
            func strip(_ x0: Double, _ x1: Double) -> Box { (x: max(0, x0), y: max(0, top), w: x1 - max(0, x0), h: bottom - max(0, top)) }
            let gaps = zip(sorted, sorted.dropFirst()).map { (end: $0.x + $0.w, start: $1.x, gap: $1.x - $0.x) }
            guard let step = step(gaps.map(\.gap), lineHeight: height, tuning: t) else { continue }
            for gap in gaps where isWide(gap.gap, step: step, tuning: t) && gap.start > gap.end {
                strips.append(strip(gap.end, gap.start))
            }
            let first = sorted[0], last = sorted[sorted.count - 1]
            if first.x > height { strips.append(strip(first.x - t.gapSteps * step, first.x)) }
            strips.append(strip(last.x + last.w, last.x + t.gapSteps * step + t.rereadWidthShare * cardWidth))
        }
        return strips
    }

    /// `titles` grouped, in `key` order, with the first group whose mean `key` lies within
    /// `tolerance` of a title's (a column by where its titles start, a row by their middles).
    private static func grouped(_ titles: [Box], by key: (Box) -> Double, within tolerance: Double) -> [[Box]] {
        var groups: [[Box]] = []
        for title in titles.sorted(by: { key($0) < key($1) }) {
            if let i = groups.firstIndex(where: { abs($0.map(key).reduce(0, +) / Double($0.count) - key(title)) <= tolerance }) {
                groups[i].append(title)
            } else {
                groups.append([title])
            }
        }
        return groups
    }

    /// A column's or row's step: the shortest of its `gaps` (title to title) of at least
    /// `minimumStepLines` line heights (shorter: one title read twice).
    private static func step(_ gaps: [Double], lineHeight: Double, tuning t: Tuning.PhotoTitles) -> Double? {
        gaps.filter { $0 >= t.minimumStepLines * lineHeight }.min()
    }

    /// Whether a gap between titles may hide one: wider than `gapSteps` steps, and no wider than
    /// `maximumGapSteps` (a gap of many steps is a whole card below its title).
    private static func isWide(_ gap: Double, step: Double, tuning t: Tuning.PhotoTitles) -> Bool {
        gap > t.gapSteps * step && gap <= t.maximumGapSteps * step
    }

    /// Whether two line boxes are one line: most of the smaller lies in the larger.
    static func sameLine(_ a: Box, _ b: Box) -> Bool {
        let width = min(a.x + a.w, b.x + b.w) - max(a.x, b.x), height = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
        guard width > 0, height > 0 else { return false }
        return width * height > 0.5 * min(a.w * a.h, b.w * b.h)
    }

    /// The fewest letters of `name` changed, left out or added to find it in `text` (letters
    /// only, case ignored; the text may hold more before and after it).
    static func lettersMissed(_ name: String, in text: String) -> Int {
        let n = Array(name.lowercased().filter(\.isLetter)), t = Array(text.lowercased().filter(\.isLetter))
        guard !n.isEmpty else { return 0 }
        // Rows over the name's letters; the text's start and end are free.
        var previous = [Int](repeating: 0, count: t.count + 1)
        for i in 1...n.count {
            var current = [Int](repeating: i, count: t.count + 1)
            for j in stride(from: 1, through: t.count, by: 1) {
                current[j] = min(previous[j - 1] + (n[i - 1] == t[j - 1] ? 0 : 1), previous[j] + 1, current[j - 1] + 1)
            }
            previous = current
        }
        return previous.min() ?? n.count
    }

    /// `quad` shrunk towards its centre by `share` of its size.
    static func inset(_ quad: Quad, by share: Double) -> Quad {
        let c = quad.centre
        return quad.map { PixelPoint(x: $0.x + (c.x - $0.x) * 2 * share, y: $0.y + (c.y - $0.y) * 2 * share) }
    }

    /// A point of the photo turned `quarterTurns` × 90° clockwise (`GrayImage.turned`), in the
    /// photo of `width` x `height` pixels as it was.
    static func unturned(_ p: PixelPoint, quarterTurns: Int, width: Int, height: Int) -> PixelPoint {
        let w = Double(width), h = Double(height)
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return PixelPoint(x: p.y, y: h - p.x)
        case 2: return PixelPoint(x: w - p.x, y: h - p.y)
        case 3: return PixelPoint(x: w - p.y, y: p.x)
        default: return p
        }
    }
}
