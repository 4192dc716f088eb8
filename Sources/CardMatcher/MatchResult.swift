import CardCatalog

/// The outcome of matching one card.
public enum MatchStatus: String, Sendable, Codable {
    /// One printing, with a confidence at or above the identification threshold.
    case identified
    /// Several printings remain (or one, with too little evidence): see the candidates.
    case ambiguous
    /// Nothing in the catalog fits what was read.
    case unidentified
    /// The photo could not be read at all.
    case error
}

/// A possible printing with a score in 0…1.
public struct MatchCandidate: Sendable, Codable, Equatable {
    /// The printing.
    public var printing: Printing
    /// How well it fits what was read.
    public var score: Double

    /// Creates a candidate.
    public init(printing: Printing, score: Double) {
        self.printing = printing
        self.score = score
    }
}

/// The card's printed words as the matcher weighed them.
public struct TextSupport: Sendable, Codable, Equatable {
    /// Lines read in the text box and credits.
    public var lines: Int
    /// The words of the text found on the chosen card (or the best-matching one), as the index spells them.
    public var words: [String]
    /// Share of the text's word weight found on that card, 0…1.
    public var score: Double
    /// The year of the copyright line, when read.
    public var copyrightYear: Int?
    /// The name the text alone points to (its best-scored name), and how far its score leads the
    /// next name's (0…1): what the text says on its own, whether or not it decided.
    public var bestName: String?
    public var lead: Double
    /// Whether the words were read on the whole photo (no card found in it was recognised), not
    /// on the card's own text box and credits.
    public var fromPhoto: Bool

    public init(lines: Int, words: [String], score: Double, copyrightYear: Int?, bestName: String? = nil, lead: Double = 0, fromPhoto: Bool = false) {
        self.lines = lines
        self.words = words
        self.score = score
        self.copyrightYear = copyrightYear
        self.bestName = bestName
        self.lead = lead
        self.fromPhoto = fromPhoto
    }
}

/// What the matcher concluded, and how.
public struct MatchResult: Sendable, Codable, Equatable {
    /// identified / ambiguous / unidentified.
    public var status: MatchStatus
    /// The printing when identified.
    public var card: Printing?
    /// Calibrated confidence that `card` (or the first candidate) is right.
    public var confidence: Double
    /// Ranked alternatives (the identified card first when there is one).
    public var candidates: [MatchCandidate]
    /// Which rule decided: `exact`, `number-from-title`, `set-from-number`, `set-from-size`, `title-only`,
    /// `title+text`, `text`, `text+name` (the text, read naming the card as its own text does), `type-line` (a line read whole as a type line no other card has), `none`; `+date` when the photo's capture day ruled out later printings.
    public var method: String
    /// What the card's printed words said, when they were read and searched (nil otherwise).
    public var text: TextSupport?
    /// The language the card is printed in, as read on it, when the catalog holds the card only in
    /// another language (`card` is then that printing); nil otherwise.
    public var printedLanguage: String?

    /// Creates a result.
    public init(status: MatchStatus, card: Printing?, confidence: Double, candidates: [MatchCandidate], method: String) {
        self.status = status
        self.card = card
        self.confidence = confidence
        self.candidates = candidates
        self.method = method
    }

    /// The card's name when it is known even if the printing is not: the identified card's name, or
    /// the one name every candidate shares (e.g. a basic land or a reprint without a readable number).
    public var name: String? {
        if let card { return card.name }
        guard status == .ambiguous, let first = candidates.first?.printing.name,
              candidates.allSatisfy({ $0.printing.name == first }) else { return nil }
        return first
    }
}
