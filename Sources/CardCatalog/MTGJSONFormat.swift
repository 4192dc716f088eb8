import Foundation

/// The fields cardscan keeps from an MTGJSON (v5) card record.
struct MTGJSONCardDTO: Decodable {
    struct Identifiers: Decodable {
        let scryfallId: String?
        let scryfallOracleId: String?
    }
    let name: String
    let faceName: String?
    let side: String?
    let setCode: String
    let number: String
    let language: String?
    let identifiers: Identifiers?
    let rarity: String?
    let layout: String?
    let type: String?
    let manaCost: String?
    let manaValue: Double?
    let convertedManaCost: Double?
    let colors: [String]?
    let finishes: [String]?
    let hasFoil: Bool?
    let hasNonFoil: Bool?
    let printedName: String?
    /// Where the card was released (`paper`, `mtgo`, `arena`, ...).
    let availability: [String]?
    let borderColor: String?
    let text: String?
    let flavorText: String?
    let artist: String?
    let frameVersion: String?
    /// The text and type line as printed on the card (older cards' wording differs from Oracle's).
    let originalText: String?
    let originalType: String?
    /// The card as printed in other languages (per-set and full AllPrintings files; not in slim ones).
    let foreignData: [Foreign]?

    /// One `foreignData` entry: the printed name, type line, text and flavor in another language.
    struct Foreign: Decodable {
        let language: String?
        let name: String?
        let faceName: String?
        let type: String?
        let text: String?
        let flavorText: String?
    }

    /// True for the second and later faces of a multi-face card (MTGJSON gives one record per face,
    /// all with the same Scryfall id).
    var isLaterFace: Bool { side.map { $0 != "a" } ?? false }

    /// The printing this record describes, or nil when it has no Scryfall id to key it by.
    func printing(setReleaseDate: String?) -> Printing? {
        guard let scryfallID = identifiers?.scryfallId, !scryfallID.isEmpty else { return nil }
        var cardName = name
        var faces = name.contains(" // ") ? name.components(separatedBy: " // ") : []
        if layout == "meld", let faceName {
            // Scryfall names each meld part by its own face; MTGJSON joins front and back.
            cardName = faceName
            faces = []
        }
        var finishList = finishes ?? []
        if finishes == nil {
            if hasNonFoil == true { finishList.append("nonfoil") }
            if hasFoil == true { finishList.append("foil") }
        }
        let lang = MTGJSONLanguage.code(for: language)
        return Printing(
            id: scryfallID.lowercased(), oracleID: identifiers?.scryfallOracleId?.lowercased(),
            name: cardName, faceNames: faces,
            printedName: lang == "en" ? nil : printedName,
            language: lang, setCode: MTGJSONSetCode.scryfall(setCode), collectorNumber: number,
            rarity: rarity, layout: layout, typeLine: type, manaCost: manaCost,
            manaValue: manaValue ?? convertedManaCost, colors: colors ?? [], releasedAt: setReleaseDate,
            finishes: finishList, prices: nil, isPaper: availability.map { $0.contains("paper") },
            borderColor: borderColor.flatMap(BorderColor.init(rawValue:)),
            oracleText: nonEmpty(text), flavorText: nonEmpty(flavorText), artist: nonEmpty(artist), frame: frameVersion,
            printedTypeLine: nonEmpty(originalType), printedText: nonEmpty(originalText))
    }

    private func nonEmpty(_ s: String?) -> String? { (s?.isEmpty ?? true) ? nil : s }
}

/// MTGJSON set codes are upper case; a few differ from Scryfall's (`CON_` → `con`, `PW09` → `pwp09`).
enum MTGJSONSetCode {
    static func scryfall(_ code: String) -> String {
        var c = code.lowercased()
        while c.hasSuffix("_") { c.removeLast() }
        if c.count == 4, c.hasPrefix("pw"), c.dropFirst(2).allSatisfy(\.isNumber) { return "pwp" + c.dropFirst(2) }
        return c
    }
}

/// MTGJSON spells languages out; Scryfall uses short codes.
enum MTGJSONLanguage {
    static func code(for language: String?) -> String {
        guard let language else { return "en" }
        switch language {
        case "English": return "en"
        case "Spanish": return "es"
        case "French": return "fr"
        case "German": return "de"
        case "Italian": return "it"
        case "Portuguese", "Portuguese (Brazil)": return "pt"
        case "Japanese": return "ja"
        case "Korean": return "ko"
        case "Russian": return "ru"
        case "Chinese Simplified": return "zhs"
        case "Chinese Traditional": return "zht"
        case "Hebrew": return "he"
        case "Latin": return "la"
        case "Ancient Greek": return "grc"
        case "Arabic": return "ar"
        case "Sanskrit": return "sa"
        case "Phyrexian": return "ph"
        default: return language.lowercased()
        }
    }
}

/// MTGJSON's `meta` object.
struct MTGJSONMetaDTO: Decodable {
    let date: String?
    let version: String?
}
