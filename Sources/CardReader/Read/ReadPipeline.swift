import CardScanOCR
import Foundation

/// One pass of the reader over one decoded photo.
struct ReadPipeline {
    let recognizer: TextRecognizer
    let options: CardReader.Options
    var extractor: FieldExtractor { FieldExtractor(resolveSetCode: options.resolveSetCode, resolveTitle: options.resolveTitle) }

    func run(image: Image) throws -> CardReading {
        try runAll(image: image, limit: 1)[0]
    }

    /// Reads up to `limit` cards: the most card-like region first (what `run` reads), then other
    /// card-sized regions of the photo, each kept only when something recognisable was read on it
    /// (a title the vocabulary knows, or a collector number). Never empty.
    func runAll(image: Image, limit: Int) throws -> [CardReading] {
        let converted = Clock.now
        DebugDump.trace("photo \(image.name)")
        let gray = image.grayPixels()
        let start = Clock.now
        let aspect = Double(gray.width) / Double(gray.height)
        // A portrait image shaped like a card is most likely a flat scan of one card.
        let scanShaped = aspect > 0.64 && aspect < 0.80
        let located = CardLocator().locateAll(gray, limit: limit)
        let locatedAt = Clock.now
        DebugDump.trace("main region confidence \(located.first?.confidence ?? 0)")
        let first = try read(gray: gray, located: located.first, scanShaped: scanShaped, main: true)
        var readings = [reading(image, first, locateConfidence: located.first?.confidence ?? 0,
                                decode: Clock.ms(converted, start), locate: Clock.ms(start, locatedAt), ocr: Clock.ms(locatedAt, Clock.now))]
        // The whole image read as the card: a flat scan of one card.
        guard !Self.isWholeImage(first.corners, gray) else { return readings }
        // (The first card may have been placed elsewhere than its located region, around its text
        // box: a region on the same card is not another card.)
        for other in located.dropFirst() where !CardLocator.overlaps(other.corners, first.corners) {
            let began = Clock.now
            DebugDump.trace("other region confidence \(other.confidence)")
            let read = try read(gray: gray, located: other, scanShaped: false)
            let spent = Clock.ms(began, Clock.now), isCard = read.titleKnown || read.fields.collectorNumber != nil
            DebugDump.trace("other region read in \(Int(spent))ms kept \(isCard) title \(read.fields.title?.value ?? "-")")
            guard isCard else {
                // Time spent on a region that held no card is the photo's: the first reading carries it.
                readings[0].timings.ocr += spent
                continue
            }
            readings.append(reading(image, read, locateConfidence: other.confidence, decode: 0, locate: 0, ocr: spent))
        }
        return readings
    }

    private func reading(_ image: Image, _ read: Attempt, locateConfidence: Double, decode: Double, locate: Double, ocr: Double) -> CardReading {
        var timings = StageTimings()
        timings.decode = decode // pixel conversion; the caller adds file decoding
        timings.locate = locate
        timings.ocr = ocr
        return CardReading(
            file: image.name, imageWidth: image.width, imageHeight: image.height,
            quad: CardQuad(corners: read.corners), rotation: Self.rotation(of: read.corners),
            locateConfidence: locateConfidence, fields: read.fields, observations: read.observations, timings: timings,
            captureDay: image.captureDay)
    }

