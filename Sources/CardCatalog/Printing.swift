/// One printing of a card: one Scryfall card object (one set, one collector number, one language).
///
/// Keyed by the Scryfall id. `(setCode, collectorNumber, language)` identifies a printing in practice.
public struct Printing: Sendable, Hashable, Codable {
    /// Scryfall id (lower-case UUID string).
    public var id: String
    /// Scryfall oracle id, shared by reprints of the same card (nil when no source gave one).
    public var oracleID: String?
    /// English card name; multi-face cards use `Front // Back`.
    public var name: String
    /// Each face's name for multi-face cards (empty for single-faced cards).
    public var faceNames: [String]
    /// The name printed on a non-English card (nil for English printings or when unknown).
    public var printedName: String?
    /// Scryfall language code (`en`, `ja`, `zhs`, ...).
    public var language: String
    /// Lower-case Scryfall set code (`bfz`).
    public var setCode: String
    /// Collector number as Scryfall writes it: `171`, `12a`, `★`, `AVR-68`.
    public var collectorNumber: String
    /// `common`, `uncommon`, `rare`, `mythic`, `special`, `bonus` (nil when unknown).
    public var rarity: String?
    /// Scryfall layout (`normal`, `transform`, `split`, ...).
    public var layout: String?
    /// Type line (`Creature — Wurm`).
    public var typeLine: String?
    /// Mana cost in Scryfall notation (`{4}{G}{G}`).
    public var manaCost: String?
    /// Mana value (converted mana cost).
    public var manaValue: Double?
    /// Colour letters (`["G"]`).
    public var colors: [String]
    /// Release date of the printing (`YYYY-MM-DD`).
    public var releasedAt: String?
    /// Finishes available (`nonfoil`, `foil`, `etched`, ...).
    public var finishes: [String]
    /// Prices from the source when it had them (USD / USD foil / EUR / MTGO tix, as decimal strings).
    public var prices: Prices?
    /// Printed on paper: false for a digital-only printing (Magic Online and Arena promos, Vintage
    /// Masters, ...), which no photo can show; nil when the source did not say.
    public var isPaper: Bool?
    /// The colour of the card's outer border (nil when the source did not say).
    public var borderColor: BorderColor?
    /// Rules text in current Oracle wording (English); faces of a multi-face card joined by
    /// `Printing.faceSeparator`.
    public var oracleText: String?
    /// Flavor text as printed (faces joined like `oracleText`); it often differs between reprints.
    public var flavorText: String?
    /// The illustrator(s) credited on the card (faces with different artists joined by ` // `).
    public var artist: String?
    /// Frame generation as the sources name it: `1993`, `1997`, `2003`, `2015`, `future`.
    public var frame: String?
    /// The type line as printed on this card, when it differs from `typeLine`: the translated line
    /// of a non-English printing, or the original wording of an old English one.
    public var printedTypeLine: String?
    /// The rules text as printed on this card, when the source has it: the translated text of a
    /// non-English printing, or the original wording of an old English one.
    public var printedText: String?

    /// Whether a rarity letter as printed in a collector line (`C`, `U`, `R`, `M`, `S`, `T`, and
    /// `L` on a basic land) fits this printing's rarity: Scryfall records basic lands and tokens
    /// (`T`) as `common`. True when the rarity is unknown.
    public func fitsRarityLetter(_ letter: String) -> Bool {
        guard let rarity = rarity?.lowercased(), let first = letter.lowercased().first else { return true }
        switch first {
        case "l": return rarity == "common" && (typeLine?.contains("Basic") ?? false)
        case "t": return rarity == "common"
        default: return rarity.first == first
        }
    }

    /// Joins the texts of a multi-face card's faces.
    public static let faceSeparator = "\n//\n"

    /// Market prices as the source gave them (decimal strings, nil when absent).
    public struct Prices: Sendable, Hashable, Codable {
        public var usd: String?
        public var usdFoil: String?
        public var eur: String?
        public var tix: String?

        public init(usd: String? = nil, usdFoil: String? = nil, eur: String? = nil, tix: String? = nil) {
            self.usd = usd; self.usdFoil = usdFoil; self.eur = eur; self.tix = tix
        }

        /// True when no price is known.
        public var isEmpty: Bool { usd == nil && usdFoil == nil && eur == nil && tix == nil }
    }

