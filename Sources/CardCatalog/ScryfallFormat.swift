import Foundation

// Property names are Scryfall's JSON keys, decoded by name.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The fields cardscan keeps from a Scryfall card object (bulk files, API lists).
struct ScryfallCardDTO: Decodable {
    struct Face: Decodable {
        let name: String?
        let printed_name: String?
        let colors: [String]?
        let oracle_text: String?
        let flavor_text: String?
        let artist: String?
        let printed_type_line: String?
        let printed_text: String?
    }
    struct Prices: Decodable {
        let usd: String?
        let usd_foil: String?
        let eur: String?
        let tix: String?
    }
    let object: String?
    let id: String
    let oracle_id: String?
    let name: String
    let printed_name: String?
    let lang: String?
    let set: String
    let set_name: String?
    let set_type: String?
    let collector_number: String
    let rarity: String?
    let layout: String?
    let type_line: String?
    let mana_cost: String?
    let cmc: Double?
    let colors: [String]?
    let released_at: String?
    let finishes: [String]?
    let foil: Bool?
    let nonfoil: Bool?
    let prices: Prices?
    let card_faces: [Face]?
    /// Released only in a video game (`games` is no guide: it lists where a card is *playable*,
    /// and gold-bordered or Collectors' Edition paper cards are playable nowhere).
    let digital: Bool?
    let border_color: String?
    let oracle_text: String?
    let flavor_text: String?
    let artist: String?
    let frame: String?
    let printed_type_line: String?
    let printed_text: String?

    /// Colours of all faces in WUBRG order (Scryfall puts them on the faces of double-faced cards).
    static func union(_ lists: [[String]]) -> [String] {
        let all = Set(lists.joined())
        return ["W", "U", "B", "R", "G"].filter(all.contains)
    }

    /// The printing this object describes.
    func printing() -> Printing {
        var faceNames = card_faces?.compactMap(\.name) ?? []
        if faceNames.count < 2 { faceNames = name.contains(" // ") ? name.components(separatedBy: " // ") : [] }
        var printed = printed_name
        if printed == nil, let faces = card_faces {
            let names = faces.compactMap(\.printed_name)
            if !names.isEmpty { printed = names.joined(separator: " // ") }
        }
        var finishList = finishes ?? []
        if finishes == nil {
            if nonfoil == true { finishList.append("nonfoil") }
            if foil == true { finishList.append("foil") }
        }
        var priceValue: Printing.Prices?
        if let p = prices {
            let value = Printing.Prices(usd: p.usd, usdFoil: p.usd_foil, eur: p.eur, tix: p.tix)
            priceValue = value.isEmpty ? nil : value
        }
        return Printing(
            id: id.lowercased(), oracleID: oracle_id?.lowercased(), name: name, faceNames: faceNames,
            printedName: (printed?.isEmpty ?? true) || printed == name ? nil : printed,
            language: lang ?? "en", setCode: set.lowercased(), collectorNumber: collector_number,
            rarity: rarity, layout: layout, typeLine: type_line, manaCost: mana_cost, manaValue: cmc,
            colors: colors ?? Self.union(card_faces?.compactMap(\.colors) ?? []), releasedAt: released_at, finishes: finishList, prices: priceValue,
            isPaper: digital.map { !$0 }, borderColor: border_color.flatMap(BorderColor.init(rawValue:)),
            oracleText: CardText.faces(oracle_text, card_faces?.map(\.oracle_text)),
            flavorText: CardText.faces(flavor_text, card_faces?.map(\.flavor_text)),
            artist: CardText.artists(artist, card_faces?.map(\.artist)),
            frame: frame,
            printedTypeLine: CardText.faces(printed_type_line, card_faces?.map(\.printed_type_line), separator: " // "),
            printedText: CardText.faces(printed_text, card_faces?.map(\.printed_text)))
    }
}

// Property names are Scryfall's JSON keys, decoded by name.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// A Scryfall set object (from `https://api.scryfall.com/sets`).
struct ScryfallSetDTO: Decodable {
    let code: String
    let name: String?
    let released_at: String?
    let set_type: String?
    let printed_size: Int?
    let card_count: Int?

    var cardSet: CardSet {
        CardSet(code: code.lowercased(), name: name, releasedAt: released_at, type: set_type,
                printedSize: printed_size, cardCount: card_count ?? 0)
    }
}

/// Peeks at a list element's `object` field to tell cards from sets.
struct ScryfallObjectKindDTO: Decodable {
    let object: String?
}

/// One entry of Scryfall's bulk-data index (`https://api.scryfall.com/bulk-data`).
public struct BulkDataEntry: Sendable, Codable, Hashable {
    /// `default_cards`, `all_cards`, `oracle_cards`, `unique_artwork`, `rulings`.
    public var type: String
    /// Where the file can be downloaded.
    public var downloadURI: String
    /// Size in bytes as the index states it.
    public var size: Int?
    /// When Scryfall last rebuilt the file (ISO 8601).
    public var updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case type, size
        case downloadURI = "download_uri"
        case updatedAt = "updated_at"
    }

    /// Memberwise initialiser.
    public init(type: String, downloadURI: String, size: Int?, updatedAt: String?) {
        self.type = type; self.downloadURI = downloadURI; self.size = size; self.updatedAt = updatedAt
    }
}

/// The bulk-data index document.
struct BulkDataIndexDTO: Decodable {
    let data: [BulkDataEntry]
}
