import CardScanOCR

/// The card's printed text beyond the title and the collector lines: more evidence for the
/// matcher when those two did not settle a printing (they cost a block read each, ~0.3–1 s, so a
/// card that reads cleanly never pays for them).
extension ReadPipeline {
    /// The type line with the rules and flavor text below it (one block), then the credits at the
    /// bottom (artist, copyright year), read on the card at `corners` (TL, TR, BR, BL upright).
    /// A block that gives few sure letters is read again thresholded part by part, its dark
    /// margins kept: a shadow or the table beside the card can put one threshold for the whole
    /// patch under paper and print alike, and nothing is read. (Thresholded part by part from the start, evenly lit boxes read
    /// worse: on the shared photos and their copies it cost more names than it gave.)
    /// The first read and the credits go without Tesseract's inverted retry (`patch` already
    /// turned the print dark; the retry doubled the cost of every line of art or texture read,
    /// ~15% of several-card photos' time); the part-by-part read keeps it: without it there, a
    /// few text boxes read over their art lost the words that named their card.
    func readText(corners: Quad, gray: GrayImage) throws -> [CardObservation] {
        let patch = Self.patch(CardLayout.textBlock, cardHeight: CardLayout.textCardHeight, gray: gray, corners: corners)
        let t = options.tuning.textMatching
        var block = try read(patch, .textBox, CardLayout.textBlock, psm: .singleBlock, retryInverted: false, maximumWords: t.maximumTextBoxWords)
        func sureLetters(_ r: RegionRead) -> Int {
            r.observations.filter { $0.observation.confidence >= t.sureLineConfidence }.reduce(0) { $0 + $1.observation.text.filter(\.isLetter).count }
        }
        let letters = sureLetters(block)
        if letters < t.rereadBelowLetters {
            // Untrimmed: what the first read took for a dark margin may be a shadow over print.
            let whole = Self.patch(CardLayout.textBlock, cardHeight: CardLayout.textCardHeight, gray: gray, corners: corners, trimmed: false)
            let again = try read(whole, .textBox, CardLayout.textBlock, psm: .singleBlock, maximumWords: t.maximumTextBoxWords,
                                 binarization: .adaptive)
            // (After a first read too crowded to be read, the part-by-part read is all there is.)
            if sureLetters(again) > letters || (block.crowded && !again.crowded) { block = again }
        }
        let credits = try readRegion(.credits, CardLayout.credits, cardHeight: CardLayout.bottomCardHeight,
                                     gray: gray, corners: corners, psm: .sparseText, retryInverted: false, maximumWords: t.maximumCreditsWords)
        return block.observations + credits.observations
    }

    /// The photo reduced by a whole factor to the tuning's size, for `readPhotoText` (reduced once
    /// for all the ways up it is read).
    func photoTextImage(_ gray: GrayImage) -> GrayImage {
        let longSide = max(gray.width, gray.height), target = max(1, options.tuning.photoText.longSide)
        return gray.reduced(by: (longSide + target - 1) / target)
    }

    /// Every line of text in the reduced photo (`photoTextImage`), read sparsely turned
    /// `quarterTurns` clockwise: for a photo where no card found was recognised.
    func readPhotoText(reduced: GrayImage, quarterTurns: Int) throws -> [CardObservation] {
        let patch = reduced.turned(quarterTurns: quarterTurns)
        let t = options.tuning.photoText
        return try read(patch, .photo, CardRegion(u0: 0, v0: 0, u1: 1, v1: 1), psm: .sparseText, retryInverted: false).observations
            .filter { $0.observation.confidence >= t.minimumLineConfidence && $0.observation.text.filter(\.isLetter).count >= t.minimumLineLetters }
    }
}
