/// Where text sits on a card, in card coordinates (u right, v down, 0…1 of the upright card),
/// and how large the rectified copies are made so text is about 30 px tall for Tesseract.
enum CardLayout {
    /// Title line (left part of the title bar; the mana cost at the right is left out).
    static let title = CardRegion(u0: 0.04, v0: 0.035, u1: 0.80, v1: 0.105)
    /// Card height in pixels at which the title's letters are about 30 px tall.
    static let titleCardHeight = 1100

    /// The 2003–2014 copyright line (centre/right of the bottom edge), holding `181/350`.
    static let copyright = CardRegion(u0: 0.30, v0: 0.925, u1: 0.975, v1: 0.990)
    /// Card height in pixels at which the bottom lines' capitals are about 30 px tall.
    static let bottomCardHeight = 2300

    /// The 2015+ collector lines (bottom left), read as a block of two lines.
    /// It reaches past the card's bottom edge: when the locator stopped at the inner frame of a
    /// black-bordered card the real lines sit just below the quad.
    static let collector = CardRegion(u0: 0.01, v0: 0.91, u1: 0.48, v1: 1.035)

    /// Bands to try when the standard ones read nothing convincing: the locator may have stopped
    /// at the card's inner frame, so the title can sit above the quad and the collector lines
    /// below it.
    static let extendedTitle = CardRegion(u0: 0.04, v0: -0.015, u1: 0.80, v1: 0.11)
    static let extendedCollector = CardRegion(u0: 0.01, v0: 0.91, u1: 0.48, v1: 1.08)
}
