import Foundation

/// The words each service writes for conditions, languages and finishes, mapped to cardscan's one
/// internal form (`Condition`, Scryfall language codes, `Finish` + `FoilKind`). Reading matches
/// case-insensitively; a word the service's table does not hold is an error for that row (never
/// stored raw). An empty cell means the service's default (Near Mint, English, non-foil).
/// Sources: `../shared/interop/FORMATS.md` (the real exports) and Deckbox's condition page.
enum Vocabulary {
    /// Condition words per format, best first. The first word for a condition is the one written.
    static func conditions(_ format: CollectionFormat) -> [(Condition, String)] {
        switch format {
        case .moxfield:
            // "Lightly Played"/"Moderately Played" are what cardscan wrote before it matched Moxfield.
            return [(.mint, "Mint"), (.nm, "Near Mint"), (.lp, "Good (Lightly Played)"), (.mp, "Played"), (.hp, "Heavily Played"),
                    (.dmg, "Damaged"), (.lp, "Lightly Played"), (.mp, "Moderately Played")]
        case .deckbox:
            return [(.mint, "Mint"), (.nm, "Near Mint"), (.lp, "Good (Lightly Played)"), (.mp, "Played"), (.hp, "Heavily Played"),
                    (.dmg, "Poor")]
        case .manabox:
            // The European scale: good is better than light_played.
            return [(.mint, "mint"), (.nm, "near_mint"), (.ex, "excellent"), (.lp, "good"), (.mp, "light_played"), (.hp, "played"),
                    (.dmg, "poor")]
        case .dragonshield, .sorted:
            return [(.mint, "Mint"), (.nm, "NearMint"), (.ex, "Excellent"), (.lp, "Good"), (.mp, "LightPlayed"), (.hp, "Played"),
                    (.dmg, "Poor"), (.mp, "LightlyPlayed")]
        case .archidekt:
            return [(.nm, "NM"), (.lp, "LP"), (.mp, "MP"), (.hp, "HP"), (.dmg, "D")]
        case .tcgplayer:
            return [(.nm, "Near Mint"), (.lp, "Lightly Played"), (.mp, "Moderately Played"), (.hp, "Heavily Played"), (.dmg, "Damaged")]
        case .delverlens:
            return [(.nm, "Near Mint"), (.lp, "Slightly Played"), (.mp, "Moderately Played"), (.hp, "Heavily Played"), (.dmg, "Damaged")]
        case .json, .arena:
            return Condition.allCases.map { ($0, $0.rawValue) }
        }
    }

    /// The word `format` writes for `condition`: the service's own, else the next worse grade it
    /// has (Mint → Near Mint, Excellent → Lightly Played on a scale without them).
    static func conditionText(_ condition: Condition, _ format: CollectionFormat) -> String {
        let table = conditions(format)
        let all = Condition.allCases
        var i = all.firstIndex(of: condition)!
        while i < all.count {
            if let word = table.first(where: { $0.0 == all[i] })?.1 { return word }
            i += 1
        }
        return table.last!.1
    }

    /// The tables, built once (a 100,000-row import looks a word up per row and column).
    static let conditionTables = Dictionary(uniqueKeysWithValues: CollectionFormat.allCases.map { ($0, conditions($0)) })
    static let languageTables = Dictionary(uniqueKeysWithValues: CollectionFormat.allCases.map { ($0, languages($0)) })

    /// Lower-cased word → value, per format (reading is case-insensitive).
    static let conditionWords = conditionTables.mapValues { Dictionary($0.map { ($0.1.lowercased(), $0.0) }, uniquingKeysWith: { a, _ in a }) }
    static let languageWords = languageTables.mapValues { Dictionary($0.map { ($0.1.lowercased(), $0.0) }, uniquingKeysWith: { a, _ in a }) }

    static func condition(_ text: String, _ format: CollectionFormat) -> Condition? {
        if text.isEmpty { return .nm }
        return conditionWords[format]![text.lowercased()]
    }

