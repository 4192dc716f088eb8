import Foundation
import GRDB

/// One import run inside one transaction on the (temporary) catalog file: upserts printings and sets
/// record by record with prepared statements, then builds indexes and the search-name table.
final class ImportSession {
    private let db: Database
    private let progress: (@Sendable (ImportProgress) -> Void)?
    /// Import generation of the file being read (one per file, so overlaps between files count as updates).
    private var generation: Int
    private let decoder = JSONDecoder()
    private(set) var reports: [ImportReport.Source] = []
    /// Printings left out of name and text search by `finish` (`Printing.isGamePiece`).
    private(set) var nonGamePieces = 0

    private let selectExisting: Statement
    private let insertPrinting: Statement
    private let overwritePrinting: Statement
    private let fillPrinting: Statement
    private let upsertSetFromCard: Statement
    private let appendFace: Statement
    private let upsertForeign: Statement
    private var setsSeen = Set<String>()

    init(db: Database, progress: (@Sendable (ImportProgress) -> Void)?) throws {
        self.db = db
        self.progress = progress
        try CatalogSchema.create(db)
        for index in CatalogSchema.indexes { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)") }
        generation = try Int.fetchOne(db, sql: "SELECT max(import_gen) FROM printing") ?? 0

        let cols = CatalogSchema.printingColumns
        selectExisting = try db.makeStatement(sql: "SELECT sources, import_gen FROM printing WHERE id = ?")
        insertPrinting = try db.makeStatement(sql: """
            INSERT INTO printing(\(cols.joined(separator: ", ")), sources, import_gen)
            VALUES (\(Array(repeating: "?", count: cols.count + 2).joined(separator: ", ")))
            """)
        // Bound as (values..., source bit, generation, id).
        let overwrite = cols.dropFirst().map { "\($0) = coalesce(?, \($0))" }.joined(separator: ", ")
        overwritePrinting = try db.makeStatement(sql: """
            UPDATE printing SET \(overwrite), sources = sources | ?, import_gen = ? WHERE id = ?
            """)
        let fill = cols.dropFirst().map { "\($0) = coalesce(\($0), ?)" }.joined(separator: ", ")
        fillPrinting = try db.makeStatement(sql: """
            UPDATE printing SET \(fill), sources = sources | ?, import_gen = ? WHERE id = ?
            """)
        // A later face of a multi-face MTGJSON card: its texts follow the earlier faces' (bound as
        // texts..., id).
        let faceSeparator = "char(10) || '//' || char(10)"
        appendFace = try db.makeStatement(sql: """
            UPDATE printing SET oracle_text = coalesce(oracle_text || \(faceSeparator) || ?1, oracle_text, ?1),
                flavor_text = coalesce(flavor_text || \(faceSeparator) || ?2, flavor_text, ?2),
                artist = CASE WHEN ?3 IS NULL OR artist = ?3 OR artist LIKE '% // ' || ?3 THEN coalesce(artist, ?3)
                    ELSE artist || ' // ' || ?3 END,
                printed_type_line = coalesce(printed_type_line || ' // ' || ?4, printed_type_line, ?4),
                printed_text = coalesce(printed_text || \(faceSeparator) || ?5, printed_text, ?5)
            WHERE id = ?6
            """)
        // One language of a printing; a later face of the same file appends to the earlier faces.
        upsertForeign = try db.makeStatement(sql: """
            INSERT INTO foreign_text(printing_id, lang, name, type_line, text, flavor_text, import_gen)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(printing_id, lang) DO UPDATE SET
                name = CASE WHEN import_gen = excluded.import_gen THEN coalesce(name, excluded.name) ELSE excluded.name END,
                type_line = CASE WHEN import_gen = excluded.import_gen
                    THEN coalesce(type_line || ' // ' || excluded.type_line, type_line, excluded.type_line) ELSE excluded.type_line END,
                text = CASE WHEN import_gen = excluded.import_gen
                    THEN coalesce(text || \(faceSeparator) || excluded.text, text, excluded.text) ELSE excluded.text END,
                flavor_text = CASE WHEN import_gen = excluded.import_gen
                    THEN coalesce(flavor_text || \(faceSeparator) || excluded.flavor_text, flavor_text, excluded.flavor_text)
                    ELSE excluded.flavor_text END,
                import_gen = excluded.import_gen
            """)
        upsertSetFromCard = try db.makeStatement(sql: """
            INSERT INTO card_set(code, name, set_type, sources) VALUES (?, ?, ?, ?)
            ON CONFLICT(code) DO UPDATE SET name = coalesce(name, excluded.name),
                set_type = coalesce(set_type, excluded.set_type), sources = sources | excluded.sources
            """)
    }

