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
    /// Printings of the card carrying `matchedText` in the catalog (all languages).
    public var printings: Int
}

/// In-memory fuzzy index over every searchable name, built once when a catalog opens.
///
/// Keys are normalised and OCR-folded (`OCRText`); a trigram inverted index over the folded keys
/// yields candidates, which are rescored with `WeightedEditDistance` on the normalised text. When no
/// candidate is close, a second trigram index over a coarser fold (look-alike letters merged) is tried.
final class NameIndex: Sendable {
    struct Entry: Sendable {
        let text: String
        let cardName: String
        let kind: NameKind
        let printings: Int
        let normalized: [Unicode.Scalar]
    }

    /// A trigram inverted index over one folding of the keys.
    struct GramIndex: Sendable {
        var postings: [UInt64: [Int32]] = [:]
        var gramCounts: [UInt16] = []

        mutating func add(_ id: Int32, _ key: [Unicode.Scalar]) {
            let grams = NameIndex.grams(key)
            gramCounts.append(UInt16(min(grams.count, Int(UInt16.max))))
            for g in grams { postings[g, default: []].append(id) }
        }

        /// The `limit` entries sharing the most trigrams with `key` (weighted towards containment,
        /// so truncated titles find their names).
        func candidates(_ key: [Unicode.Scalar], limit: Int, counts: inout [UInt16], touched: inout [Int32]) -> [Int32] {
            let grams = NameIndex.grams(key)
            touched.removeAll(keepingCapacity: true)
            for g in grams {
                guard let list = postings[g] else { continue }
                for id in list {
                    if counts[Int(id)] == 0 { touched.append(id) }
                    counts[Int(id)] &+= 1
                }
            }
            let qn = Float(grams.count)
            var heap = TopK(capacity: limit)
            for id in touched {
                let shared = Float(counts[Int(id)])
                counts[Int(id)] = 0
                let dice = 2 * shared / (qn + Float(gramCounts[Int(id)]))
                heap.insert(id, rank: max(dice, 0.85 * shared / qn))
            }
            return heap.ids
        }
    }

    let entries: [Entry]
    private let fine: GramIndex
    private let coarse: GramIndex
    private let exact: [String: [Int32]]

    /// Builds the index from (text, card name, kind, printings) rows.
    init(rows: [(text: String, cardName: String, kind: NameKind, printings: Int)]) {
        var entries: [Entry] = []
        entries.reserveCapacity(rows.count)
        var fine = GramIndex(), coarse = GramIndex()
        var exact: [String: [Int32]] = [:]
        for row in rows {
            let norm = OCRText.normalize(row.text)
            guard !norm.isEmpty else { continue }
            let id = Int32(entries.count)
            entries.append(Entry(text: row.text, cardName: row.cardName, kind: row.kind, printings: row.printings, normalized: norm))
            fine.add(id, OCRText.fold(norm))
            coarse.add(id, OCRText.coarseFold(norm))
            exact[String(String.UnicodeScalarView(norm)), default: []].append(id)
        }
        self.entries = entries
        self.fine = fine
        self.coarse = coarse
        self.exact = exact
    }

    /// Distinct trigrams of a folded key, padded with a start and an end marker.
    static func grams(_ folded: [Unicode.Scalar]) -> [UInt64] {
        var padded: [UInt32] = [0x02]
        padded.append(contentsOf: folded.map(\.value))
        padded.append(0x03)
        if padded.count < 3 { padded.append(0x03) }
        var out: [UInt64] = []
        out.reserveCapacity(padded.count)
        for i in 0...(padded.count - 3) {
            let g = UInt64(padded[i]) << 42 | UInt64(padded[i + 1]) << 21 | UInt64(padded[i + 2])
            if !out.contains(g) { out.append(g) }
        }
        return out
    }

    /// Ranked matches for `query`, one per card name, best first.
    ///
    /// With `wholeWordsFirst` (a name typed by a person), the names whose leading whole words are
    /// the query come before all others, each group by score: a name that is the query followed
    /// by more words (an epithet, a second word) is the one meant, not a name whose first word
    /// merely starts with the query (a possessive, a compound). The similarity alone favours the
    /// shorter name, since it judges a truncated query by the share of the name it covers. Without
    /// it (OCR readings, where a truncation can fall anywhere) the order is the score's.
    func search(_ query: String, limit: Int, minimumScore: Double, candidates: Int = 48,
                wholeWordsFirst: Bool = false) -> [NameMatch] {
        let norm = OCRText.normalize(query)
        guard !norm.isEmpty, limit > 0 else { return [] }
        var counts = [UInt16](repeating: 0, count: entries.count)
        var touched: [Int32] = []
        touched.reserveCapacity(4096)

        var best: [String: NameMatch] = [:]
        var leading = Set<String>()
        var seen = Set<Int32>()
        func rescore(_ ids: [Int32]) {
            for id in ids where seen.insert(id).inserted {
                let e = entries[Int(id)]
                var score = WeightedEditDistance.similarity(norm, e.normalized)
                if e.kind == .printed { score *= 0.98 }
                guard score >= minimumScore else { continue }
                if wholeWordsFirst, Self.leadingWords(of: e.text, normalized: e.normalized, equal: norm) {
                    leading.insert(e.cardName)
                }
                if let old = best[e.cardName], old.score >= score { continue }
                best[e.cardName] = NameMatch(name: e.cardName, matchedText: e.text, kind: e.kind, score: score, printings: e.printings)
            }
        }
        if let same = exact[String(String.UnicodeScalarView(norm))] { rescore(same) }
        rescore(fine.candidates(OCRText.fold(norm), limit: candidates, counts: &counts, touched: &touched))
        if (best.values.map(\.score).max() ?? 0) < 0.8 {
            rescore(coarse.candidates(OCRText.coarseFold(norm), limit: candidates, counts: &counts, touched: &touched))
        }
        return best.values.sorted {
            let lead0 = leading.contains($0.name), lead1 = leading.contains($1.name)
            if lead0 != lead1 { return lead0 }
            if $0.score != $1.score { return $0.score > $1.score }
            if $0.printings != $1.printings { return $0.printings > $1.printings }
            return $0.name < $1.name
        }.prefix(limit).map { $0 }
    }
}

