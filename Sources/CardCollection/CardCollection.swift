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

/// Card condition, on the US (TCGplayer) scale.
public enum Condition: String, Sendable, Codable, CaseIterable {
    case nm = "NM", lp = "LP", mp = "MP", hp = "HP", dmg = "DMG"

    /// Parses `NM`, `near mint`, `near_mint`, `lightly played`, `d`, … (case-insensitive).
    public init?(loose text: String) {
        let key = text.lowercased().filter { $0.isLetter }
        switch key {
        case "nm", "nearmint", "m", "mint": self = .nm
        case "lp", "lightlyplayed", "lightplayed", "sp", "slightlyplayed", "ex", "excellent": self = .lp
        case "mp", "moderatelyplayed", "played", "pl", "gd", "good": self = .mp
        case "hp", "heavilyplayed", "heavyplayed": self = .hp
        case "dmg", "d", "damaged", "po", "poor": self = .dmg
        default: return nil
        }
    }
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

    public init(id: Int64? = nil, scryfallID: String, name: String, setCode: String, collectorNumber: String,
                language: String = "en", rarity: String? = nil, quantity: Int = 1, finish: Finish = .nonfoil,
                condition: Condition = .nm, pool: String = "", tags: [String] = [], addedAt: Date = Date(),
                sourcePath: String? = nil, sourceHash: String? = nil, batchID: Int64? = nil, purchasePrice: String? = nil) {
        self.id = id; self.scryfallID = scryfallID; self.name = name; self.setCode = setCode.lowercased()
        self.collectorNumber = collectorNumber; self.language = language; self.rarity = rarity
        self.quantity = quantity; self.finish = finish; self.condition = condition; self.pool = pool
        self.tags = Entry.normalizedTags(tags); self.addedAt = Dates.date(milliseconds: Dates.milliseconds(addedAt)); self.sourcePath = sourcePath
        self.sourceHash = sourceHash; self.batchID = batchID; self.purchasePrice = purchasePrice
    }

    enum CodingKeys: String, CodingKey {
        case id, scryfallID = "scryfall_id", name, setCode = "set_code", collectorNumber = "collector_number", language, rarity,
             quantity, finish, condition, pool, tags, addedAt = "added_at", sourcePath = "source_path", sourceHash = "source_hash",
             batchID = "batch_id", purchasePrice = "purchase_price"
    }

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

    public init(scryfallID: String, name: String, setCode: String, collectorNumber: String, language: String,
                rarity: String?, quantity: Int, finish: Finish, condition: Condition, pool: String, tags: [String],
                addedAt: Date, purchasePrice: String? = nil) {
        self.scryfallID = scryfallID; self.name = name; self.setCode = setCode.lowercased(); self.collectorNumber = collectorNumber
        self.language = language; self.rarity = rarity; self.quantity = quantity; self.finish = finish
        self.condition = condition; self.pool = pool; self.tags = Entry.normalizedTags(tags); self.addedAt = Dates.date(milliseconds: Dates.milliseconds(addedAt))
        self.purchasePrice = purchasePrice
    }

    enum CodingKeys: String, CodingKey {
        case scryfallID = "scryfall_id", name, setCode = "set_code", collectorNumber = "collector_number", language, rarity,
             quantity, finish, condition, pool, tags, addedAt = "added_at", purchasePrice = "purchase_price"
    }

    /// The entry this holding becomes when imported.
    public func entry(batchID: Int64?) -> Entry {
        Entry(scryfallID: scryfallID, name: name, setCode: setCode, collectorNumber: collectorNumber, language: language,
              rarity: rarity, quantity: quantity, finish: finish, condition: condition, pool: pool, tags: tags,
              addedAt: addedAt, batchID: batchID, purchasePrice: purchasePrice)
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

    /// Creates one.
    public init(matchStatus: String, candidates: [ReviewCandidate], readTitle: String?, readSet: String?, readNumber: String?,
                pool: String, finish: Finish, condition: Condition, language: String?) {
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
