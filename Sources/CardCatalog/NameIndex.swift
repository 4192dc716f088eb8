/// A searchable text's role: the card's name, one face of a multi-face card, or a printed
/// (non-English) name.
public enum NameKind: String, Sendable, Codable, Hashable {
    case name
    case face
    case printed
}

/// One candidate from a fuzzy name search.
public struct NameMatch: Sendable, Codable, Hashable {
    /// The card's name (English, `Front // Back` for multi-face cards): pass it to `printings(named:)`.
    public var name: String
    /// The text that matched (the card name, one face name, or a printed name).
    public var matchedText: String
    /// What `matchedText` is.
    public var kind: NameKind
    /// Similarity in 0…1 (1 = identical after normalisation).
    public var score: Double
    /// Printings of the card in the catalog (all languages).
    public var printings: Int
}

/// In-memory fuzzy index over every searchable name, built once when a catalog opens.
///
/// Keys are normalised and OCR-folded (`OCRText`); a trigram inverted index over the folded keys
/// yields candidates, which are rescored with `WeightedEditDistance` on the normalised text.
final class NameIndex: Sendable {
    struct Entry: Sendable {
        let text: String
        let cardName: String
        let kind: NameKind
        let printings: Int
        let normalized: [Unicode.Scalar]
    }

    let entries: [Entry]
    private let postings: [UInt64: [Int32]]
    private let gramCounts: [UInt16]
    private let exact: [String: [Int32]]

    /// Builds the index from (text, card name, kind, printings) rows.
    init(rows: [(text: String, cardName: String, kind: NameKind, printings: Int)]) {
        var entries: [Entry] = []
        entries.reserveCapacity(rows.count)
        var postings: [UInt64: [Int32]] = [:]
        var gramCounts: [UInt16] = []
        var exact: [String: [Int32]] = [:]
        for row in rows {
            let norm = OCRText.normalize(row.text)
            guard !norm.isEmpty else { continue }
            let id = Int32(entries.count)
            entries.append(Entry(text: row.text, cardName: row.cardName, kind: row.kind, printings: row.printings, normalized: norm))
            let grams = Self.grams(OCRText.fold(norm))
            gramCounts.append(UInt16(min(grams.count, Int(UInt16.max))))
            for g in grams { postings[g, default: []].append(id) }
            exact[String(String.UnicodeScalarView(norm)), default: []].append(id)
        }
        self.entries = entries
        self.postings = postings
        self.gramCounts = gramCounts
        self.exact = exact
    }

    /// Distinct trigrams of a folded key, padded with a start and an end marker.
    static func grams(_ folded: [Unicode.Scalar]) -> [UInt64] {
        var padded: [UInt32] = [0x02]
        padded.append(contentsOf: folded.map(\.value))
        padded.append(0x03)
        if padded.count < 3 { padded.append(0x03) }
        var out = Set<UInt64>()
        for i in 0...(padded.count - 3) {
            out.insert(UInt64(padded[i]) << 42 | UInt64(padded[i + 1]) << 21 | UInt64(padded[i + 2]))
        }
        return Array(out)
    }

    /// Ranked matches for `query`, one per card name, best first.
    func search(_ query: String, limit: Int, minimumScore: Double, candidates: Int = 64) -> [NameMatch] {
        let norm = OCRText.normalize(query)
        guard !norm.isEmpty, limit > 0 else { return [] }
        let grams = Self.grams(OCRText.fold(norm))

        // Count shared trigrams per entry.
        var counts: [Int32: Int] = [:]
        counts.reserveCapacity(1024)
        for g in grams {
            guard let list = postings[g] else { continue }
            for id in list { counts[id, default: 0] += 1 }
        }
        var pool: [(id: Int32, rank: Double)] = []
        pool.reserveCapacity(counts.count)
        let qn = Double(grams.count)
        for (id, c) in counts {
            let shared = Double(c)
            let dice = 2 * shared / (qn + Double(gramCounts[Int(id)]))
            let containment = shared / qn
            pool.append((id, max(dice, 0.85 * containment)))
        }
        var chosen: [Int32]
        if pool.count > candidates {
            pool.sort { $0.rank > $1.rank }
            chosen = pool.prefix(candidates).map(\.id)
        } else {
            chosen = pool.map(\.id)
        }
        if let same = exact[String(String.UnicodeScalarView(norm))] { chosen.append(contentsOf: same) }
        if chosen.isEmpty && norm.count <= 24 {
            // Nothing shares a trigram (a badly damaged short title): fall back to scanning names of similar length.
            chosen = entries.indices.filter { abs(entries[$0].normalized.count - norm.count) <= 2 }.map(Int32.init)
        }

        // Rescore with the weighted edit distance; keep the best text per card name.
        var best: [String: NameMatch] = [:]
        for id in chosen {
            let e = entries[Int(id)]
            var score = WeightedEditDistance.similarity(norm, e.normalized)
            if e.kind == .printed { score *= 0.98 }
            guard score >= minimumScore else { continue }
            if let old = best[e.cardName], old.score >= score { continue }
            best[e.cardName] = NameMatch(name: e.cardName, matchedText: e.text, kind: e.kind, score: score, printings: e.printings)
        }
        return best.values.sorted {
            if $0.score != $1.score { return $0.score > $1.score }
            if $0.printings != $1.printings { return $0.printings > $1.printings }
            return $0.name < $1.name
        }.prefix(limit).map { $0 }
    }
}
