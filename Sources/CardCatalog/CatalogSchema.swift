import GRDB

/// The catalog's SQLite schema. The catalog is derived data: it can always be rebuilt from the
/// sources, so there are no migrations — a file with another schema version is rebuilt on import.
enum CatalogSchema {
    static let version = 4
    /// Versions a catalog can be read at: version 1 lacks `printing.paper`, versions 1 and 2 lack
    /// `printing.border_color` (both read as unknown), versions 1 to 3 lack the card texts and their
    /// word index (`CardCatalog.searchText` asks to import again).
    static let readableVersions = 1...4
    /// The first version with card texts and the `printing_text` word index.
    static let textVersion = 4

    /// Bit flags in `printing.sources` / `card_set.sources`.
    enum Source: Int {
        case scryfall = 1
        case mtgjson = 2
    }

    static let tables = """
        CREATE TABLE IF NOT EXISTS catalog_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT);
        CREATE TABLE IF NOT EXISTS import_log (
            id INTEGER PRIMARY KEY, path TEXT NOT NULL, format TEXT NOT NULL, source_date TEXT,
            imported_at TEXT NOT NULL, records INTEGER, imported INTEGER, updated INTEGER,
            skipped INTEGER, malformed INTEGER);
        CREATE TABLE IF NOT EXISTS card_set (
            code TEXT PRIMARY KEY NOT NULL, name TEXT, released_at TEXT, set_type TEXT,
            printed_size INTEGER, card_count INTEGER NOT NULL DEFAULT 0, sources INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE IF NOT EXISTS printing (
            id TEXT NOT NULL UNIQUE, oracle_id TEXT, name TEXT NOT NULL, face_names TEXT,
            printed_name TEXT, lang TEXT NOT NULL, set_code TEXT NOT NULL, collector_number TEXT NOT NULL,
            rarity TEXT, layout TEXT, type_line TEXT, mana_cost TEXT, mana_value REAL, colors TEXT,
            released_at TEXT, finishes TEXT, price_usd TEXT, price_usd_foil TEXT, price_eur TEXT,
            price_tix TEXT, paper INTEGER, border_color TEXT, oracle_text TEXT, flavor_text TEXT, artist TEXT,
            frame TEXT, printed_type_line TEXT, printed_text TEXT, sources INTEGER NOT NULL, import_gen INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS foreign_text (
            printing_id TEXT NOT NULL, lang TEXT NOT NULL, name TEXT, type_line TEXT, text TEXT, flavor_text TEXT,
            import_gen INTEGER NOT NULL, PRIMARY KEY (printing_id, lang)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS search_name (
            text TEXT NOT NULL, card_name TEXT NOT NULL, kind INTEGER NOT NULL, lang TEXT NOT NULL,
            printings INTEGER NOT NULL, PRIMARY KEY (text, card_name)) WITHOUT ROWID;
        """

    /// Secondary indexes, dropped before a bulk import and created after it.
    static let indexes: [(name: String, sql: String)] = [
        ("printing_by_number", "CREATE INDEX IF NOT EXISTS printing_by_number ON printing(set_code, collector_number, lang)"),
        ("printing_by_oracle", "CREATE INDEX IF NOT EXISTS printing_by_oracle ON printing(oracle_id)"),
        ("printing_by_name", "CREATE INDEX IF NOT EXISTS printing_by_name ON printing(name)"),
        ("search_name_by_card", "CREATE INDEX IF NOT EXISTS search_name_by_card ON search_name(card_name)"),
    ]

    /// Columns of `printing` in the order the importer binds them.
    static let printingColumns = [
        "id", "oracle_id", "name", "face_names", "printed_name", "lang", "set_code", "collector_number",
        "rarity", "layout", "type_line", "mana_cost", "mana_value", "colors", "released_at", "finishes",
        "price_usd", "price_usd_foil", "price_eur", "price_tix", "paper", "border_color",
        "oracle_text", "flavor_text", "artist", "frame", "printed_type_line", "printed_text",
    ]

    static func create(_ db: Database) throws {
        try db.execute(sql: tables)
        try db.execute(sql: "INSERT OR REPLACE INTO catalog_meta(key, value) VALUES ('schema_version', ?)",
                       arguments: [String(version)])
    }

    static func storedVersion(_ db: Database) throws -> Int? {
        guard try db.tableExists("catalog_meta") else { return nil }
        return try String.fetchOne(db, sql: "SELECT value FROM catalog_meta WHERE key = 'schema_version'").flatMap { Int($0) }
    }
}

extension Printing {
    /// Reads a `printing` row (columns as in `CatalogSchema.printingColumns`).
    init(row: Row) {
        let faces: String? = row["face_names"]
        let colors: String? = row["colors"]
        let finishes: String? = row["finishes"]
        let prices = Prices(usd: row["price_usd"], usdFoil: row["price_usd_foil"], eur: row["price_eur"], tix: row["price_tix"])
        self.init(
            id: row["id"], oracleID: row["oracle_id"], name: row["name"],
            faceNames: faces.map { $0.isEmpty ? [] : $0.components(separatedBy: " // ") } ?? [],
            printedName: row["printed_name"], language: row["lang"], setCode: row["set_code"],
            collectorNumber: row["collector_number"], rarity: row["rarity"], layout: row["layout"],
            typeLine: row["type_line"], manaCost: row["mana_cost"], manaValue: row["mana_value"],
            colors: colors.map { $0.isEmpty ? [] : $0.components(separatedBy: ",") } ?? [],
            releasedAt: row["released_at"],
            finishes: finishes.map { $0.isEmpty ? [] : $0.components(separatedBy: ",") } ?? [],
            prices: prices.isEmpty ? nil : prices, isPaper: row["paper"],
            borderColor: (row["border_color"] as String?).flatMap(BorderColor.init(rawValue:)),
            oracleText: row["oracle_text"], flavorText: row["flavor_text"], artist: row["artist"], frame: row["frame"],
            printedTypeLine: row["printed_type_line"], printedText: row["printed_text"])
    }

    /// Values bound in `CatalogSchema.printingColumns` order.
    var databaseValues: [DatabaseValueConvertible?] {
        [id, oracleID, name, faceNames.isEmpty ? nil : faceNames.joined(separator: " // "), printedName, language,
         setCode, collectorNumber, rarity, layout, typeLine, manaCost, manaValue,
         colors.joined(separator: ","), releasedAt, finishes.isEmpty ? nil : finishes.joined(separator: ","),
         prices?.usd, prices?.usdFoil, prices?.eur, prices?.tix, isPaper, borderColor?.rawValue,
         oracleText, flavorText, artist, frame, printedTypeLine, printedText]
    }
}

extension CardSet {
    init(row: Row) {
        self.init(code: row["code"], name: row["name"], releasedAt: row["released_at"], type: row["set_type"],
                  printedSize: row["printed_size"], cardCount: row["card_count"] ?? 0)
    }
}