extension NameIndex {
    /// True when the normalised `query` is `text`'s leading whole words: the whole text, or the
    /// text up to a space, comma, hyphen, slash or colon. An apostrophe joins a word (a
    /// possessive is part of its word), as does any other letter.
    static func leadingWords(of text: String, normalized: [Unicode.Scalar], equal query: [Unicode.Scalar]) -> Bool {
        guard query.count <= normalized.count, normalized.starts(with: query) else { return false }
        if query.count == normalized.count { return true }
        let separators: Set<Character> = [" ", ",", "-", "/", ":"]
        for (i, c) in text.enumerated() where separators.contains(c) {
            let head = OCRText.normalize(String(text.prefix(i)))
            if head.count == query.count { return true }
            if head.count > query.count { return false }
        }
        return false
    }
}

/// Keeps the `capacity` highest-ranked ids (a min-heap on rank).
struct TopK {
    private var items: [(id: Int32, rank: Float)] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        items.reserveCapacity(capacity)
    }

    mutating func insert(_ id: Int32, rank: Float) {
        if items.count < capacity {
            items.append((id, rank))
            siftUp(items.count - 1)
        } else if rank > items[0].rank {
            items[0] = (id, rank)
            siftDown(0)
        }
    }

    var ids: [Int32] { items.sorted { $0.rank > $1.rank }.map(\.id) }

    private mutating func siftUp(_ i: Int) {
        var i = i
        while i > 0 {
            let parent = (i - 1) / 2
            if items[i].rank >= items[parent].rank { return }
            items.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ i: Int) {
        var i = i
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < items.count && items[l].rank < items[smallest].rank { smallest = l }
            if r < items.count && items[r].rank < items[smallest].rank { smallest = r }
            if smallest == i { return }
            items.swapAt(i, smallest)
            i = smallest
        }
    }
}

extension CardCatalog {
    /// Names of up to this many letters are taken from a reading that lacks one letter at most.
    static let shortName = 7

    /// A title as read (`VialofDragonfire`, `canyon Wildcat`) snapped to the name printed on the
    /// card (`Vial of Dragonfire`; the face name for a multi-face card) when one name clearly wins,
    /// else nil. Handed to the card reader as its title vocabulary.
    ///
    /// A name wins with a score of 0.85 and nothing within 0.05 of it; a long reading (ten letters
    /// or more, where two misread letters cost more score than in a short one) also wins at 0.8
    /// when nothing comes within 0.15 (two misread letters in fourteen), one of sixteen letters
    /// or more at 0.75 with the same lead, and one of eight or nine letters at 0.8 when nothing
    /// comes within 0.2 (two misread letters in eight, the next name at 0.6). A reading with
    /// under 60% of the name's letters names nothing, nor one lacking two letters of a name of up
    /// to `shortName` letters.
    public func resolveTitle(_ title: String) -> String? {
        let matches = searchNames(title, limit: 2, minimumScore: 0.5)
        guard let best = matches.first else { return nil }
        let second = matches.count > 1 ? matches[1].score : 0
        let letters = title.filter(\.isLetter).count
        // A truncated reading must still hold most of the name: the search favours containment,
        // so `Bigs` (an unreadable title's last word) scores 0.87 for Big Score.
        // A short name read short is another matter: four letters of a six-letter name, read in
        // a band of noise, are too easily a different name or none. A name of up to `shortName`
        // letters may lack one letter at most.
        let nameLetters = best.matchedText.filter(\.isLetter).count
        guard Double(letters) >= 0.6 * Double(nameLetters), nameLetters > Self.shortName || letters >= nameLetters - 1 else { return nil }
        if best.score >= 0.85, second <= best.score - 0.05 { return best.matchedText }
        // Two misread letters cost a longer reading less score, so from eight letters a 0.8 wins
        // too, given a clear lead: 0.15 from ten letters, 0.2 for eight or nine.
        // From sixteen letters (a name of three words or more) four misread letters still leave
        // 0.75, and a chance reading that long comes nowhere near a name: 0.75 wins with the
        // same 0.15 lead.
        let floor = letters >= 16 ? 0.75 : 0.8
        guard letters >= 8, best.score >= floor else { return nil }
        let lead = letters >= 10 ? 0.15 : 0.2
        return second <= best.score - lead ? best.matchedText : nil
    }
}
