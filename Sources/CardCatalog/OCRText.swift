import Foundation

/// Text normalisation for matching OCR output against card names.
///
/// `normalize` lower-cases, strips accents and punctuation and drops spaces (OCR often loses or adds
/// them); a few symbols that OCR emits for letters are mapped first (`|`/`!` → `l`, `$` → `s`, `@` → `a`).
/// `fold` additionally collapses characters OCR confuses (`rn`→`m`, `vv`→`w`, `l`/`i`/`1`→`i`,
/// `0`→`o`, `5`→`s`, `8`→`b`, `2`→`z`, `9`→`g`) so that candidates can be found by exact n-grams.
public enum OCRText {
    /// Normalised form used for edit distances: lower-case letters and digits only, no spaces.
    public static func normalize(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.unicodeScalars.count)
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        for s in folded.unicodeScalars {
            switch s {
            case "|", "!": out.append("l")
            case "$": out.append("s")
            case "@": out.append("a")
            case "æ": out.append("a"); out.append("e")
            case "œ": out.append("o"); out.append("e")
            case "ß": out.append("s"); out.append("s")
            default:
                if s.isASCII {
                    let v = s.value
                    if (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) { out.append(s) }
                    else if (0x41...0x5A).contains(v) { out.append(Unicode.Scalar(v + 32)!) }
                } else if s.properties.isAlphabetic || s.properties.numericType != nil {
                    out.append(contentsOf: String(s).lowercased().unicodeScalars)
                }
            }
        }
        return out
    }

    /// The edit distance of `read` to `word` after `normalize`, with OCR's confusions costing less
    /// than a whole edit (`l`/`i`, `rn`/`m`, a doubled letter: `WeightedEditDistance`).
    public static func distance(_ read: String, _ word: String) -> Double {
        WeightedEditDistance.distance(Array(normalize(read).prefix(WeightedEditDistance.maxCompared)),
                                      Array(normalize(word).prefix(WeightedEditDistance.maxCompared))).full
    }

    /// Confusion class of one normalised character.
    @inline(__always)
    static func foldChar(_ s: Unicode.Scalar) -> Unicode.Scalar {
        switch s {
        case "l", "1", "i", "j": return "i"
        case "0": return "o"
        case "5": return "s"
        case "8": return "b"
        case "2": return "z"
        case "9": return "g"
        default: return s
        }
    }

    /// A coarser fold that also merges look-alike letters (`c`/`e`, `a`/`o`, `h`/`n`/`b`, `u`/`v`,
    /// `f`/`t`, `q`/`g`): a second chance for candidates when the first fold finds nothing close.
    public static func coarseFold(_ normalized: [Unicode.Scalar]) -> [Unicode.Scalar] {
        fold(normalized).map { s in
            switch s {
            case "c": return "e"
            case "a": return "o"
            case "h", "b": return "n"
            case "v", "y": return "u"
            case "f": return "t"
            case "q": return "g"
            default: return s
            }
        }
    }

    /// OCR-confusion-folded form of a normalised string (for candidate keys).
    public static func fold(_ normalized: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(normalized.count)
        var i = 0
        while i < normalized.count {
            let c = normalized[i]
            if i + 1 < normalized.count {
                let d = normalized[i + 1]
                if c == "r" && d == "n" { out.append("m"); i += 2; continue }
                if c == "v" && d == "v" { out.append("w"); i += 2; continue }
            }
            out.append(foldChar(c))
            i += 1
        }
        return out
    }
}