    /// Scryfall language codes and the full English names most services write.
    static let languageNames: [(String, String)] = [
        ("en", "English"), ("de", "German"), ("fr", "French"), ("es", "Spanish"), ("it", "Italian"), ("pt", "Portuguese"),
        ("ja", "Japanese"), ("ko", "Korean"), ("ru", "Russian"), ("ph", "Phyrexian"), ("he", "Hebrew"), ("la", "Latin"),
        ("grc", "Ancient Greek"), ("ar", "Arabic"), ("sa", "Sanskrit"), ("qya", "Quenya"),
    ]

    /// Language words per format; the first word for a code is the one written.
    static func languages(_ format: CollectionFormat) -> [(String, String)] {
        switch format {
        case .moxfield, .deckbox:
            return languageNames + [("zhs", "Chinese"), ("zht", "Traditional Chinese"), ("zhs", "Simplified Chinese"),
                                    ("zhs", "Chinese Simplified"), ("zht", "Chinese Traditional")]
        case .dragonshield:
            return languageNames + [("zhs", "Simplified Chinese"), ("zht", "Traditional Chinese")]
        case .tcgplayer:
            return languageNames + [("zhs", "Chinese (S)"), ("zht", "Chinese (T)")]
        case .delverlens:
            return languageNames + [("zhs", "Chinese Simplified"), ("zht", "Chinese Traditional"), ("zhs", "Chinese"),
                                    ("zhs", "Simplified Chinese"), ("zht", "Traditional Chinese")]
        case .manabox:
            return ["en", "de", "fr", "es", "it", "pt", "ja", "ko", "ru"].map { ($0, $0) } + [("zhs", "zh_CN"), ("zht", "zh_TW")]
        case .archidekt:
            return [("en", "EN"), ("de", "DE"), ("fr", "FR"), ("it", "IT"), ("es", "ES"), ("pt", "PT"), ("ru", "RU"), ("ja", "JP"),
                    ("ko", "KR"), ("zhs", "CS"), ("zht", "CT")]
        case .sorted:
            return [("en", "en"), ("de", "de"), ("fr", "fr"), ("es", "es"), ("it", "it"), ("pt", "pt"), ("ru", "ru"), ("ko", "ko"),
                    ("ja", "jp"), ("zhs", "cn"), ("zht", "tw")]
        case .json, .arena:
            return (languageNames.map(\.0) + ["zhs", "zht"]).map { ($0, $0) }
        }
    }

    /// The word `format` writes for a language code; nil when the service has none for it.
    static func languageText(_ code: String, _ format: CollectionFormat) -> String? {
        languages(format).first { $0.0 == code }?.1
    }

    static func language(_ text: String, _ format: CollectionFormat) -> String? {
        if text.isEmpty { return "en" }
        return languageWords[format]![text.lowercased()]
    }

    /// Finish words (Foil / Printing / Finish columns, any service): non-foil, foil, etched, or a
    /// named foil. nil for a word none of them writes.
    static func finish(_ text: String) -> (Finish, FoilKind?)? {
        switch text.lowercased() {
        case "", "normal", "nonfoil", "non-foil", "false", "no": return (.nonfoil, nil)
        case "foil", "true", "yes": return (.foil, nil)
        case "etched", "foil etched", "etched foil": return (.etched, nil)
        default:
            return FoilKind.allCases.first { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }.map { (.foil, $0) }
        }
    }

    /// `true`/`false` in any case, blank for false.
    static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "", "false", "0", "no": return false
        case "true", "1", "yes": return true
        default: return nil
        }
    }

    /// Currency symbols written before prices.
    static let currencySymbols: [(String, String)] = [("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("R$", "BRL")]

    /// A price cell (`12.0`, `$35.43`, `€ 1,77`) as a plain decimal and the currency its symbol names.
    static func price(_ text: String) -> (value: String, currency: String?)? {
        var t = text.trimmedSpaces
        var currency: String?
        for (symbol, code) in currencySymbols.sorted(by: { $0.0.count > $1.0.count }) where t.hasPrefix(symbol) {
            currency = code
            t = String(t.dropFirst(symbol.count)).trimmedSpaces
            break
        }
        if !t.contains("."), let comma = t.firstIndex(of: ","), t[t.index(after: comma)...].count <= 2 {
            t.replaceSubrange(comma...comma, with: ".")
        }
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard !t.isEmpty, parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
        return (t, currency)
    }
}
