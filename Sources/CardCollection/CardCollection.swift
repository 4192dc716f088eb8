// CardCollection: the user's collection, pools, review queue and CSV formats.
//
// User data lives in its own SQLite file (never the catalog): see `CollectionStore`.
// An entry copies the printing's Scryfall id, name, set, number and language, so a catalog
// update can never orphan it.
import Foundation

/// Card finish.
public enum Finish: String, Sendable, Codable, CaseIterable {
    case nonfoil, foil, etched
}

/// Card condition: the US (TCGplayer) scale NM LP MP HP DMG, plus Mint and Excellent, which the
/// European scale (ManaBox, Dragon Shield, Cardmarket) and Moxfield/Deckbox grade separately.
/// Best first. Each service's words map onto these seven (see `Vocabulary`).
public enum Condition: String, Sendable, Codable, CaseIterable {
    case mint = "M", nm = "NM", ex = "EX", lp = "LP", mp = "MP", hp = "HP", dmg = "DMG"

    /// Parses `NM`, `near mint`, `near_mint`, `lightly played`, `EX`, `d`, … (case-insensitive).
    public init?(loose text: String) {
        let key = text.lowercased().filter { $0.isLetter }
        switch key {
        case "m", "mint": self = .mint
        case "nm", "nearmint": self = .nm
        case "ex", "excellent": self = .ex
        case "lp", "lightlyplayed", "sp", "slightlyplayed": self = .lp
        case "mp", "moderatelyplayed", "played", "pl": self = .mp
        case "hp", "heavilyplayed", "heavyplayed": self = .hp
        case "dmg", "d", "damaged", "po", "poor": self = .dmg
        default: return nil
        }
    }
}

/// Where a row sits in the app it came from: a binder (folder), a deck, or a list of cards
/// wanted (ManaBox `Binder Type` = `list`): list rows are not owned.
public enum BinderType: String, Sendable, Codable, CaseIterable {
    case binder, deck, list
}

/// What other apps record about a row beyond the printing, finish, condition and language: kept
/// on import and written back where the target format has a column for it.
public struct CardDetails: Sendable, Codable, Equatable, Hashable {
    /// Copies offered for trade (Moxfield/Deckbox `Tradelist Count`, Dragon Shield `Trade Quantity`).
    public var tradeQuantity: Int
    public var proxy: Bool
    public var altered: Bool
    public var signed: Bool
    public var misprint: Bool
    /// ISO 4217 code of the purchase price, when the file says (ManaBox's column, `$`, `€`).
    public var currency: String?
    /// Binder, folder, deck or list name in the source app ("" = none).
    public var binder: String
    public var binderType: BinderType
    /// The set name the file gave (used when the catalog does not know the set).
    public var setName: String?
    /// A named foil treatment (Dragon Shield `Surge Foil`, Sorted `Mana Foil`…), normalised.
    public var foilKind: FoilKind?
    /// Free text the file gave about the row (Deckbox `Printing Note`, ManaBox's Moxfield-format `Notes`).
    public var note: String?

    public init(tradeQuantity: Int = 0, proxy: Bool = false, altered: Bool = false, signed: Bool = false, misprint: Bool = false,
                currency: String? = nil, binder: String = "", binderType: BinderType = .binder, setName: String? = nil,
                foilKind: FoilKind? = nil, note: String? = nil) {
        self.tradeQuantity = tradeQuantity; self.proxy = proxy; self.altered = altered; self.signed = signed
        self.misprint = misprint; self.currency = currency; self.binder = binder; self.binderType = binderType
        self.setName = setName; self.foilKind = foilKind; self.note = note
    }

    /// Not owned: a wish list row.
    public var wanted: Bool { binderType == .list }

    enum CodingKeys: String, CodingKey {
        case tradeQuantity = "trade_quantity", proxy, altered, signed, misprint, currency, binder, binderType = "binder_type",
             setName = "set_name", foilKind = "foil_kind", note
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(tradeQuantity: try c.decodeIfPresent(Int.self, forKey: .tradeQuantity) ?? 0,
                  proxy: try c.decodeIfPresent(Bool.self, forKey: .proxy) ?? false,
                  altered: try c.decodeIfPresent(Bool.self, forKey: .altered) ?? false,
                  signed: try c.decodeIfPresent(Bool.self, forKey: .signed) ?? false,
                  misprint: try c.decodeIfPresent(Bool.self, forKey: .misprint) ?? false,
                  currency: try c.decodeIfPresent(String.self, forKey: .currency),
                  binder: try c.decodeIfPresent(String.self, forKey: .binder) ?? "",
                  binderType: try c.decodeIfPresent(BinderType.self, forKey: .binderType) ?? .binder,
                  setName: try c.decodeIfPresent(String.self, forKey: .setName),
                  foilKind: try c.decodeIfPresent(FoilKind.self, forKey: .foilKind),
                  note: try c.decodeIfPresent(String.self, forKey: .note))
    }
}

