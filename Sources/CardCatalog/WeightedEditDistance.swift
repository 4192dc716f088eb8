/// An edit distance whose costs follow OCR's mistakes: confusable characters substitute cheaply
/// (`l`/`i`/`1`, `o`/`0`, `s`/`5`, `c`/`e`, ...), doubling or dropping a repeated letter is cheap,
/// and `rn`↔`m`, `vv`↔`w`, `cl`↔`d`, `ri`↔`n` count as one cheap edit.
struct WeightedEditDistance {
    static let insertDelete = 1.0
    static let repeatInsertDelete = 0.4
    static let confusable = 0.25
    static let similar = 0.6
    static let multiChar = 0.3

    /// Substitution cost of `a` by `b`.
    @inline(__always)
    static func substitution(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Double {
        if a == b { return 0 }
        if OCRText.foldChar(a) == OCRText.foldChar(b) { return confusable }
        switch (a, b) {
        case ("c", "e"), ("e", "c"), ("n", "h"), ("h", "n"), ("u", "v"), ("v", "u"), ("a", "o"), ("o", "a"),
             ("e", "o"), ("o", "e"), ("h", "b"), ("b", "h"), ("t", "f"), ("f", "t"), ("n", "m"), ("m", "n"),
             ("u", "n"), ("n", "u"), ("c", "o"), ("o", "c"), ("g", "q"), ("q", "g"), ("y", "v"), ("v", "y"),
             ("i", "t"), ("t", "i"), ("l", "t"), ("t", "l"), ("k", "x"), ("x", "k"), ("a", "e"), ("e", "a"),
             ("r", "n"), ("n", "r"), ("d", "o"), ("o", "d"), ("b", "6"), ("6", "b"), ("g", "6"), ("6", "g"),
             ("7", "t"), ("t", "7"), ("4", "a"), ("a", "4"), ("3", "e"), ("e", "3"), ("z", "s"), ("s", "z"):
            return similar
        default: return 1
        }
    }

    /// Cost of reading the two characters `a b` as the single character `c` (or the reverse); nil when unrelated.
    @inline(__always)
    static func pair(_ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar) -> Double? {
        switch (a, b, c) {
        case ("r", "n", "m"), ("v", "v", "w"), ("c", "l", "d"), ("r", "i", "n"), ("i", "i", "u"), ("l", "i", "h"),
             ("i", "n", "m"), ("n", "i", "m"), ("l", "l", "u"), ("c", "i", "d"), ("l", "n", "h"):
            return multiChar
        default: return nil
        }
    }

    /// Distance between query `q` and target `t`; also the best distance from `q` to any prefix of `t`
    /// (for truncated titles), and the length of that prefix.
    static func distance(_ q: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> (full: Double, prefix: Double, prefixLength: Int) {
        let n = q.count, m = t.count
        if n == 0 { return (Double(m), 0, 0) }
        if m == 0 { return (Double(n), Double(n), 0) }
        let width = m + 1
        var d = [Double](repeating: 0, count: (n + 1) * width)
        for j in 0...m { d[j] = j == 0 ? 0 : d[j - 1] + deleteCost(t, j - 1) }
        for i in 1...n {
            let row = i * width, prev = (i - 1) * width
            d[row] = d[prev] + deleteCost(q, i - 1)
            let qc = q[i - 1]
            for j in 1...m {
                let tc = t[j - 1]
                var best = d[prev + j - 1] + substitution(qc, tc)
                best = min(best, d[prev + j] + deleteCost(q, i - 1))
                best = min(best, d[row + j - 1] + deleteCost(t, j - 1))
                if i >= 2, let c = pair(q[i - 2], qc, tc) { best = min(best, d[(i - 2) * width + j - 1] + c) }
                if j >= 2, let c = pair(t[j - 2], tc, qc) { best = min(best, d[prev + j - 2] + c) }
                d[row + j] = best
            }
        }
        let last = n * width
        var prefix = d[last + m], prefixLength = m
        for j in 1...m where d[last + j] < prefix { prefix = d[last + j]; prefixLength = j }
        return (d[last + m], prefix, prefixLength)
    }

    /// Inserting or deleting `s[i]` is cheap when it repeats a neighbour (a doubled or dropped double letter).
    @inline(__always)
    static func deleteCost(_ s: [Unicode.Scalar], _ i: Int) -> Double {
        if i > 0 && s[i - 1] == s[i] { return repeatInsertDelete }
        if i + 1 < s.count && s[i + 1] == s[i] { return repeatInsertDelete }
        return insertDelete
    }

    /// The most characters of a query or a name compared. The longest card name has 141; the
    /// distance table takes (query + 1) x (name + 1) entries, so a 100,000-character query against
    /// a long name once asked for 80 GB. Characters past the bound do not change the score.
    static let maxCompared = 256

    /// Similarity in 0…1 of a query to a name, allowing the query to be a truncated title.
    static func similarity(_ q: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> Double {
        guard !q.isEmpty, !t.isEmpty else { return 0 }
        if q.count > maxCompared || t.count > maxCompared {
            return similarity(Array(q.prefix(maxCompared)), Array(t.prefix(maxCompared)))
        }
        let r = distance(q, t)
        let full = max(0, 1 - r.full / Double(max(q.count, t.count)))
        var truncated = 0.0
        if q.count >= 4 && q.count < t.count && r.prefixLength < t.count {
            // A truncated read: judge the part that was read, discounted by how much is missing.
            let coverage = Double(r.prefixLength) / Double(t.count)
            truncated = max(0, 1 - r.prefix / Double(q.count)) * (0.75 + 0.24 * coverage)
        }
        return min(1, max(full, truncated))
    }
}
