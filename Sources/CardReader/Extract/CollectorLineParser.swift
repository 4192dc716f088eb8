/// Parses the small print at the bottom of a card into collector number, set size, rarity,
/// set code and language. Pure string logic, safe on any input (it is fuzzed in the tests).
///
/// Formats (field notes):
/// - 2015–2022: `171/274 C` over `BFZ • EN`;
/// - 2023+: `0171 C` (or `R 0200`) over `MOM • EN`;
/// - 2003–2014 and 1998–2003: `181/350` inside the copyright line.
/// `•` is not in Tesseract's English model and comes out as `¢ « * + .` or nothing.
public enum CollectorLineParser {
    /// What one parse found; every field optional.
    public struct Result: Sendable, Equatable {
        /// Collector number without leading zeros.
        public var number: String?
        /// The number as printed (may have leading zeros).
        public var printedNumber: String?
        /// Printed set size.
        public var setSize: Int?
        /// Rarity letter.
        public var rarity: String?
        /// Set code, lower case.
        public var setCode: String?
        /// Scryfall language code.
        public var language: String?
        /// Which frame style the lines match.
        public var era: FrameEra = .unknown
        /// The line the number came from.
        public var numberSource: String?
        /// The line the set code came from.
        public var setSource: String?

        /// Nothing found.
        public init() {}
    }

    /// Printed language codes and Scryfall's codes for them.
    public static let languages: [String: String] = [
        "EN": "en", "DE": "de", "FR": "fr", "IT": "it", "ES": "es", "SP": "es", "PT": "pt",
        "JP": "ja", "JA": "ja", "KR": "ko", "KO": "ko", "RU": "ru", "CS": "zhs", "CT": "zht", "PH": "ph",
    ]

    static let rarities: Set<Character> = ["C", "U", "R", "M", "S", "L", "T"]

    /// Parses the lines of the bottom band, top to bottom.
    public static func parse(lines: [String]) -> Result {
        var result = Result()
        for line in lines {
            if result.setCode == nil, let (set, lang) = parseSetLine(line) {
                result.setCode = set
                result.language = lang
                result.setSource = line
            }
            if result.number == nil, let n = parseNumberLine(line) {
                result.number = n.number
                result.printedNumber = n.printed
                result.setSize = n.size
                result.rarity = n.rarity
                result.numberSource = line
            }
        }
        if result.number != nil || result.setCode != nil {
            if result.setSize != nil {
                // A number with its set size and no set code is where older frames print it, in
                // the copyright line, unless it is zero-padded (`042/184`): frames from 2014 on
                // pad it to three digits beside the set code line (read or not); older frames do not.
                let padded = result.printedNumber.map { $0.count >= 3 && $0.first == "0" } ?? false
                result.era = result.setCode != nil || padded ? .modern2015 : .classic2003
            } else if result.printedNumber?.count == 4 || (result.number != nil && result.setCode != nil) {
                result.era = .modern2023
            } else if result.setCode != nil {
                result.era = .modern2015
            }
        }
        return result
    }

    // MARK: - Number line

    struct NumberLine { var number: String; var printed: String; var size: Int?; var rarity: String? }