/// Named foil treatments (Dragon Shield and Sorted `Printing` values beyond Normal/Foil/Etched).
public enum FoilKind: String, Sendable, Codable, CaseIterable {
    case rainbow = "Rainbow Foil", doubleRainbow = "Double Rainbow Foil", gilded = "Gilded Foil", surge = "Surge Foil",
         textured = "Textured Foil", silver = "Silver Foil", oilslick = "Oilslick Foil", ripple = "Ripple Foil",
         invisibleInk = "Invisible Ink Foil", neonInk = "Neon Ink Foil", galaxy = "Galaxy Foil", firstPlace = "First-place Foil",
         stepAndCompleat = "Step and Compleat Foil", mana = "Mana Foil", ampersand = "Ampersand Foil", halo = "Halo Foil"
}

/// One row of the collection: some copies of one printing, in one finish, condition and language,
/// in the main collection (`pool == ""`) or a named pool.
public struct Entry: Sendable, Codable, Equatable {
    public var id: Int64?
    /// Scryfall id of the printing ("" when an imported CSV row could not be resolved).
    public var scryfallID: String
    public var name: String
    public var setCode: String
    public var collectorNumber: String
    /// Language of the physical card (Scryfall code: en, ja, de, …).
    public var language: String
    public var rarity: String?
    /// Copies, 1 to ``Entry.maxQuantity`` (the store refuses anything else).
    public var quantity: Int
    public var finish: Finish
    public var condition: Condition
    /// "" for the main collection, else the pool name.
    public var pool: String
    /// Sorted, de-duplicated tags.
    public var tags: [String]
    public var addedAt: Date
    public var sourcePath: String?
    public var sourceHash: String?
    public var batchID: Int64?
    public var purchasePrice: String?
    public var details: CardDetails
    /// Where the card lies in its source photo (``CardPlace/text``); nil unless imported from a photo.
    public var quad: String? = nil

    public init(id: Int64? = nil, scryfallID: String, name: String, setCode: String, collectorNumber: String,
                language: String = "en", rarity: String? = nil, quantity: Int = 1, finish: Finish = .nonfoil,
                condition: Condition = .nm, pool: String = "", tags: [String] = [], addedAt: Date = Date(),
                sourcePath: String? = nil, sourceHash: String? = nil, batchID: Int64? = nil, purchasePrice: String? = nil,
                details: CardDetails = CardDetails()) {
        self.details = details
        self.id = id; self.scryfallID = scryfallID; self.name = name; self.setCode = setCode.lowercased()
        self.collectorNumber = collectorNumber; self.language = language; self.rarity = rarity
        self.quantity = quantity; self.finish = finish; self.condition = condition; self.pool = pool
        self.tags = Entry.normalizedTags(tags); self.addedAt = Dates.date(milliseconds: Dates.milliseconds(addedAt)); self.sourcePath = sourcePath
        self.sourceHash = sourceHash; self.batchID = batchID; self.purchasePrice = purchasePrice
    }

    enum CodingKeys: String, CodingKey {
        case id, scryfallID = "scryfall_id", name, setCode = "set_code", collectorNumber = "collector_number", language, rarity,
             quantity, finish, condition, pool, tags, addedAt = "added_at", sourcePath = "source_path", sourceHash = "source_hash",
             batchID = "batch_id", purchasePrice = "purchase_price", details
    }

    /// The language codes a card may be recorded in (Scryfall's).
    public static let languageCodes: Set<String> = ["en", "es", "fr", "de", "it", "pt", "ja", "ko", "ru", "zhs", "zht", "he", "la", "grc", "ar", "sa", "ph"]

    /// The most copies one row may hold. A bound far above any real collection and far below
    /// `Int.max`, so no sum of quantities (a row merged by `add`, a total, a pool summary) can
    /// overflow: a quantity of 9223372036854775807 once trapped every later reader.
    public static let maxQuantity = 1_000_000