    // MARK: - Files

    /// Streams one file into the catalog.
    func importFile(_ path: String, name: String) throws {
        let started = Date()
        generation += 1
        let reader = try CompressedFileReader(path: path)
        let total = reader.fileSize
        let stream = JSONElementStream(reader: reader)
        var report = ImportReport.Source(path: name, format: "unknown")
        var lastTick = Date()

        func tick(force: Bool = false) {
            guard let progress else { return }
            let now = Date()
            guard force || now.timeIntervalSince(lastTick) > 0.2 else { return }
            lastTick = now
            progress(ImportProgress(path: path, bytesDone: reader.compressedOffset, bytesTotal: total,
                                    records: report.records, phase: "reading"))
        }

        try stream.run { event in
            switch event {
            case let .rootArrayElement(data):
                report.format = "scryfall-cards"
                try scryfallCard(data, &report)
            case let .dataArrayElement(data):
                let kind = (try? decoder.decode(ScryfallObjectKindDTO.self, from: data))?.object
                if kind == "set" {
                    report.format = "scryfall-sets"
                    scryfallSet(data, &report)
                } else if kind == "card" || kind == nil {
                    report.format = "scryfall-cards"
                    try scryfallCard(data, &report)
                } else {
                    report.records += 1
                    report.skipped += 1
                    note(&report, "record \(report.records): not a card or set (object \"\(kind ?? "?")\")")
                }
            case let .meta(data):
                report.format = "mtgjson"
                report.sourceDate = (try? decoder.decode(MTGJSONMetaDTO.self, from: data))?.date
            case let .mtgjsonCard(data):
                report.format = "mtgjson"
                try mtgjsonCard(data, &report)
            case let .mtgjsonSet(fields):
                report.format = "mtgjson"
                try mtgjsonSet(fields, &report)
            }
            if report.records & 511 == 0 { tick() }
        }
        if report.records == 0 && report.sets == 0 {
            throw CatalogError.malformedFile(path: path, reason: "no card or set records found (expected a Scryfall bulk file or MTGJSON file)")
        }
        if report.sets == 0 && report.malformed == report.records {
            let first = report.problems.first.map { "; first: \($0)" } ?? ""
            throw CatalogError.malformedFile(path: path, reason: "none of its \(report.records) records is a card (expected a Scryfall bulk file or MTGJSON file)\(first)")
        }
        tick(force: true)
        report.seconds = Date().timeIntervalSince(started)
        try db.execute(sql: """
            INSERT INTO import_log(path, format, source_date, imported_at, records, imported, updated, skipped, malformed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [name, report.format, report.sourceDate, ISO8601DateFormatter().string(from: Date()),
                             report.records, report.imported, report.updated, report.skipped, report.malformed])
        reports.append(report)
    }

    private func note(_ report: inout ImportReport.Source, _ problem: String) {
        if report.problems.count < 10 { report.problems.append(problem) }
    }

    private func describe(_ error: Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, _): return "missing field \"\(key.stringValue)\""
        case let DecodingError.typeMismatch(_, ctx), let DecodingError.valueNotFound(_, ctx):
            return "wrong type for \"\(ctx.codingPath.map(\.stringValue).joined(separator: "."))\""
        case let DecodingError.dataCorrupted(ctx): return "invalid JSON (\(ctx.debugDescription))"
        default: return "\(error)"
        }
    }

    // MARK: - Records

    private func scryfallCard(_ data: Data, _ report: inout ImportReport.Source) throws {
        report.records += 1
        let card: ScryfallCardDTO
        do { card = try decoder.decode(ScryfallCardDTO.self, from: data) } catch {
            report.malformed += 1
            note(&report, "record \(report.records): \(describe(error))")
            return
        }
        let printing = card.printing()
        guard valid(printing, &report) else { return }
        if !setsSeen.contains(printing.setCode) {
            setsSeen.insert(printing.setCode)
            try upsertSetFromCard.execute(arguments: [printing.setCode, card.set_name, card.set_type, CatalogSchema.Source.scryfall.rawValue])
        }
        try upsert(printing, source: .scryfall, &report)
    }

    private func mtgjsonCard(_ data: Data, _ report: inout ImportReport.Source) throws {
        report.records += 1
        let card: MTGJSONCardDTO
        do { card = try decoder.decode(MTGJSONCardDTO.self, from: data) } catch {
            report.malformed += 1
            note(&report, "record \(report.records): \(describe(error))")
            return
        }
        guard let printing = card.printing(setReleaseDate: nil) else {
            report.skipped += 1
            note(&report, "record \(report.records): \(card.name) (\(card.setCode) \(card.number)) has no Scryfall id")
            return
        }
        guard valid(printing, &report) else { return }
        try upsert(printing, source: .mtgjson, laterFace: card.isLaterFace, &report)
        for foreign in card.foreignData ?? [] {
            let lang = MTGJSONLanguage.code(for: foreign.language)
            guard lang != "en" else { continue }
            try upsertForeign.execute(arguments: [printing.id, lang, foreign.name, foreign.type, foreign.text,
                                                  foreign.flavorText, generation])
        }
    }

    private func valid(_ p: Printing, _ report: inout ImportReport.Source) -> Bool {
        if p.id.count == 36, !p.name.isEmpty, !p.setCode.isEmpty, !p.collectorNumber.isEmpty { return true }
        report.malformed += 1
        note(&report, "record \(report.records): \(p.name.isEmpty ? "(no name)" : p.name): invalid id, set or number")
        return false
    }

    private func upsert(_ printing: Printing, source: CatalogSchema.Source, laterFace: Bool = false,
                        _ report: inout ImportReport.Source) throws {
        let values = printing.databaseValues
        let existing = try Row.fetchOne(selectExisting, arguments: [printing.id])
        guard let existing else {
            try insertPrinting.execute(arguments: StatementArguments(values + [source.rawValue, generation]))
            report.imported += 1
            return
        }
        let sources: Int = existing[0]
        let gen: Int = existing[1]
        if gen == generation { report.skipped += 1 } else { report.updated += 1 }
        // Scryfall is authoritative; MTGJSON only fills gaps in a row Scryfall wrote.
        let authoritative = source == .scryfall || sources & CatalogSchema.Source.scryfall.rawValue == 0
        // A later face of a card this file already wrote keeps the first face's fields and adds its texts
        // (Scryfall rows already hold every face's).
        let addsFace = laterFace && gen == generation
        let statement = authoritative && !addsFace ? overwritePrinting : fillPrinting
        try statement.execute(arguments: StatementArguments(Array(values.dropFirst()) + [source.rawValue, generation, printing.id]))
        if addsFace && sources & CatalogSchema.Source.scryfall.rawValue == 0 {
            try appendFace.execute(arguments: [printing.oracleText, printing.flavorText, printing.artist,
                                               printing.printedTypeLine, printing.printedText, printing.id])
        }
    }

    private func scryfallSet(_ data: Data, _ report: inout ImportReport.Source) {
        do {
            let set = try decoder.decode(ScryfallSetDTO.self, from: data).cardSet
            try db.execute(sql: """
                INSERT INTO card_set(code, name, released_at, set_type, printed_size, sources) VALUES (?, ?, ?, ?, ?, 1)
                ON CONFLICT(code) DO UPDATE SET name = coalesce(excluded.name, name),
                    released_at = coalesce(excluded.released_at, released_at), set_type = coalesce(excluded.set_type, set_type),
                    printed_size = coalesce(excluded.printed_size, printed_size), sources = sources | 1
                """, arguments: [set.code, set.name, set.releasedAt, set.type, set.printedSize])
            report.sets += 1
        } catch {
            report.malformed += 1
            note(&report, "set record: \(describe(error))")
        }
    }

    private func mtgjsonSet(_ fields: [String: JSONScalar], _ report: inout ImportReport.Source) throws {
        guard let rawCode = fields["code"]?.string else {
            report.malformed += 1
            note(&report, "set record without a code")
            return
        }
        let code = MTGJSONSetCode.scryfall(rawCode)
        // MTGJSON's baseSetSize is the number printed on the cards; Scryfall cards do not carry it.
        try db.execute(sql: """
            INSERT INTO card_set(code, name, released_at, set_type, printed_size, sources) VALUES (?, ?, ?, ?, ?, 2)
            ON CONFLICT(code) DO UPDATE SET name = coalesce(name, excluded.name),
                released_at = coalesce(released_at, excluded.released_at), set_type = coalesce(set_type, excluded.set_type),
                printed_size = coalesce(excluded.printed_size, printed_size), sources = sources | 2
            """, arguments: [code, fields["name"]?.string, fields["releaseDate"]?.string, fields["type"]?.string,
                             fields["baseSetSize"]?.int])
        report.sets += 1
    }

    // MARK: - Finish

    /// Builds indexes, derived set fields and the search-name table.
    func finish() throws {
        if let progress, let last = reports.last {
            progress(ImportProgress(path: last.path, bytesDone: 0, bytesTotal: 0, records: last.records, phase: "indexing"))
        }
        for index in CatalogSchema.indexes { try db.execute(sql: index.sql) }
        try db.execute(sql: """
            INSERT OR IGNORE INTO card_set(code) SELECT DISTINCT set_code FROM printing;
            UPDATE card_set SET released_at = (SELECT min(released_at) FROM printing WHERE set_code = card_set.code)
                WHERE released_at IS NULL;
            UPDATE printing SET released_at = (SELECT released_at FROM card_set WHERE code = printing.set_code)
                WHERE released_at IS NULL;
            UPDATE card_set SET card_count = (SELECT count(DISTINCT collector_number) FROM printing WHERE set_code = card_set.code);
            """)
        nonGamePieces = try SearchNameBuilder.rebuild(db)
        try TextIndex.rebuild(db)
        let sources = try String.fetchAll(db, sql: "SELECT DISTINCT format FROM import_log ORDER BY format")
        try db.execute(sql: "INSERT OR REPLACE INTO catalog_meta(key, value) VALUES ('updated_at', ?), ('formats', ?)",
                       arguments: [ISO8601DateFormatter().string(from: Date()), sources.joined(separator: ",")])
        try db.execute(sql: "ANALYZE")
    }

    /// Totals after the import.
    static func report(_ db: Database, sources: [ImportReport.Source], nonGamePieces: Int) throws -> ImportReport {
        ImportReport(
            sources: sources,
            totalPrintings: try Int.fetchOne(db, sql: "SELECT count(*) FROM printing") ?? 0,
            totalSets: try Int.fetchOne(db, sql: "SELECT count(*) FROM card_set") ?? 0,
            totalNames: try Int.fetchOne(db, sql: "SELECT count(DISTINCT text) FROM search_name") ?? 0,
            nonGamePieces: nonGamePieces,
            seconds: 0)
    }
}
