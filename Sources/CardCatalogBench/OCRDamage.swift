import CardCatalog

/// Seeded, reproducible OCR-style damage for card titles, used to test and benchmark fuzzy search.
///
/// Each damaged title gets one or two of: a confusion (`m`→`rn`, `rn`→`m`, `l`→`I`/`1`, `o`→`0`,
/// `e`→`c`, `w`→`vv`, ...), a dropped letter, a doubled letter, stray punctuation, a lost space, or
/// truncation of a long title (at least 60 % and 8 characters kept).
public struct OCRDamage: Sendable {
    private var state: UInt64

    /// A generator with a fixed seed (same seed → same damage).
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// Next pseudo-random number (SplitMix64).
    public mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    /// `title` with one or two random OCR-like errors. When `isAmbiguousPrefix` is given, a
    /// truncation is lengthened until the kept prefix belongs to one card name only (a title cut
    /// where several names agree cannot be identified by its name alone).
    public mutating func damage(_ title: String, isAmbiguousPrefix: ((String) -> Bool)? = nil) -> String {
        var chars = Array(title)
        let operations = 1 + below(2)
        for _ in 0..<operations { apply(&chars, isAmbiguousPrefix) }
        let result = String(chars)
        return result.isEmpty ? title : result
    }

    private static let confusions: [(String, String)] = [
        ("m", "rn"), ("rn", "m"), ("l", "I"), ("I", "l"), ("l", "1"), ("i", "l"), ("o", "0"), ("O", "0"),
        ("e", "c"), ("w", "vv"), ("h", "li"), ("d", "cl"), ("n", "ri"), ("S", "5"), ("B", "8"), ("t", "f"),
        ("c", "e"), ("u", "ii"), ("a", "o"), ("g", "q"), ("E", "F"), ("f", "t"),
    ]

    private mutating func apply(_ chars: inout [Character], _ isAmbiguousPrefix: ((String) -> Bool)?) {
        guard chars.count >= 3 else { return }
        switch below(6) {
        case 0, 1: // confusion
            let text = String(chars)
            let options = Self.confusions.filter { text.contains($0.0) }
            guard !options.isEmpty else { return apply(&chars, isAmbiguousPrefix) }
            let (from, to) = options[below(options.count)]
            let ranges = text.ranges(of: from)
            let range = ranges[below(ranges.count)]
            chars = Array(text.replacingCharacters(in: range, with: to))
        case 2: // dropped letter
            let letters = chars.indices.filter { chars[$0].isLetter }
            guard letters.count > 3 else { return }
            chars.remove(at: letters[below(letters.count)])
        case 3: // doubled letter
            let letters = chars.indices.filter { chars[$0].isLetter }
            guard !letters.isEmpty else { return }
            let i = letters[below(letters.count)]
            chars.insert(chars[i], at: i)
        case 4: // stray punctuation or a lost space
            if below(2) == 0, let space = chars.indices.filter({ chars[$0] == " " }).randomElement(using: &self) {
                chars.remove(at: space)
            } else {
                let marks: [Character] = [".", ",", "'", "`", "~", "-", ":", "‘", "|", "*"]
                let i = [0, chars.count, below(chars.count + 1)][below(3)]
                chars.insert(marks[below(marks.count)], at: i)
            }
        default: // truncation of a long title
            guard chars.count >= 12 else { return apply(&chars, isAmbiguousPrefix) }
            var keep = max(8, Int((Double(chars.count) * (0.6 + Double(below(30)) / 100)).rounded()))
            if let isAmbiguousPrefix {
                while keep < chars.count && isAmbiguousPrefix(String(chars[..<keep])) { keep += 1 }
            }
            if keep < chars.count { chars.removeLast(chars.count - keep) }
        }
    }
}

extension OCRDamage: RandomNumberGenerator {}

extension OCRDamage {
    /// A test for `damage(_:isAmbiguousPrefix:)`: true when the normalised prefix starts more than one
    /// of `names` (normalised as the fuzzy search does).
    public static func ambiguousPrefixTest(names: [String]) -> @Sendable (String) -> Bool {
        let keys = Set(names.map { String(String.UnicodeScalarView(OCRText.normalize($0))) }).sorted()
        return { prefix in
            let p = String(String.UnicodeScalarView(OCRText.normalize(prefix)))
            var lo = 0, hi = keys.count
            while lo < hi { let mid = (lo + hi) / 2; if keys[mid] < p { lo = mid + 1 } else { hi = mid } }
            var matches = 0
            var i = lo
            while i < keys.count, keys[i].hasPrefix(p) { matches += 1; if matches > 1 { return true }; i += 1 }
            return false
        }
    }
}