    static func normalizedTags(_ tags: [String]) -> [String] {
        Array(Set(tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })).sorted()
    }
}

/// Rows of the collection merged for display and export: one per printing, finish, condition,
/// language, pool and tag set.
public struct Holding: Sendable, Codable, Equatable {
    public var scryfallID: String
    public var name: String
    public var setCode: String
    public var collectorNumber: String
    public var language: String
    public var rarity: String?
    public var quantity: Int
    public var finish: Finish
    public var condition: Condition
    public var pool: String
    public var tags: [String]
    /// Earliest `addedAt` of the merged entries.
    public var addedAt: Date
    public var purchasePrice: String?
    public var details: CardDetails

    public init(scryfallID: String, name: String, setCode: String, collectorNumber: String, language: String,
                rarity: String?, quantity: Int, finish: Finish, condition: Condition, pool: String, tags: [String],
                addedAt: Date, purchasePrice: String? = nil, details: CardDetails = CardDetails()) {
        self.details = details
        self.scryfallID = scryfallID; self.name = name; self.setCode = setCode.lowercased(); self.collectorNumber = collectorNumber
        self.language = language; self.rarity = rarity; self.quantity = quantity; self.finish = finish
        self.condition = condition; self.pool = pool; self.tags = Entry.normalizedTags(tags); self.addedAt = Dates.date(milliseconds: Dates.milliseconds(addedAt))
        self.purchasePrice = purchasePrice
    }

    enum CodingKeys: String, CodingKey {
        case scryfallID = "scryfall_id", name, setCode = "set_code", collectorNumber = "collector_number", language, rarity,
             quantity, finish, condition, pool, tags, addedAt = "added_at", purchasePrice = "purchase_price", details
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(scryfallID: try c.decode(String.self, forKey: .scryfallID), name: try c.decode(String.self, forKey: .name),
                  setCode: try c.decode(String.self, forKey: .setCode), collectorNumber: try c.decode(String.self, forKey: .collectorNumber),
                  language: try c.decode(String.self, forKey: .language), rarity: try c.decodeIfPresent(String.self, forKey: .rarity),
                  quantity: try c.decode(Int.self, forKey: .quantity), finish: try c.decode(Finish.self, forKey: .finish),
                  condition: try c.decode(Condition.self, forKey: .condition), pool: try c.decodeIfPresent(String.self, forKey: .pool) ?? "",
                  tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [], addedAt: try c.decode(Date.self, forKey: .addedAt),
                  purchasePrice: try c.decodeIfPresent(String.self, forKey: .purchasePrice),
                  details: try c.decodeIfPresent(CardDetails.self, forKey: .details) ?? CardDetails())
    }

    /// The entry this holding becomes when imported.
    public func entry(batchID: Int64?) -> Entry {
        Entry(scryfallID: scryfallID, name: name, setCode: setCode, collectorNumber: collectorNumber, language: language,
              rarity: rarity, quantity: quantity, finish: finish, condition: condition, pool: pool, tags: tags,
              addedAt: addedAt, batchID: batchID, purchasePrice: purchasePrice, details: details)
    }
}

/// One card found on an imported photo: identified (an entry to add) or sent to review.
public enum PhotoCard: Sendable {
    /// The printing is known: add this entry.
    case identified(Entry)
    /// Ambiguous or unidentified: queue it for the user.
    case review(ReviewSubmission)
}

/// What a review item is created from: what was read and what it might be.
public struct ReviewSubmission: Sendable {
    /// `ambiguous` or `unidentified`.
    public var matchStatus: String
    /// Ranked printings it might be (empty when nothing fits).
    public var candidates: [ReviewCandidate]
    /// The fields as read.
    public var readTitle: String?, readSet: String?, readNumber: String?
    /// Where the card goes once accepted, and how.
    public var pool: String
    public var finish: Finish
    public var condition: Condition
    public var language: String?
    /// Where the card lies in the photo (``CardPlace/text``), when the reader found it.
    public var quad: String?

    /// Creates one.
    public init(matchStatus: String, candidates: [ReviewCandidate], readTitle: String?, readSet: String?, readNumber: String?,
                pool: String, finish: Finish, condition: Condition, language: String?, quad: String? = nil) {
        self.quad = quad
        self.matchStatus = matchStatus; self.candidates = candidates
        self.readTitle = readTitle; self.readSet = readSet; self.readNumber = readNumber
        self.pool = pool; self.finish = finish; self.condition = condition; self.language = language
    }
}

