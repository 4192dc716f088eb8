import CardScanOCR

/// Rectifying one region of a card and reading it with Tesseract.
extension ReadPipeline {
    /// Text read in one card region.
    struct RegionRead {
        var observations: [CardObservation]
        /// How text-like the result is (confidence weighted by the share of letters).
        var quality: Double
        /// The band held more words than it was worth reading (`maximumWords`): noise, not read.
        var crowded = false
    }

    /// `region` rectified from the card at `corners` (`patch`) and read (`read`).
    func readRegion(_ name: CardBand, _ region: CardRegion, cardHeight: Int, gray: GrayImage, corners: Quad,
                    psm: PageSegmentationMode, whitelist: String? = nil, retryInverted: Bool = true,
                    maximumWords: Int? = nil) throws -> RegionRead {
        try read(Self.patch(region, cardHeight: cardHeight, gray: gray, corners: corners), name, region, psm: psm, whitelist: whitelist,
                 retryInverted: retryInverted, maximumWords: maximumWords)
    }

    /// The region rectified from the photo, dark text on a light ground, dark margins trimmed
    /// (unless `trimmed` is false: a shadow over a side of the region is dark too, and the print
    /// in it would be cut off).
    static func patch(_ region: CardRegion, cardHeight: Int, gray: GrayImage, corners: Quad, trimmed: Bool = true) -> GrayImage {
        // The bottom lines' small print (read at `bottomCardHeight`) is enlarged most, on plain
        // borders: cubic there. (Everywhere, it cost several-card photos 5 of 79 titles read on
        // small cards' textured title bars.)
        var patch = Rectifier.warp(gray, homography: Homography(corners), region: region, cardHeightPixels: cardHeight,
                                   cubicWhenEnlarged: cardHeight == CardLayout.bottomCardHeight)
        if patch.hasLightText() { patch = patch.inverted() } // white text on a black border
        return trimmed ? patch.trimmingDarkEdges() : patch
    }

    /// The bands `attempt` and `readingCopyright` read (the standard ones), cut at `corners` as
    /// they cut them: what Tesseract is given, for validating OCR models on real lines.
    static func bandPatches(corners: Quad, gray: GrayImage) -> [(band: CardBand, image: GrayImage)] {
        [(.title, patch(CardLayout.title, cardHeight: CardLayout.titleCardHeight, gray: gray, corners: corners)),
         (.collector, patch(CardLayout.collector, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: corners)),
         (.copyright, patch(CardLayout.copyright, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: corners))]
    }

    /// OCR of a rectified patch.
    /// `retryInverted`: Tesseract's inverted second reading of low-confidence lines. It stays on
    /// where the patch's polarity may be judged wrong: on a 2023 frame's black border it is what
    /// reads the collector lines, and on a dark shelf what reads some titles. Off, a band that
    /// reads as noise costs one reading instead of two.
    /// `maximumWords`: a patch whose layout holds more words is not recognised (`RegionRead.crowded`).
    /// `resolution`: the dots per inch Tesseract is told; its layout drops lines it judges too
    /// small for it.
    /// `engine`: the engine to read with (by default the band's own).
    /// `binarization`: one threshold for the patch, or one per part of it.
    func read(_ patch: GrayImage, _ name: CardBand, _ region: CardRegion, psm: PageSegmentationMode, whitelist: String? = nil,
              retryInverted: Bool = true, maximumWords: Int? = nil, resolution: Int = 300, engine: TextRecognizer? = nil,
              binarization: Binarization = .global) throws -> RegionRead {
        DebugDump.write(patch, name: name.rawValue)
        let began = Clock.now
        func trace(_ outcome: @autoclosure () -> String) { // (built only when tracing)
            DebugDump.trace("ocr \(name) psm=\(psm) dpi=\(resolution) wl=\(whitelist != nil)\(binarization == .adaptive ? " adaptive" : "") \(patch.width)x\(patch.height) \(Int(Clock.ms(began, Clock.now)))ms \(outcome())")
        }
        let found: [TextObservation]
        do {
            let engine = engine ?? (name == .collector ? collectorRecognizer ?? recognizer : recognizer)
            found = try engine.recognize(patch, options: RecognitionOptions(
                level: .line, pageSegmentation: psm, characterWhitelist: whitelist, includeCharacterConfidences: true,
                deadlineMilliseconds: options.ocrDeadlineMilliseconds, sourceResolution: resolution, retryInverted: retryInverted,
                maximumWords: maximumWords, binarization: binarization))
        } catch let OCRError.tooManyWords(words, _) {
            trace("crowded: \(words) words")
            return RegionRead(observations: [], quality: 0, crowded: true)
        }
        trace("\(found.map { "\($0.text) @\(Int(($0.confidence * 100).rounded()))" })")
        let mapped = found.map { o -> CardObservation in
            let b = region.toBottomLeft((o.boundingBox.x, o.boundingBox.y, o.boundingBox.width, o.boundingBox.height))
            var card = o
            card.boundingBox = NormalizedRect(x: b.x, y: b.y, width: b.w, height: b.h)
            return CardObservation(region: name, observation: card)
        }
        // Title-like: confident, mostly letters, several characters, and as tall as a title on a
        // card (small print, such as an upside-down copyright line, is not a title).
        let bandHeight = region.v1 - region.v0, tuning = options.tuning.title
        let quality = found.map { o -> Double in
            let text = TitleCleaner.clean(o.text, characterConfidences: o.characterConfidences)
            let letters = Double(text.filter(\.isLetter).count) / Double(max(1, o.text.count))
            let cardHeight = o.boundingBox.height * bandHeight
            let tall = min(1, max(0, (cardHeight - tuning.smallestLetterHeight) / tuning.letterHeightSpan))
            return o.confidence * letters * min(1, Double(text.count) / Double(tuning.fullLength)) * tall
        }.max() ?? 0
        return RegionRead(observations: mapped, quality: quality)
    }
}
