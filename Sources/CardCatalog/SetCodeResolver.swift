/// A candidate set for a (possibly misread) set code.
public struct SetCodeMatch: Sendable, Codable, Hashable {
    /// The set code in the catalog.
    public var code: String
    /// Similarity in 0…1, including agreement of the printed set size when one was given.
    public var score: Double
    /// The set's record.
    public var set: CardSet
}

/// Finds the valid set codes nearest to an OCR reading (`BF2`, `8FZ` → `bfz`).
struct SetCodeResolver: Sendable {
    private let sets: [(set: CardSet, normalized: [Unicode.Scalar])]

    init(sets: [CardSet]) {
        self.sets = sets.map { ($0, OCRText.normalize($0.code)) }
    }

    /// Ranked candidates. `printedSize` (the `/274` on the card) boosts sets of that size and
    /// lowers sets known to have another size.
    func nearest(_ code: String, printedSize: Int?, limit: Int) -> [SetCodeMatch] {
        let query = OCRText.normalize(code)
        guard !query.isEmpty else { return [] }
        var out: [SetCodeMatch] = []
        for (set, norm) in sets {
            let d = WeightedEditDistance.distance(query, norm).full
            var score = max(0, 1 - d / Double(max(query.count, norm.count, 3)))
            if let printedSize, printedSize > 0 {
                if let size = set.printedSize {
                    score = size == printedSize ? min(1, score * 0.8 + 0.2) : score * 0.85
                } else {
                    score *= 0.95
                }
            }
            if score > 0.3 { out.append(SetCodeMatch(code: set.code, score: score, set: set)) }
        }
        out.sort {
            if $0.score != $1.score { return $0.score > $1.score }
            return $0.set.cardCount > $1.set.cardCount
        }
        return Array(out.prefix(limit))
    }
}

extension CardCatalog {
    /// A set code as read on a card (`bez`, `0tk`) snapped to a known one: the code itself when it
    /// exists; else the nearest code when the printed set size agrees with it, or when only OCR-like
    /// confusions separate them and no other code is as close; else nil. Three-letter codes are so
    /// dense that a bare edit distance of one proves little. Handed to the card reader as its
    /// set-code vocabulary.
    public func resolveSetCode(_ code: String, printedSize: Int?) -> String? {
        if set(code: code) != nil { return code.lowercased() }
        let near = nearestSetCodes(code, printedSize: printedSize, limit: 2)
        guard let best = near.first else { return nil }
        let unique = near.count < 2 || near[1].score < best.score - 0.05
        if let printedSize, best.set.printedSize == printedSize, best.score >= 0.6, unique { return best.code }
        if best.score >= 0.8, unique { return best.code }
        return nil
    }
}