    /// `171/274 C`, `0171 C`, `R 0200`, or a copyright line ending in `181/350`.
    static func parseNumberLine(_ raw: String) -> NumberLine? {
        let tokens = tokenize(raw)
        // 1. number/size (possibly split as "171/", "274" or "171", "/274").
        let joined = tokens.joined(separator: " ")
        if let m = firstMatch(in: joined, pattern: #"(?:^|[^A-Za-z0-9])([0-9OoIlZSB|]{1,4}) ?/ ?([0-9OoIlZSB|]{2,4})(?:$|[^0-9])"#) {
            let number = digits(m.groups[1]), size = digits(m.groups[2])
            if let number, let size, let sizeValue = Int(size), sizeValue > 0, let n = Int(number.filter(\.isNumber)), n > 0, n <= sizeValue + 120 {
                let after = joined[m.sizeEnd...].trimmingCharacters(in: .whitespaces)
                return NumberLine(number: stripZeros(number), printed: number, size: sizeValue, rarity: rarityLetter(after.first))
            }
        }
        // 2. The slash lost or read as a digit: "157 274 C", "1577 274 C" (a 2023-style number never
        //    has a set size after it, so four digits + three digits means the slash became a digit).
        for i in 0..<max(0, tokens.count - 1) {
            guard let a = digits(tokens[i]), let b = digits(tokens[i + 1]), (2...3).contains(b.count),
                  let size = Int(b), size >= 20 else { continue }
            let number = a.count == 4 && "71".contains(a.last!) ? String(a.dropLast()) : a
            guard (1...3).contains(number.count), let n = Int(number), n > 0, n <= size + 120 else { continue }
            let after = i + 2 < tokens.count ? tokens[i + 2] : ""
            let rarity = rarityLetter(after.trimmingCharacters(in: .punctuationCharacters).first)
            guard rarity != nil || i == 0 else { continue }
            return NumberLine(number: stripZeros(number), printed: number, size: size, rarity: rarity)
        }
        // 2b. The slash lost inside one token (small print: `171274C`, `1717274 C`). Frames that
        //     print `NNN/SSS` beside a set code line pad the number to three digits, so six read
        //     digits are number and size, seven the same around a slash read as `7` or `1`; an
        //     unpadded number (two digits, the slash as a digit) only when three and three make
        //     no number of its size (a padded number's zero lost as well as its slash, `017/274`
        //     read `177274`, is beyond telling). Read digits only (no letters taken for digits), with the
        //     rarity letter after them (without it a misread `271/272` came out `2737372`), never
        //     in a copyright line.
        if !isCopyrightLine(raw) {
            for (i, token) in tokens.enumerated() {
                if let line = slashLost(token, after: i + 1 < tokens.count ? tokens[i + 1] : "") { return line }
            }
        }
        // 3. 2023 style: four digits with a rarity letter before or after, or glued to them
        //    (`0107M`: the space between them lost; then the digits must be read as digits, and
        //    the letter one of the four common rarities).
        for (i, token) in tokens.enumerated() {
            if token.count == 5, let last = token.last, "CURM".contains(last), case let glued = String(token.dropLast()),
               glued.allSatisfy({ $0.isASCII && $0.isNumber }), !looksLikeYear(glued, in: joined) {
                return NumberLine(number: stripZeros(glued), printed: glued, size: nil, rarity: String(last))
            }
            guard token.count == 4, let number = digits(token), Int(number) != nil, number.filter(\.isNumber).count == 4 else { continue }
            guard !looksLikeYear(number, in: joined) else { continue }
            let before = i > 0 ? tokens[i - 1] : "", after = i + 1 < tokens.count ? tokens[i + 1] : ""
            let rarity = (after.count == 1 ? rarityLetter(after.first) : nil) ?? (before.count == 1 ? rarityLetter(before.first) : nil)
            // Without its rarity letter, four digits lead a line only as a number under 1000
            // padded with a zero (`0107`): `1990` or `2000` alone is a year or noise.
            guard rarity != nil || (i == 0 && number.hasPrefix("0")) else { continue }
            return NumberLine(number: stripZeros(number), printed: number, size: nil, rarity: rarity)
        }
        return nil
    }

    /// Case 2b of `parseNumberLine`: one token of six or seven digits, its rarity letter glued
    /// after them or the next token, read as number and set size whose slash was lost.
    private static func slashLost(_ token: String, after: String) -> NumberLine? {
        var body = Substring(token), glued: Character?
        if let last = body.last, "CURM".contains(last) {
            glued = last
            body = body.dropLast()
        }
        guard (6...7).contains(body.count), body.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let rarity = glued.map(String.init) ?? (after.count == 1 ? rarityLetter(after.first) : nil) else { return nil }
        let d = Array(body)
        func line(_ number: ArraySlice<Character>, _ size: ArraySlice<Character>) -> NumberLine? {
            guard size.first != "0", let n = Int(String(number)), let s = Int(String(size)), n > 0, s >= 20, n <= s + 120 else { return nil }
            return NumberLine(number: stripZeros(String(number)), printed: String(number), size: s, rarity: rarity)
        }
        if d.count == 7 { return "71".contains(d[3]) ? line(d[0..<3], d[4...]) : nil }
        return line(d[0..<3], d[3...]) ?? ("71".contains(d[2]) ? line(d[0..<2], d[3...]) : nil)
    }

    // MARK: - Set line

    /// Misreads of `EN` seen on the small print.
    static let languageMisreads: [String: String] = ["EM": "en", "FN": "en", "EH": "en", "FM": "en", "EW": "en"]

    /// `BFZ • EN` → ("bfz", "en"). The set code is the 2–5 letters and digits just before the
    /// language code, whatever the bullet was read as (`BFZ « EN`, `OR!I*EN`, `BFZEN`). A two-letter
    /// code is a partial read that only a set-code vocabulary can complete.
    static func parseSetLine(_ raw: String) -> (String, String)? {
        let upper = Array(raw.uppercased())
        func isAlnum(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }
        var i = 2
        while i <= upper.count {
            // A two-letter token ending at i, not glued to letters on its right.
            let pair = String(upper[(i - 2)..<i])
            let rightFree = i == upper.count || !isAlnum(upper[i])
            if rightFree, let lang = languages[pair] ?? languageMisreads[pair] {
                var prefix = Array(upper[0..<(i - 2)])
                // Code glued to the language ("BFZEN") or separated by junk ("BFZ « EN").
                while let last = prefix.last, !isAlnum(last) { prefix.removeLast() }
                let words = String(prefix).split { !isAlnum($0) }.map(String.init)
                if let code = codeCandidate(words) { return (code.lowercased(), lang) }
            }
            i += 1
        }
        return nil
    }