    /// Memberwise initialiser.
    public init(
        id: String, oracleID: String? = nil, name: String, faceNames: [String] = [],
        printedName: String? = nil, language: String = "en", setCode: String, collectorNumber: String,
        rarity: String? = nil, layout: String? = nil, typeLine: String? = nil, manaCost: String? = nil,
        manaValue: Double? = nil, colors: [String] = [], releasedAt: String? = nil,
        finishes: [String] = [], prices: Prices? = nil, isPaper: Bool? = nil, borderColor: BorderColor? = nil,
        oracleText: String? = nil, flavorText: String? = nil, artist: String? = nil, frame: String? = nil,
        printedTypeLine: String? = nil, printedText: String? = nil
    ) {
        self.id = id; self.oracleID = oracleID; self.name = name; self.faceNames = faceNames
        self.printedName = printedName; self.language = language; self.setCode = setCode
        self.collectorNumber = collectorNumber; self.rarity = rarity; self.layout = layout
        self.typeLine = typeLine; self.manaCost = manaCost; self.manaValue = manaValue
        self.colors = colors; self.releasedAt = releasedAt; self.finishes = finishes; self.prices = prices
        self.isPaper = isPaper; self.borderColor = borderColor
        self.oracleText = oracleText; self.flavorText = flavorText; self.artist = artist; self.frame = frame
        self.printedTypeLine = printedTypeLine; self.printedText = printedText
    }

    /// False for a printed object that is not a Magic card: the inserts of a box or deck (the
    /// player bios and decklists of the World Championship decks, ads, checklists, sticker
    /// sheets, helper cards), which Scryfall and MTGJSON type as bare `Card` on every face, and
    /// Art Series cards (layout `art_series`). Tokens, emblems, planes, schemes and vanguards are
    /// game pieces. Such objects stay in the catalog (found by id, by set and number, by exact
    /// name), but no name or text search returns them: their names are mostly the sources'
    /// labels (`<player> Bio (1999)`), printed on nothing, and long enough to come nearest to
    /// noise.
    public var isGamePiece: Bool { Self.isGamePiece(typeLine: typeLine, layout: layout) }

    /// `isGamePiece` from the two fields it reads (also an SQL function for the importer).
    static func isGamePiece(typeLine: String?, layout: String?) -> Bool {
        if layout == "art_series" { return false }
        guard let typeLine, !typeLine.isEmpty else { return true }
        return !typeLine.components(separatedBy: " // ").allSatisfy { $0.trimmingCharacters(in: .whitespaces) == "Card" }
    }

    /// Whether a foil version exists (from `finishes`; nil when the source did not say).
    public var hasFoil: Bool? { finishes.isEmpty ? nil : finishes.contains { $0 != "nonfoil" } }
    /// Whether a non-foil version exists (nil when the source did not say).
    public var hasNonFoil: Bool? { finishes.isEmpty ? nil : finishes.contains("nonfoil") }
}

/// The colour of a card's outer border, as Scryfall (`border_color`) and MTGJSON (`borderColor`)
/// name it. White borders mark Unlimited, Revised, Fourth to Ninth Edition and some early
/// expansions' reprints; it is one of the few things that tells an old reprint from the original
/// when no collector number is printed or readable.
public enum BorderColor: String, Sendable, Hashable, Codable, CaseIterable {
    case black, white, borderless, gold, silver, yellow
}

/// A set (expansion, core set, promo set, ...).
public struct CardSet: Sendable, Hashable, Codable {
    /// Lower-case Scryfall set code.
    public var code: String
    /// Set name (`Battle for Zendikar`).
    public var name: String?
    /// Release date `YYYY-MM-DD`.
    public var releasedAt: String?
    /// Scryfall / MTGJSON set type (`expansion`, `core`, `promo`, ...).
    public var type: String?
    /// The size printed on cards (`171/274` → 274), when a source gave it.
    public var printedSize: Int?
    /// Number of distinct collector numbers of this set in the catalog.
    public var cardCount: Int

    /// Memberwise initialiser.
    public init(code: String, name: String? = nil, releasedAt: String? = nil, type: String? = nil,
                printedSize: Int? = nil, cardCount: Int = 0) {
        self.code = code; self.name = name; self.releasedAt = releasedAt; self.type = type
        self.printedSize = printedSize; self.cardCount = cardCount
    }
}