    /// Reads one card: the located region (if any) and, for a scan-shaped image, the whole image.
    /// `main`: the photo's first card, reported whatever is read on it. Only for it, when no known
    /// title is found, is the card looked for around a text box; are the alternative quads tried;
    /// and is the copyright line read below a title band that held nothing title-like. (Another
    /// region is kept only for a known title or a number. On the shared photos the alternatives
    /// kept 4 other regions, each a false name read in noise, and a copyright line of noise could
    /// only add a false number.)
    private func read(gray: GrayImage, located: LocatedCard?, scanShaped: Bool, main: Bool = false) throws -> Attempt {
        let edges = located.map { BorderRefiner().refine($0.corners, in: gray) }
        let hypotheses = Self.hypotheses(located: edges, confidence: located?.confidence ?? 0, scanShaped: scanShaped,
                                         imageWidth: gray.width, imageHeight: gray.height)
        // Each hypothesis is read both ways up: title band and collector lines. Upright, the title
        // band holds large confident text and the collector lines parse; upside down, the title band
        // holds the small print and the "collector lines" are the title bar's mana symbols.
        var best: Attempt?
        var tried: [Attempt] = [] // every attempt, for the last resorts
        search: for base in hypotheses {
            // Which way up to read first, and (for another region than the main card) whether the
            // other way is worth reading at all. The main card is read the other way too when its
            // way up gave no known title: a saga (text box beside the art) or a pale 1990s frame
            // can measure lighter art than text box upside down (on the shared photos turned
            // round, this read 2 more titles of 38 for 4% more OCR reads).
            let lightness = Self.textBoxLightness(base, gray: gray)
            let turns = lightness > Self.orientationLightness ? (main ? [0, 2] : [0]) : lightness < -Self.orientationLightness ? [2, 0] : [0, 2]
            DebugDump.trace("text box lighter than art by \(lightness): turns \(turns)")
            // The main card measured clearly one way up: its quad is a card's, and the collector
            // lines are read that way whatever its title band held.
            let decisive = main && abs(lightness) > Self.orientationLightness
            for turn in turns {
                let corners = (0..<4).map { base[($0 + turn) % 4] }
                let wayUp: WayUp = turn != turns[0] ? .other : decisive ? .sure : .likely
                for extended in [false, true] {
                    // A known title settled the top of the quad; a misplaced bottom is the
                    // alternatives' job below.
                    if extended, best?.settlesTitle == true { break }
                    var attempt = try attempt(corners, gray: gray, extended: extended, wayUp: wayUp)
                    if extended { attempt.prior = -0.15 } // the standard bands win a tie
                    if best == nil || attempt.score > best!.score { best = attempt }
                    tried.append(attempt)
                    if attempt.isConvincing { break search }
                }
                // A title that is a known card name settles where the card is and which way is up;
                // the other hypotheses could only add cost (the bands beyond the quad were tried).
                if best?.settlesTitle == true { break search }
            }
        }
        // Last resorts (ReadPipeline+Fallbacks.swift): re-read pale titles; place the card around
        // its text box.
        let resorts = Self.lastResorts(best: best, tried: tried, vocabulary: options.resolveTitle != nil, main: main)
        if resorts.rescue, let rescued = try rescuingTitle(of: tried, gray: gray, main: main) {
            best = rescued
        } else if resorts.textBoxes, let placed = try cardAroundTextBox(gray: gray) {
            best = placed
        }
        if let found = best, found.fields.collectorNumber == nil, found.printsCopyright {
            // An older frame: its number is in the copyright line, not in a misplaced band.
            best = try readingCopyright(found, gray: gray)
        }
        // (Not for the whole image, a flat scan: there is nothing beyond it to find.)
        if main, let found = best, found.fields.title == nil || found.fields.collectorNumber == nil,
           !Self.isWholeImage(found.corners, gray) {
            // The title or the collector lines were not where the quad puts them. The
            // locator may have stopped at the inner frame of a black-bordered card (on a dark
            // background the border is lost in it): grow the quad by the border. Or it ran on into
            // a shadow or stopped short: keep the top edge (the title settled it) and put the
            // bottom edge where the card's 63:88 shape says it is.
            // Or its sides ran on into something as dark as the border (a stand, a shadow) and
            // flare out: below a known title, hang a card-shaped rectangle from the top edge.
            let alternatives = [("inner frame expanded", Self.innerFrameExpanded(found.corners)),
                                ("aspect completed", Self.aspectCompleted(found.corners, imageWidth: gray.width, imageHeight: gray.height)),
                                ("hung from top", found.titleKnown ? Self.hungFromTop(found.corners) : nil)]
            for case let (name, corners?) in alternatives {
                var attempt = try attempt(corners, gray: gray, extended: false, wayUp: .likely)
                attempt.prior = -0.05
                let wins = attempt.score > found.score + 0.1 || found.isCompleted(by: attempt)
                DebugDump.trace("alternative \(name): score \(attempt.score) against \(found.score), \(wins ? "taken" : "not taken")")
                guard wins else { continue }
                if (found.titleKnown && !attempt.titleKnown) || (found.titleKnown == attempt.titleKnown && found.titleQuality > attempt.titleQuality) {
                    // The quad changed under the title band: keep the better reading of the title.
                    attempt.fields.title = found.fields.title
                    attempt.titleKnown = found.titleKnown
                    attempt.titleQuality = found.titleQuality
                    attempt.observations = found.observations.filter { $0.region == "title" }
                        + attempt.observations.filter { $0.region != "title" }
                }
                best = attempt
                break
            }
        }
        guard let found = best else { throw OCRError.recognitionFailed("no region to read") }
        let titled = found.titleKnown || found.titleQuality >= Self.minimumTitleQuality
        var read = found.fields.collectorNumber == nil && !found.copyrightRead && (main || titled) ? try readingCopyright(found, gray: gray) : found
        read.fields.borderColor = borderColor(of: read.corners, edges: edges, gray: gray)
        return read
    }

