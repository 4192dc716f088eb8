import Foundation
import GRDB
import Synchronization

/// A read-only card catalog: exact lookups by (set, number, language), printings by name, oracle id
/// or set, fuzzy name search robust to OCR damage, and nearest set code for a misread one.
///
/// Opening loads every searchable name into an in-memory index (tens of milliseconds for ~30,000
/// names). Thread-safe: lookups may be called from any thread.
public final class CardCatalog: Sendable {
    /// The database file.
    public let url: URL
    /// True when this is the built-in sample catalog.
    public let isSample: Bool
    let queue: DatabaseQueue
    /// The schema version the file was built with.
    let schemaVersion: Int
    /// The text index's vocabulary, loaded by the first text search (the others wait for it).
    let textVocabulary = Mutex<TextVocabulary?>(nil)
    /// The words of every artist credit (`artistWords(in:)`), loaded on first use.
    let artistVocabulary = Mutex<Set<String>?>(nil)
    private let names: NameIndex
    private let setsByCode: [String: CardSet]
    private let setResolver: SetCodeResolver

    /// Opens the catalog at `url` read-only. Throws `CatalogError.notACatalog` when the file is
    /// missing or not a cardscan catalog of the current schema.
    public init(url: URL, isSample: Bool = false) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CatalogError.notACatalog(path: url.path, reason: "no such file")
        }
        self.url = url
        self.isSample = isSample
        var config = Configuration()
        config.readonly = true
        config.label = "CardCatalog"
        do {
            queue = try DatabaseQueue(path: url.path, configuration: config)
            let loaded = try queue.read { db -> ([(String, String, NameKind, Int)], [CardSet], Int) in
                guard let version = try CatalogSchema.storedVersion(db), CatalogSchema.readableVersions.contains(version) else {
                    throw CatalogError.notACatalog(path: url.path, reason: "unknown schema version (import again to rebuild it)")
                }
                let rows = try Row.fetchAll(db, sql: "SELECT text, card_name, kind, printings FROM search_name")
                let names = rows.map { row -> (String, String, NameKind, Int) in
                    let kind: Int = row[2]
                    return (row[0], row[1], kind == 0 ? .name : kind == 1 ? .face : .printed, row[3])
                }
                let sets = try Row.fetchAll(db, sql: "SELECT * FROM card_set").map(CardSet.init(row:))
                return (names, sets, version)
            }
            schemaVersion = loaded.2
            names = NameIndex(rows: loaded.0.map { (text: $0.0, cardName: $0.1, kind: $0.2, printings: $0.3) })
            setsByCode = Dictionary(loaded.1.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
            setResolver = SetCodeResolver(sets: loaded.1)
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError.notACatalog(path: url.path, reason: "\(error)")
        }
    }

    // MARK: - Exact lookups

    /// Printings with this set code and collector number, in `language` (any language when nil,
    /// English first). Numbers are matched as printed (`171`, `12a`, `★`); leading zeros (`0171`)
    /// and letter case are tolerated.
    public func printings(set: String, number: String, language: String? = "en") throws -> [Printing] {
        let code = set.lowercased()
        let trimmed = Self.stripLeadingZeros(number)
        return try queue.read { db in
            var rows: [Row]
            if let language {
                rows = try Row.fetchAll(db.cachedStatement(sql:
                    "SELECT * FROM printing WHERE set_code = ? AND collector_number = ? AND lang = ?"),
                    arguments: [code, trimmed, language.lowercased()])
            } else {
                rows = try Row.fetchAll(db.cachedStatement(sql:
                    "SELECT * FROM printing WHERE set_code = ? AND collector_number = ? ORDER BY lang <> 'en', lang"),
                    arguments: [code, trimmed])
            }
            if rows.isEmpty && trimmed.contains(where: \.isLetter) {
                rows = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT * FROM printing WHERE set_code = ? AND collector_number = ? COLLATE NOCASE
                        AND (?3 IS NULL OR lang = ?3) ORDER BY lang <> 'en', lang
                    """), arguments: [code, trimmed, language?.lowercased()])
            }
            return rows.map(Printing.init(row:))
        }
    }

    /// The printing with this Scryfall id.
    public func printing(id: String) throws -> Printing? {
        try queue.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM printing WHERE id = ?"), arguments: [id.lowercased()])
                .map(Printing.init(row:))
        }
    }

    /// All printings of a card, by its exact name, one of its face names or a printed name
    /// (as returned in `NameMatch.name`), newest first. Reprints are found through the oracle id.
    public func printings(named name: String, language: String? = nil) throws -> [Printing] {
        try queue.read { db in
            var cardNames = try String.fetchAll(db.cachedStatement(sql:
                "SELECT DISTINCT card_name FROM search_name WHERE text = ?"), arguments: [name])
            if cardNames.isEmpty { cardNames = [name] }
            var result: [Printing] = []
            for cardName in cardNames {
                result += try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT * FROM printing WHERE name = ? AND (?2 IS NULL OR lang = ?2)
                    ORDER BY released_at DESC, set_code, collector_number
                    """), arguments: [cardName, language?.lowercased()]).map(Printing.init(row:))
            }
            return result
        }
    }

    /// Whether some printing of the card `name` names (as `printings(named:)` takes it) may print
    /// its collector number in its copyright line: a 1997 or 2003 frame (those of 1998 to 2014), a
    /// Future Sight frame, or no frame recorded and released in those years. True where the card
    /// has no printing here (nothing tells).
    public func printsNumberInCopyright(_ name: String) -> Bool {
        guard let printings = try? printings(named: name), !printings.isEmpty else { return true }
        return printings.contains { p in
            if let frame = p.frame { return ["1997", "2003", "future"].contains(frame) }
            guard let day = p.releasedAt else { return true }
            return day >= "1998-01" && day < "2014-07"
        }
    }

    /// All printings sharing an oracle id (every printing of one card), newest first.
    public func printings(oracleID: String, language: String? = nil) throws -> [Printing] {
        try queue.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM printing WHERE oracle_id = ? AND (?2 IS NULL OR lang = ?2)
                ORDER BY released_at DESC, set_code, collector_number
                """), arguments: [oracleID.lowercased(), language?.lowercased()]).map(Printing.init(row:))
        }
    }

    /// Printings in a set, by collector number (numeric part first), optionally in one language.
    public func printings(inSet set: String, language: String? = "en") throws -> [Printing] {
        try queue.read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT * FROM printing WHERE set_code = ? AND (?2 IS NULL OR lang = ?2)
                ORDER BY CAST(collector_number AS INTEGER), collector_number, lang
                """), arguments: [set.lowercased(), language?.lowercased()]).map(Printing.init(row:))
        }
    }

    // MARK: - Sets

    /// The set with this code.
    public func set(code: String) -> CardSet? { setsByCode[code.lowercased()] }

    /// Every set, newest first.
    public var sets: [CardSet] {
        setsByCode.values.sorted { ($0.releasedAt ?? "", $0.code) > ($1.releasedAt ?? "", $1.code) }
    }

    /// The valid set codes nearest to a misread one, best first, with scores in 0…1. Give the
    /// printed set size (`171/274` → 274) when known: it separates codes that read alike.
    public func nearestSetCodes(_ code: String, printedSize: Int? = nil, limit: Int = 5) -> [SetCodeMatch] {
        if let exact = setsByCode[code.lowercased()], printedSize == nil || exact.printedSize == nil || exact.printedSize == printedSize {
            var rest = setResolver.nearest(code, printedSize: printedSize, limit: limit).filter { $0.code != exact.code }
            rest.insert(SetCodeMatch(code: exact.code, score: 1, set: exact), at: 0)
            return Array(rest.prefix(limit))
        }
        return setResolver.nearest(code, printedSize: printedSize, limit: limit)
    }

    // MARK: - Fuzzy names

    /// Fuzzy search over card names, face names and printed names, robust to OCR damage
    /// (`rn`↔`m`, `l`↔`I`↔`1`, `0`↔`O`, dropped or doubled letters, stray punctuation, truncated
    /// titles). Returns at most `limit` cards, best first, with scores in 0…1.
    ///
    /// `wholeWordsFirst` is for a name a person typed: names whose leading whole words are the
    /// query come first (the query `Name` finds `Name, Epithet` before `Name's Spell`), each group
    /// by score. Without it the order is the score's, as OCR readings need.
    public func searchNames(_ query: String, limit: Int = 10, minimumScore: Double = 0.3,
                            wholeWordsFirst: Bool = false) -> [NameMatch] {
        names.search(query, limit: limit, minimumScore: minimumScore, wholeWordsFirst: wholeWordsFirst)
    }

    /// Every distinct card name (English, `Front // Back` for multi-face cards), sorted.
    public var cardNames: [String] {
        Array(Set(names.entries.lazy.filter { $0.kind == .name }.map(\.cardName))).sorted()
    }

    /// Number of searchable names in the in-memory index.
    public var nameCount: Int { names.entries.count }

    // MARK: - Summary

    /// Where the catalog came from and what it holds.
    public func info() throws -> CatalogInfo {
        let imports = try self.imports()
        return try queue.read { db in
            var languages: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT lang, count(*) FROM printing GROUP BY lang") {
                languages[row[0]] = row[1]
            }
            let columns = Set(try db.columns(in: "printing").map(\.name))
            return CatalogInfo(
                path: url.path, isSample: isSample,
                updatedAt: try String.fetchOne(db, sql: "SELECT value FROM catalog_meta WHERE key = 'updated_at'"),
                imports: imports,
                printings: try Int.fetchOne(db, sql: "SELECT count(*) FROM printing") ?? 0,
                cards: try Int.fetchOne(db, sql: "SELECT count(DISTINCT name) FROM printing") ?? 0,
                sets: setsByCode.count, searchNames: names.entries.count, languages: languages,
                digitalOnly: columns.contains("paper")
                    ? try Int.fetchOne(db, sql: "SELECT count(*) FROM printing WHERE paper = 0") ?? 0 : nil,
                whiteBordered: columns.contains("border_color")
                    ? try Int.fetchOne(db, sql: "SELECT count(*) FROM printing WHERE border_color = 'white'") ?? 0 : nil)
        }
    }

    /// The files imported into the catalog, oldest first (cheap, unlike `info()`).
    public func imports() throws -> [CatalogInfo.Import] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM import_log ORDER BY id").map { row in
                CatalogInfo.Import(path: row["path"], format: row["format"], sourceDate: row["source_date"],
                                   importedAt: row["imported_at"], records: row["records"] ?? 0, imported: row["imported"] ?? 0,
                                   updated: row["updated"] ?? 0, skipped: row["skipped"] ?? 0, malformed: row["malformed"] ?? 0)
            }
        }
    }

    /// The prices of the printings with these Scryfall ids that have any (one query per 500 ids:
    /// a collection's value without a lookup per row).
    public func prices(ids: some Collection<String>) throws -> [String: Printing.Prices] {
        let unique = Array(Set(ids.map { $0.lowercased() }))
        var out: [String: Printing.Prices] = [:]
        try queue.read { db in
            for start in stride(from: 0, to: unique.count, by: 500) {
                let chunk = Array(unique[start..<min(start + 500, unique.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                for row in try Row.fetchAll(db, sql: """
                    SELECT id, price_usd, price_usd_foil, price_eur, price_tix FROM printing WHERE id IN (\(marks))
                        AND (price_usd IS NOT NULL OR price_usd_foil IS NOT NULL OR price_eur IS NOT NULL OR price_tix IS NOT NULL)
                    """, arguments: StatementArguments(chunk)) {
                    out[row["id"]] = Printing.Prices(usd: row["price_usd"], usdFoil: row["price_usd_foil"], eur: row["price_eur"], tix: row["price_tix"])
                }
            }
        }
        return out
    }

    static func stripLeadingZeros(_ number: String) -> String {
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > 1, trimmed.first == "0" else { return trimmed }
        let rest = trimmed.drop { $0 == "0" }
        return rest.isEmpty ? "0" : String(rest)
    }
}
