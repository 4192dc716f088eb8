import CardScanOCR

/// The card's printed text beyond the title and the collector lines: more evidence for the
/// matcher when those two did not settle a printing (they cost a block read each, ~0.3–1 s, so a
/// card that reads cleanly never pays for them).
extension ReadPipeline {
    /// The type line with the rules and flavor text below it (one block), then the credits at the
    /// bottom (artist, copyright year), read on the card at `corners` (TL, TR, BR, BL upright).
    func readText(corners: Quad, gray: GrayImage) throws -> [CardObservation] {
        let block = try readRegion(.textBox, CardLayout.textBlock, cardHeight: CardLayout.textCardHeight,
                                   gray: gray, corners: corners, psm: .singleBlock)
        let credits = try readRegion(.credits, CardLayout.credits, cardHeight: CardLayout.bottomCardHeight,
                                     gray: gray, corners: corners, psm: .sparseText)
        return block.observations + credits.observations
    }
}
