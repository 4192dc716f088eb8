import Foundation

/// How read values are compared with labels.
///
/// - Titles: case- and accent-insensitive (`Ertränker` = `Ertranker`: the English model has no
///   umlauts), whitespace collapsed, curly apostrophes/quotes made straight; for a
///   `Front // Back` label the front face counts (the full name is accepted too).
/// - Set codes: case-insensitive.
/// - Collector numbers: case-insensitive, without leading zeros (`0171` = `171`).
public enum FieldComparison {
    /// Lower-cased text without accents, with straight apostrophes and single spaces.
    public static func normalizeText(_ s: String) -> String {
        let folded = s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .replacingOccurrences(of: "\u{2019}", with: "'")
            .replacingOccurrences(of: "\u{2018}", with: "'")
            .replacingOccurrences(of: "\u{201C}", with: "\"")
            .replacingOccurrences(of: "\u{201D}", with: "\"")
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The front face of a `Front // Back` name (the name itself otherwise).
    public static func frontFace(_ name: String) -> String {
        guard let range = name.range(of: "//") else { return name }
        return String(name[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
    }

    /// True when a read title equals the label's card name (front face or full name).
    public static func titleMatches(_ read: String?, name: String) -> Bool {
        guard let read, !name.isEmpty else { return false }
        let r = normalizeText(read)
        return !r.isEmpty && (r == normalizeText(frontFace(name)) || r == normalizeText(name))
    }

    /// True when an identified card name (`Front // Back` for double-faced cards) is the label's
    /// card: the same comparison as `titleMatches`, also accepting the card's front face.
    public static func cardNameMatches(_ card: String?, name: String) -> Bool {
        guard let card else { return false }
        return titleMatches(card, name: name) || titleMatches(frontFace(card), name: name)
    }

    /// Set codes compared case-insensitively.
    public static func setMatches(_ read: String?, label: String) -> Bool {
        guard let read, !label.isEmpty else { return false }
        return read.trimmingCharacters(in: .whitespaces).lowercased() == label.lowercased()
    }

    /// A collector number without leading zeros, lower-cased (`0012a` → `12a`, `000` → `0`).
    public static func normalizeNumber(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        let stripped = t.drop(while: { $0 == "0" })
        if stripped.isEmpty { return t.isEmpty ? "" : "0" }
        return String(stripped)
    }

    /// Collector numbers compared without leading zeros.
    public static func numberMatches(_ read: String?, label: String) -> Bool {
        guard let read, !label.isEmpty else { return false }
        let r = normalizeNumber(read)
        return !r.isEmpty && r == normalizeNumber(label)
    }

    /// True when `text` (e.g. the tesseract CLI's output for a whole photo) contains the card's
    /// front-face name, case-insensitively, ignoring line breaks and repeated spaces.
    public static func textContainsTitle(_ text: String, name: String) -> Bool {
        guard !name.isEmpty else { return false }
        let needle = normalizeText(frontFace(name))
        return !needle.isEmpty && normalizeText(text).contains(needle)
    }
}