    /// The border colour measured at the card's edges: at the located quad (edges the locator
    /// found, turned to the reading's way up) when the reading is the same card, grown or moved a
    /// little, rather than at a quad the reading grew or placed by guess; nil for a scan filling
    /// the image (no edge around it to measure).
    private func borderColor(of corners: [PixelPoint], edges: [PixelPoint]?, gray: GrayImage) -> ExtractedField<String>? {
        guard !Self.isWholeImage(corners, gray) else { return nil }
        var quad = corners
        let sizeRatio = edges.map { Geometry.area($0) / max(1, Geometry.area(corners)) } ?? 0
        if let edges, CardLocator.overlaps(edges, corners), sizeRatio > 0.6, sizeRatio < 1.6 {
            // The located corners in the reading's order: the turn that puts them nearest.
            func offset(_ q: [PixelPoint]) -> Double { zip(q, corners).reduce(0) { $0 + Geometry.distance($1.0, $1.1) } }
            let turns = (0..<4).map { turn in (0..<4).map { edges[($0 + turn) % 4] } }
            quad = turns.min { offset($0) < offset($1) } ?? corners
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
        let copyright = try readRegion("copyright", CardLayout.copyright, cardHeight: CardLayout.bottomCardHeight,
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
    static func hypotheses(located: [PixelPoint]?, confidence: Double, scanShaped: Bool, imageWidth: Int, imageHeight: Int) -> [[PixelPoint]] {
        let whole = wholeImage(width: imageWidth, height: imageHeight)
        guard let located else { return [whole] }
        guard scanShaped else { return [located] }
        let share = Geometry.area(located) / Double(imageWidth * imageHeight)
        return confidence >= 0.6 && share < 0.6 ? [located, whole] : [whole, located]
    }

    /// Which last resorts `read` tries once the hypotheses are read: the title rescue, then a card
    /// placed around a text box. Both look for a known name, so neither without a vocabulary, nor
    /// when a known title was found, nor when a title band read cleanly (that is a name the
    /// vocabulary lacks, not a misread). Text boxes only for the photo's main card, and not when
    /// collector lines parsed: they put the card where the locator did, and a card placed around a
    /// text box is a guess (Tower Geist seen from below read `080/272 U` / `ORI* EN` below a title
    /// band of noise; the card placed around its text box read `PARAL He`, snapped to Paralyze,
    /// and replaced the reading).
    static func lastResorts(best: Attempt?, tried: [Attempt], vocabulary: Bool, main: Bool) -> (rescue: Bool, textBoxes: Bool) {
        guard vocabulary, best?.titleKnown != true, tried.allSatisfy({ $0.titleQuality < cleanTitleQuality }) else { return (false, false) }
        return (true, main && best?.fields.collectorNumber == nil)
    }
}