    /// Whether `raw` holds a set line as printed, its letters' case kept: a code of two to five
    /// capitals or digits (a letter among them), then something not a letter or digit (the
    /// bullet, however read), then a printed language code in capitals standing alone
    /// (`BFZ • EN`, `DMU « EN`). Stricter than `parseSetLine`, which also takes a code glued to its
    /// language or a line's case lost, and leaves it to the set codes known to tell noise.
    static func hasSetLineShape(_ raw: String) -> Bool { raw.contains(setLineShape) }
    nonisolated(unsafe) private static let setLineShape = try! Regex(
        "(?:^|[^A-Za-z0-9])(?=[A-Z0-9]{0,4}[A-Z])[A-Z0-9]{2,5}[^A-Za-z0-9]+(?:\(languages.keys.sorted().joined(separator: "|")))(?:$|[^A-Za-z0-9])")

    /// The set code from the words before the language: the last word when it has 2–5
    /// characters, else the last two words joined ("OR", "I" → "ORI").
    private static func codeCandidate(_ words: [String]) -> String? {
        guard let last = words.last else { return nil }
        var code = last
        if code.count < 3, words.count >= 2, (3...5).contains(words[words.count - 2].count + code.count),
           words[words.count - 2].count <= 2 {
            code = words[words.count - 2] + code
        }
        if code.count > 5 { code = String(code.suffix(5)) }
        guard (2...5).contains(code.count), code.contains(where: \.isLetter) else { return nil }
        return code
    }

    /// Set codes are mostly letters; fix digits that are usually letter misreads only where the
    /// result is still plausible. (Real codes like `M15`, `2XM` keep their digits: the catalog's
    /// nearest-set lookup makes the final call.)
    static func fixSetCode(_ code: String) -> String { code }

    // MARK: - Helpers

    private static func tokenize(_ s: String) -> [String] {
        s.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// Reads a token as digits, mapping common OCR confusions; nil if it is not number-like.
    static func digits(_ token: String) -> String? {
        let map: [Character: Character] = ["O": "0", "o": "0", "Q": "0", "D": "0", "I": "1", "l": "1", "|": "1", "i": "1",
                                           "!": "1", "Z": "2", "z": "2", "S": "5", "s": "5", "B": "8", "G": "6", "g": "9"]
        var out = ""
        var real = 0
        for c in token {
            if c.isASCII, c.isNumber { out.append(c); real += 1 } else if let d = map[c] { out.append(d) } else { return nil }
        }
        // At least one real digit, and no more than two guessed ones ("OS7" → 057).
        guard !out.isEmpty, real >= 1, out.count - real <= 2 else { return nil }
        return out
    }

    private static func stripZeros(_ n: String) -> String {
        let s = n.drop { $0 == "0" }
        return s.isEmpty ? "0" : String(s)
    }

    private static func rarityLetter(_ c: Character?) -> String? {
        guard var c else { return nil }
        // Common misreads of the rarity letter: ¢ € « for C, ™ for M, and the lower case of the
        // letters whose small and capital shapes are alike (c, u, m; not s: `001/18s M` is a 5
        // glued to the set size).
        if "¢€(«".contains(c) { c = "C" } else if c == "™" { c = "M" } else if "cum".contains(c) { c = Character(c.uppercased()) }
        guard rarities.contains(c) else { return nil }
        return String(c)
    }

    /// Whether a line read in the collector band is an older frame's copyright line
    /// (`™ & © 1993-2011 Wizards of the Coast`) rather than 2015+ collector lines.
    public static func isCopyrightLine(_ line: String) -> Bool {
        // Small print is misread (`Wigards ofthe Goast`); a lone `©` is not enough: a foil
        // stamp or a bullet is misread as one.
        let lower = line.lowercased()
        return ["wizard", "ards of", "oast", "of the co"].contains { lower.contains($0) }
            || line.contains(/(19|20)\d\d\s*-\s*(19|20)\d\d/) || line.contains(/©\s*(19|20)\d\d/)
    }

    private static func looksLikeYear(_ n: String, in line: String) -> Bool {
        guard let v = Int(n), (1993...2035).contains(v) else { return false }
        return line.contains("©") || line.contains("Wizards") || line.contains("&") || line.lowercased().contains("tm")
    }

    /// Capture groups of the first regex match (whole match first), and where group 2 ends.
    static func firstMatch(in s: String, pattern: String) -> (groups: [String], sizeEnd: String.Index)? {
        guard let regex = try? Regex(pattern), let m = try? regex.firstMatch(in: s) else { return nil }
        var groups: [String] = []
        for i in 0..<m.output.count { groups.append(m.output[i].substring.map(String.init) ?? "") }
        let end = m.output.count > 2 ? (m.output[2].range?.upperBound ?? m.range.upperBound) : m.range.upperBound
        return (groups, end)
    }
}