/// A candidate printing stored with a review item.
public struct ReviewCandidate: Sendable, Codable, Equatable {
    public var id: String
    public var name: String
    public var set: String
    public var collectorNumber: String
    public var language: String
    public var rarity: String?
    public var score: Double

    public init(id: String, name: String, set: String, collectorNumber: String, language: String, rarity: String?, score: Double) {
        self.id = id; self.name = name; self.set = set; self.collectorNumber = collectorNumber
        self.language = language; self.rarity = rarity; self.score = score
    }

    enum CodingKeys: String, CodingKey {
        case id, name, set, collectorNumber = "collector_number", language = "lang", rarity, score
    }
}

/// A scanned photo the matcher could not settle (ambiguous or unidentified), waiting for the user.
public struct ReviewItem: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable { case pending, accepted, rejected }
    public var id: Int64
    public var batchID: Int64?
    public var sourcePath: String
    public var sourceHash: String
    /// `ambiguous` or `unidentified`.
    public var matchStatus: String
    public var state: State
    public var candidates: [ReviewCandidate]
    /// What the OCR read: title, set code, collector number.
    public var readTitle: String?
    public var readSet: String?
    public var readNumber: String?
    /// Options of the import, applied when the item is accepted.
    public var pool: String
    public var finish: Finish
    public var condition: Condition
    public var language: String?
    public var createdAt: Date
    public var entryID: Int64?
    /// Where the card lies in the photo (``CardPlace/text``), when the reader found it.
    public var quad: String?
}

/// Where a card lies in its photo: the photo's size and the card's corners (top-left, top-right,
/// bottom-right, bottom-left of the upright card, in pixels of the EXIF-oriented photo), stored
/// as one line of ten numbers so the collection needs no reader types.
public struct CardPlace: Sendable, Equatable {
    public var width: Int, height: Int
    public var corners: [(x: Double, y: Double)]

    public init(width: Int, height: Int, corners: [(x: Double, y: Double)]) {
        self.width = width; self.height = height; self.corners = corners
    }

    /// Parses `text`; nil when it is not ten numbers.
    public init?(text: String) {
        let n = text.split(separator: " ").compactMap { Double($0) }
        guard n.count == 10, n[0] > 0, n[1] > 0 else { return nil }
        width = Int(n[0]); height = Int(n[1])
        corners = (0..<4).map { (x: n[2 + 2 * $0], y: n[3 + 2 * $0]) }
    }

    /// "W H x0 y0 x1 y1 x2 y2 x3 y3".
    public var text: String {
        (["\(width)", "\(height)"] + corners.flatMap { [String(format: "%.1f", $0.x), String(format: "%.1f", $0.y)] }).joined(separator: " ")
    }

    public static func == (a: CardPlace, b: CardPlace) -> Bool { a.text == b.text }
}

/// One import (photos or CSV), the unit of `undo`.
public struct Batch: Sendable, Codable, Equatable {
    public var id: Int64
    /// `photos` or `csv`.
    public var kind: String
    public var description: String
    public var startedAt: Date
    public var finishedAt: Date?
}

/// What `undo` removed.
public struct UndoReport: Sendable, Codable, Equatable {
    public var batch: Batch
    public var entriesRemoved: Int
    public var cardsRemoved: Int
    public var reviewItemsRemoved: Int
    public var photosForgotten: Int
}

/// Errors of the collection. Descriptions are one line and name the file or entry.
public enum CollectionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file exists but is not an SQLite database (or is damaged).
    case corrupt(path: String, reason: String)
    /// The file is an SQLite database of something else.
    case foreign(path: String, reason: String)
    /// Written by a newer cardscan.
    case tooNew(path: String)
    case unreadable(path: String, reason: String)
    case notFound(String)
    case invalid(String)

    public var description: String {
        switch self {
        case let .corrupt(path, reason): return "\(path): not a usable cardscan collection (\(reason)); the file was left untouched"
        case let .foreign(path, reason): return "\(path): not a cardscan collection (\(reason)); refusing to modify it"
        case let .tooNew(path): return "\(path): this collection was written by a newer cardscan; upgrade cardscan to use it"
        case let .unreadable(path, reason): return "\(path): cannot read: \(reason)"
        case let .notFound(message): return message
        case let .invalid(message): return message
        }
    }
}
