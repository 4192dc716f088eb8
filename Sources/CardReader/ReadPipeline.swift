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
        // Hypotheses for where the card is: the located quad, and for a portrait image shaped like a
        // card (a flat scan) the whole image. Content decides among them and between up and down:
        // the title band must hold a line of large, confident text.
        // A portrait image shaped like a card is most likely a flat scan: its whole frame goes first.
        var hypotheses: [[PixelPoint]] = []
        let edges = located.map { BorderRefiner().refine($0.corners, in: gray) }
        if let edges { hypotheses.append(edges) }
        if scanShaped {
            hypotheses.insert(Self.wholeImage(gray), at: 0)
        } else if located == nil {
            hypotheses.append(Self.wholeImage(gray))
        }
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

    /// One way of reading the card: its corners, what was read, and how plausible it is.
    struct Attempt {
        var corners: [PixelPoint]
        var observations: [CardObservation]
        var fields: ExtractedFields
        var titleQuality: Double
        /// Credit (or debit) for how the attempt was made.
        var prior = 0.0
        /// The title is a card name the caller's vocabulary knows.
        var titleKnown = false
        /// The collector band holds a copyright line: an older frame, whose number is in it.
        var printsCopyright = false
        /// The copyright line has been read.
        var copyrightRead: Bool { observations.contains { $0.region == "copyright" } }
        /// Whether `other`, read on another quad of this card, reads the same known name above
        /// collector lines this reading lacks: the same card, whose bottom edge the other quad
        /// found. (Lightform seen at a steep angle: the located quad's bottom cut through its
        /// text box; the quad grown by the black border read `Lightform`, poorly, above
        /// `FRF • EN`, and lost on score.)
        func isCompleted(by other: Attempt) -> Bool {
            let sameName = titleKnown && other.titleKnown && other.fields.title?.value == fields.title?.value
            let addsLines = (other.fields.collectorNumber != nil && fields.collectorNumber == nil)
                || (other.fields.setCode != nil && fields.setCode == nil)
            return sameName && addsLines
        }

        /// Title quality plus credit for collector lines that parse, and for a known title.
        var score: Double {
            prior + titleQuality + (titleKnown ? 0.5 : 0) + (fields.collectorNumber != nil ? 0.6 : 0) + (fields.setCode != nil ? 0.4 : 0)
        }
        /// Good enough to stop looking at other hypotheses: a title that reads cleanly or that the
        /// vocabulary knows (`( Gideon's Reproach` reads with a stray bracket), and collector lines.
        var isConvincing: Bool { (titleQuality > 0.6 || titleKnown) && (fields.collectorNumber != nil || fields.setCode != nil) }
        /// A known title that settles where the card is and which way is up. One read at very low
        /// quality with no collector line below it does not: the vocabulary snaps fragments of
        /// noise to names (`meee ees` to Foresee on a card read the wrong way round), so the other
        /// way up is read too and the better reading wins.
        var settlesTitle: Bool {
            titleKnown && (titleQuality >= ReadPipeline.unsettledTitleQuality || fields.collectorNumber != nil || fields.setCode != nil)
        }
    }

    /// Reads the title band, then (when the title band is plausible) the collector band.
    /// `wayUp`: whether the corners are the way up the card most likely is (the way-up test's
    /// first choice, or the way an earlier reading settled), and how sure that is.
    /// `title`: the title band as already read (otherwise it is read here).
    /// `onlyKnownTitle`: the collector band is read only below a known title (a quad that is a guess).
    func attempt(_ corners: [PixelPoint], gray: GrayImage, extended: Bool, wayUp: WayUp, title: RegionRead? = nil,
                         onlyKnownTitle: Bool = false) throws -> Attempt {
        let titleRegion = extended ? CardLayout.extendedTitle : CardLayout.title
        let collectorRegion = extended ? CardLayout.extendedCollector : CardLayout.collector
        let title = try title ?? readRegion("title", titleRegion, cardHeight: CardLayout.titleCardHeight,
                                            gray: gray, corners: corners, psm: .singleBlock, maximumWords: Self.maximumTitleBandWords)
        let titleOnly = extractor.extract(title.observations)
        // The extractor put the vocabulary's name in place of what was read when it knew one.
        let known = titleOnly.title.map { title in options.resolveTitle?(title.value) != nil } ?? false
        DebugDump.trace("title quality \(title.quality) known \(known) band \(extended ? "extended" : "standard") \(wayUp.rawValue)")
        let titleMissed = !title.crowded && ((wayUp == .sure && !extended) || (wayUp != .other && title.observations.isEmpty))
        guard known || (!onlyKnownTitle && (title.quality >= Self.minimumTitleQuality || titleMissed)) else {
            // No title where the quad puts it: the quad is not a card, or this way up is wrong.
            // Its collector band would be noise, and noise is slow to read. (The likely way up,
            // an empty title band is read on, and so is a standard band of noise on a main card
            // whose way up measured clearly: a quad seen at a steep angle can miss the title and
            // still hold the collector lines.)
            return Attempt(corners: corners, observations: title.observations, fields: titleOnly, titleQuality: title.quality)
        }
        let collectorPatch = Self.patch(collectorRegion, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: corners)
        let collector = try read(collectorPatch, "collector", collectorRegion, psm: .sparseText)
        var observations = title.observations + collector.observations
        var fields = extractor.extract(observations)
        // Further looks at the collector lines while a field is missing, each parsed on its own
        // and the fields pooled:
        // - block mode: sparse-text and block mode segment the two short lines differently, and
        //   each reads some lines the other garbles;
        // - constrained: keeps the read from drifting to lower case (`ose/ies` for 056/185);
        // - the patch at half its size: reads blurred lines that the full-size patch garbles
        //   (`057/264 C` / `OTK` where it read `OS?/264 €` / `OTM`).
        // Only on a way up whose title reads well (the others rarely win), or that is a known
        // name read poorly, and then at half size only (the constrained read made `73/272` of
        // `or3/ 272 {` below a poorly read Forest). At half size only when the band read some
        // digit (a band with none is an older frame's or holds no collector line). For a missing
        // set code only beside a modern number line (old frames print none). Nor on an older
        // frame, whose collector band holds the copyright line.
        let retries = [CollectorRetry(psm: .singleBlock), CollectorRetry(psm: .sparseText, whitelist: "0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                       CollectorRetry(psm: .sparseText, reduction: 2)]
        let printsCopyright = collector.observations.contains { CollectorLineParser.isCopyrightLine($0.observation.text) }
        let readsDigits = collector.observations.contains { $0.observation.text.contains(where: \.isNumber) }
        for retry in retries where fields.collectorNumber == nil || (fields.setCode == nil && fields.setSize != nil) {
            guard !collector.observations.isEmpty, !printsCopyright else { break }
            guard retry.isWorthReading(titleQuality: title.quality, titleKnown: known, bandReadDigits: readsDigits) else { continue }
            let again = try read(collectorPatch.reduced(by: retry.reduction), "collector", collectorRegion, psm: retry.psm, whitelist: retry.whitelist)
            let other = extractor.extract(title.observations + again.observations)
            let absorbed = fields.absorbingCollectorFields(of: other)
            DebugDump.trace("collector retry \(retry): \(absorbed ? "added fields" : "nothing new")")
            if absorbed { observations += again.observations }
        }
        return Attempt(corners: corners, observations: observations, fields: fields, titleQuality: title.quality,
                       titleKnown: known, printsCopyright: printsCopyright && fields.collectorNumber == nil)
    }

    /// One more look at the collector band: a page-segmentation mode, a character whitelist, and
    /// how much the patch is reduced first.
    struct CollectorRetry: CustomStringConvertible {
        var psm: PageSegmentationMode
        var whitelist: String?
        var reduction = 1

        /// Below a title band that read cleanly; a reduced patch also below a known name read
        /// poorly, but only when the band read some digit.
        func isWorthReading(titleQuality: Double, titleKnown: Bool, bandReadDigits: Bool) -> Bool {
            let titled = titleQuality > ReadPipeline.cleanTitleQuality
            return reduction > 1 ? bandReadDigits && (titled || titleKnown) : titled
        }

        var description: String { "\(psm)\(whitelist == nil ? "" : " constrained")\(reduction > 1 ? " at 1/\(reduction) size" : "")" }
    }

    /// From this quality up a title band read cleanly: when its text is no known name, the
    /// vocabulary lacks it (a newer card), and re-reading the band will not find one.
    static let cleanTitleQuality = 0.5

    /// The fewest letters of a name taken from a guessed read (a binarised band, a placed quad): a
    /// short name is what noise and fragments of longer titles hit (`Okk`, `Omen`, `Tear`).
    static let minimumGuessedNameLetters = 6

    /// Which way up a quad is read, as far as the way-up test and earlier readings tell.
    enum WayUp: String {
        /// The likely way up, on the main card of a photo whose way-up test was decisive.
        case sure = "sure way up"
        /// The way-up test's first choice (or a way an earlier reading settled).
        case likely = "likely way up"
        /// The other way.
        case other = "other way up"
    }

    /// Below this quality a known title with nothing read below it does not settle the search
    /// (`Attempt.settlesTitle`). On the shared photos known titles read this badly were two
    /// fragments of noise and three real titles (a 1990s frame in a photo of several cards, a
    /// card on a dark stand, a blurred one), which keep winning on score.
    static let unsettledTitleQuality = 0.15

    /// Below this title quality (and with no known title) the collector band is not read.
    static let minimumTitleQuality = 0.3

    /// Text read in one card region.
    struct RegionRead {
        var observations: [CardObservation]
        /// How text-like the result is (confidence weighted by the share of letters).
        var quality: Double
        /// The band held more words than it was worth reading (`maximumWords`): noise, not read.
        var crowded = false
    }

    /// A title band whose layout holds more words than this is not recognised: it is art, rules
    /// text or a table, not a title. (On the shared photos title bands that read a known name held
    /// at most 8 words; bands of noise up to 17, and the 10 over 12 took ~1 s to read.)
    static let maximumTitleBandWords = 12

    private func readRegion(_ name: String, _ region: CardRegion, cardHeight: Int, gray: GrayImage, corners: [PixelPoint],
                            psm: PageSegmentationMode, whitelist: String? = nil, retryInverted: Bool = true,
                            maximumWords: Int? = nil) throws -> RegionRead {
        try read(Self.patch(region, cardHeight: cardHeight, gray: gray, corners: corners), name, region, psm: psm, whitelist: whitelist,
                 retryInverted: retryInverted, maximumWords: maximumWords)
    }

    /// The region rectified from the photo, dark text on a light ground, dark margins trimmed.
    static func patch(_ region: CardRegion, cardHeight: Int, gray: GrayImage, corners: [PixelPoint]) -> GrayImage {
        var patch = Rectifier.warp(gray, homography: Homography(corners: corners), region: region, cardHeightPixels: cardHeight)
        if patch.hasLightText() { patch = patch.inverted() } // white text on a black border
        return patch.trimmingDarkEdges()
    }

    /// OCR of a rectified patch.
    /// `retryInverted`: Tesseract's inverted second reading of low-confidence lines. It stays on
    /// where the patch's polarity may be judged wrong: on a 2023 frame's black border it is what
    /// reads the collector lines, and on a dark shelf what reads some titles. Off, a band that
    /// reads as noise costs one reading instead of two.
    /// `maximumWords`: a patch whose layout holds more words is not recognised (`RegionRead.crowded`).
    func read(_ patch: GrayImage, _ name: String, _ region: CardRegion, psm: PageSegmentationMode, whitelist: String? = nil,
              retryInverted: Bool = true, maximumWords: Int? = nil) throws -> RegionRead {
        DebugDump.write(patch, name: name)
        let began = Clock.now
        func trace(_ outcome: @autoclosure () -> String) { // (built only when tracing)
            DebugDump.trace("ocr \(name) psm=\(psm) wl=\(whitelist != nil) \(patch.width)x\(patch.height) \(Int(Clock.ms(began, Clock.now)))ms \(outcome())")
        }
        let found: [TextObservation]
        do {
            found = try recognizer.recognize(patch, options: RecognitionOptions(
                level: .line, pageSegmentation: psm, characterWhitelist: whitelist, includeCharacterConfidences: true,
                deadlineMilliseconds: options.ocrDeadlineMilliseconds, retryInverted: retryInverted, maximumWords: maximumWords))
        } catch let OCRError.tooManyWords(words, _) {
            trace("crowded: \(words) words")
            return RegionRead(observations: [], quality: 0, crowded: true)
        }
        trace("\(found.map(\.text))")
        let mapped = found.map { o -> CardObservation in
            let b = region.toBottomLeft((o.boundingBox.x, o.boundingBox.y, o.boundingBox.width, o.boundingBox.height))
            var card = o
            card.boundingBox = NormalizedRect(x: b.x, y: b.y, width: b.w, height: b.h)
            return CardObservation(region: name, observation: card)
        }
        // Title-like: confident, mostly letters, several characters, and as tall as a title on a
        // card (small print, such as an upside-down copyright line, is not a title).
        let bandHeight = region.v1 - region.v0
        let quality = found.map { o -> Double in
            let text = TitleCleaner.clean(o.text, characterConfidences: o.characterConfidences)
            let letters = Double(text.filter(\.isLetter).count) / Double(max(1, o.text.count))
            let cardHeight = o.boundingBox.height * bandHeight
            let tall = min(1, max(0, (cardHeight - 0.012) / 0.014))
            return o.confidence * letters * min(1, Double(text.count) / 4) * tall
        }.max() ?? 0
        return RegionRead(observations: mapped, quality: quality)
    }

    /// Beyond this difference (grey levels) between the text box and the art box, `textBoxLightness`
    /// decides which way up the card is read: only the quad's way up when the text box is the
    /// lighter (the main card turned round too when that gave no known title), upside down first
    /// when the art box is. (On the shared photos the two upside-down
    /// cards measured −50 and −55, upright cards from −45 (a saga, its text box beside the art,
    /// and a graded slab's label) to +174; a card upside down past +25 would need art 25 levels
    /// lighter than its text box.)
    static let orientationLightness = 25.0

    /// How much lighter (grey levels) the card's text box (v 0.62–0.88) is than its art box
    /// (v 0.12–0.38), the quad's way up: positive on an upright card of most frames, negative upside
    /// down. From a 57x76 rectified copy of the card's middle (far cheaper than one OCR call).
    static func textBoxLightness(_ corners: [PixelPoint], gray: GrayImage) -> Double {
        let middle = CardRegion(u0: 0.1, v0: 0.12, u1: 0.9, v1: 0.88)
        let small = Rectifier.warp(gray, homography: Homography(corners: corners), region: middle, cardHeightPixels: 100)
        // The mean grey of the copy's rows between v0 and v1 (card coordinates).
        func mean(_ v0: Double, _ v1: Double) -> Double {
            let row = { (v: Double) in Int((v - middle.v0) / (middle.v1 - middle.v0) * Double(small.height)) }
            return small.mean(rows: row(v0)..<row(v1))
        }
        return mean(0.62, 0.88) - mean(0.12, 0.38)
    }

    /// The card around a quad that is its inner frame (2015+ frames: the black border is about 4%
    /// of the width at the sides, 3% of the height at the top and 5.5% at the bottom).
    static func innerFrameExpanded(_ corners: [PixelPoint]) -> [PixelPoint] {
        let h = Homography(corners: corners)
        return [(-0.041, -0.029), (1.041, -0.029), (1.041, 1.059), (-0.041, 1.059)].map { u, v in
            let p = h.map(u, v)
            return PixelPoint(x: p.x, y: p.y)
        }
    }

    /// The quad with its bottom edge moved so the region it outlines has the card's 63:88 shape
    /// (judged through the perspective), or nil when it already has.
    static func aspectCompleted(_ corners: [PixelPoint], imageWidth: Int, imageHeight: Int) -> [PixelPoint]? {
        let seen = Geometry.rectifiedAspect(corners, imageWidth: imageWidth, imageHeight: imageHeight)
        guard seen > 0.4, seen < 1 else { return nil }
        // The quad's width is taken as the card's: its height should be width * 88/63.
        let bottom = seen / CardLocator.cardAspect
        guard abs(bottom - 1) > 0.025, bottom < 1.25, bottom > 0.85 else { return nil }
        let h = Homography(corners: corners)
        let left = h.map(0, bottom), right = h.map(1, bottom)
        return [corners[0], corners[1], PixelPoint(x: right.x, y: right.y), PixelPoint(x: left.x, y: left.y)]
    }

    /// A 63:88 rectangle hanging from the quad's top edge (its sides square to that edge), or nil
    /// when the quad's bottom corners are already within 4% of the card's width of it.
    static func hungFromTop(_ corners: [PixelPoint]) -> [PixelPoint]? {
        let tl = corners[0], tr = corners[1]
        let dx = tr.x - tl.x, dy = tr.y - tl.y
        let width = (dx * dx + dy * dy).squareRoot()
        guard width > 0 else { return nil }
        // The edge's normal pointing into the card (towards the quad's bottom edge).
        var nx = -dy / width, ny = dx / width
        let mid = PixelPoint(x: (corners[2].x + corners[3].x) / 2 - tl.x, y: (corners[2].y + corners[3].y) / 2 - tl.y)
        if nx * mid.x + ny * mid.y < 0 { nx = -nx; ny = -ny }
        let height = width / CardLocator.cardAspect
        let br = PixelPoint(x: tr.x + nx * height, y: tr.y + ny * height)
        let bl = PixelPoint(x: tl.x + nx * height, y: tl.y + ny * height)
        let moved = max(Geometry.distance(br, corners[2]), Geometry.distance(bl, corners[3]))
        return moved > 0.04 * width ? [tl, tr, br, bl] : nil
    }

    /// The whole image as the card (flat scans), long side vertical.
    static func wholeImage(_ gray: GrayImage) -> [PixelPoint] {
        let w = Double(gray.width), h = Double(gray.height)
        return CardLocator.portraitOrder([PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)])
    }

    /// Whether `corners` are the whole image's (in any order): the photo read as a flat scan.
    static func isWholeImage(_ corners: [PixelPoint], _ gray: GrayImage) -> Bool {
        corners.allSatisfy(wholeImage(gray).contains)
    }

    /// Clockwise rotation of the card in the photo, snapped to 0/90/180/270.
    static func rotation(of corners: [PixelPoint]) -> Int {
        let dx = corners[1].x - corners[0].x, dy = corners[1].y - corners[0].y
        let degrees = atan2(dy, dx) * 180 / .pi
        let snapped = Int((degrees / 90).rounded()) * 90
        return (snapped % 360 + 360) % 360
    }
}

/// Writes rectified patches as PNG into `$CARDSCAN_DEBUG_DIR` when it is set (for tuning).
enum DebugDump {
    static let directory = ProcessInfo.processInfo.environment["CARDSCAN_DEBUG_DIR"]

    static func log(_ lines: [String]) {
        guard directory != nil else { return }
        toStandardError(lines.joined(separator: "\n"))
    }

    static let tracing = ProcessInfo.processInfo.environment["CARDSCAN_TRACE"] != nil

    /// One line on stderr when `$CARDSCAN_TRACE` is set (what was read, and how long it took).
    static func trace(_ line: @autoclosure () -> String) {
        guard tracing else { return }
        toStandardError(line())
    }

    private static func toStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func write(_ patch: GrayImage, name: String) {
        guard let directory else { return }
        let rgb = RGBImage(width: patch.width, height: patch.height, pixels: patch.pixels.flatMap { [$0, $0, $0] })
        try? ImageWriter.writePNG(rgb, to: "\(directory)/\(name)-\(UUID().uuidString.prefix(6)).png")
    }
}
