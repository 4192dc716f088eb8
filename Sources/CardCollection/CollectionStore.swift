import CardCatalog
import Foundation
import GRDB

/// The user's collection database (`<data-dir>/collection.sqlite`), separate from the catalog.
///
/// - WAL journal and a busy timeout, so several `cardscan` processes can import at once.
/// - Every photo is recorded in one transaction together with its entry or review item, keyed by
///   the SHA-256 of the file's bytes: a re-run, a renamed photo or a resume after `kill -9` adds
///   nothing twice.
/// - A file that is not an SQLite database, or an SQLite database of something else, is refused
///   and never written to. Before a schema migration the file is copied (SQLite backup API) to
///   `<name>.backup-<last-migration>-<UTC time>.sqlite`.
public final class CollectionStore: Sendable {
    /// `PRAGMA application_id` of cardscan collections ("MTGC").
    public static let applicationID: Int32 = 0x4D54_4743

    public let url: URL
    /// Backup written before a migration by this open, if any.
    public let backupURL: URL?
    let db: DatabasePool

    /// Opens (creating when missing and `create` is true) the collection at `url`.
    public init(url: URL, create: Bool = true, busyTimeout: TimeInterval = 30) throws {
        self.url = url
        let path = url.path
        let fm = FileManager.default
        if !fm.fileExists(atPath: path) {
            guard create else { throw CollectionError.notFound("\(path): no collection yet (import or add cards first)") }
            try? fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        // One process at a time checks, creates and migrates the file: another one may be halfway
        // through creating it (its migration table written, its schema not yet).
        let lock = Self.MigrationLock(path: path)
        defer { lock.release() }
        if fm.fileExists(atPath: path) { try Self.checkExisting(path) }
        var config = Configuration()
        config.label = "CardCollection"
        config.busyMode = .timeout(busyTimeout)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA foreign_keys = ON") }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            throw CollectionError.corrupt(path: path, reason: Self.reason(error))
        }
        db = pool
        backupURL = try Self.migrate(pool, path: path)
    }

    // MARK: - Opening, foreign files, migrations

    /// Refuses files that are not SQLite, damaged, or SQLite databases of another application.
    static func checkExisting(_ path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CollectionError.unreadable(path: path, reason: "permission denied")
        }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        try? handle.close()
        if header.isEmpty { return } // an empty file is an empty SQLite database
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw CollectionError.corrupt(path: path, reason: "not an SQLite database")
        }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(10)
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            let (appID, tables) = try queue.read { db -> (Int32, [String]) in
                let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                return (appID, tables)
            }
            try queue.close()
            if appID == applicationID || (appID == 0 && tables.isEmpty) { return }
            let what = tables.contains("printing") ? "it looks like a card catalog" : "tables: \(tables.prefix(4).joined(separator: ", "))"
            throw CollectionError.foreign(path: path, reason: what)
        } catch let error as CollectionError {
            throw error
        } catch {
            throw CollectionError.corrupt(path: path, reason: reason(error))
        }
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        return "\(error)"
    }

    /// An exclusive lock on `<collection>.lock`, held while a process checks, creates and migrates
    /// the collection (two processes may open a new collection at once).
    struct MigrationLock {
        let fd: Int32
        init(path: String) {
            fd = open(path + ".lock", O_CREAT | O_RDWR, 0o644)
            if fd >= 0 { flock(fd, LOCK_EX) }
        }
        func release() {
            if fd >= 0 { flock(fd, LOCK_UN); close(fd) }
        }
    }

    /// Migrates (the caller holds the `MigrationLock`), backing the file up first when it already
    /// holds data of an older schema.
    static func migrate(_ pool: DatabasePool, path: String) throws -> URL? {
        let migrator = Self.migrator
        do {
            let (applied, complete, superseded) = try pool.read { db in
                (try migrator.completedMigrations(db), try migrator.hasCompletedMigrations(db), try migrator.hasBeenSuperseded(db))
            }
            if superseded { throw CollectionError.tooNew(path: path) }
            if complete { return nil }
            var backup: URL?
            if let last = applied.last {
                let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime])
                let url = URL(fileURLWithPath: path + ".backup-\(last)-\(stamp).sqlite")
                let copy = try DatabaseQueue(path: url.path)
                try pool.backup(to: copy)
                try copy.close()
                backup = url
            }
            try migrator.migrate(pool)
            return backup
        } catch let error as CollectionError {
            throw error
        } catch {
            throw CollectionError.corrupt(path: path, reason: reason(error))
        }
    }

    /// Schema history. Never edit a shipped migration: add a new one.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: """
                CREATE TABLE batch (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    description TEXT NOT NULL DEFAULT '',
                    started_at DATETIME NOT NULL,
                    finished_at DATETIME
                );
                CREATE TABLE photo (
                    hash TEXT PRIMARY KEY NOT NULL,
                    path TEXT NOT NULL,
                    batch_id INTEGER REFERENCES batch(id),
                    outcome TEXT NOT NULL,
                    imported_at DATETIME NOT NULL
                );
                CREATE TABLE entry (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    scryfall_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    set_code TEXT NOT NULL,
                    collector_number TEXT NOT NULL,
                    language TEXT NOT NULL,
                    rarity TEXT,
                    quantity INTEGER NOT NULL CHECK (quantity > 0),
                    finish TEXT NOT NULL CHECK (finish IN ('nonfoil', 'foil', 'etched')),
                    condition TEXT NOT NULL CHECK (condition IN ('NM', 'LP', 'MP', 'HP', 'DMG')),
                    pool TEXT NOT NULL DEFAULT '',
                    tags TEXT NOT NULL DEFAULT '',
                    added_at INTEGER NOT NULL, -- Unix time in milliseconds (exact round trips)
                    source_path TEXT,
                    source_hash TEXT,
                    batch_id INTEGER REFERENCES batch(id),
                    purchase_price TEXT
                );
                CREATE INDEX entry_pool ON entry(pool, set_code, collector_number);
                CREATE INDEX entry_batch ON entry(batch_id);
                CREATE TABLE review (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    batch_id INTEGER REFERENCES batch(id),
                    source_path TEXT NOT NULL,
                    source_hash TEXT NOT NULL,
                    match_status TEXT NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending',
                    candidates TEXT NOT NULL DEFAULT '[]',
                    read_title TEXT, read_set TEXT, read_number TEXT,
                    pool TEXT NOT NULL DEFAULT '',
                    finish TEXT NOT NULL,
                    condition TEXT NOT NULL,
                    language TEXT,
                    created_at DATETIME NOT NULL,
                    entry_id INTEGER
                );
                CREATE INDEX review_batch ON review(batch_id);
                """)
        }
        m.registerMigration("v2-lookup-indexes") { db in
            // `undo` and `review` look rows up by batch and state.
            try db.execute(sql: """
                CREATE INDEX photo_batch ON photo(batch_id);
                CREATE INDEX review_state ON review(state, id);
                """)
        }
        m.registerMigration("v3-interop") { db in
            // Conditions M and EX, the details other apps record (trade count, proxy, altered,
            // signed, misprint, price currency, binder, set name as given, named foil, note), wish list
            // rows kept apart from owned ones, and the files already imported. SQLite cannot change
            // a CHECK constraint, so `entry` is rebuilt; every existing row is copied unchanged.
            let columns = """
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                scryfall_id TEXT NOT NULL,
                name TEXT NOT NULL,
                set_code TEXT NOT NULL,
                collector_number TEXT NOT NULL,
                language TEXT NOT NULL,
                rarity TEXT,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                finish TEXT NOT NULL CHECK (finish IN ('nonfoil', 'foil', 'etched')),
                condition TEXT NOT NULL CHECK (condition IN ('M', 'NM', 'EX', 'LP', 'MP', 'HP', 'DMG')),
                pool TEXT NOT NULL DEFAULT '',
                tags TEXT NOT NULL DEFAULT '',
                added_at INTEGER NOT NULL, -- Unix time in milliseconds (exact round trips)
                source_path TEXT,
                source_hash TEXT,
                batch_id INTEGER REFERENCES batch(id),
                purchase_price TEXT,
                trade_quantity INTEGER NOT NULL DEFAULT 0 CHECK (trade_quantity >= 0),
                proxy INTEGER NOT NULL DEFAULT 0,
                altered INTEGER NOT NULL DEFAULT 0,
                signed INTEGER NOT NULL DEFAULT 0,
                misprint INTEGER NOT NULL DEFAULT 0,
                price_currency TEXT,
                binder TEXT NOT NULL DEFAULT '',
                binder_type TEXT NOT NULL DEFAULT 'binder' CHECK (binder_type IN ('binder', 'deck', 'list')),
                set_name TEXT,
                foil_kind TEXT,
                note TEXT
                """
            try db.execute(sql: """
                CREATE TABLE entry_v3 (\(columns));
                INSERT INTO entry_v3 (id, scryfall_id, name, set_code, collector_number, language, rarity, quantity, finish, condition,
                                      pool, tags, added_at, source_path, source_hash, batch_id, purchase_price)
                    SELECT id, scryfall_id, name, set_code, collector_number, language, rarity, quantity, finish, condition,
                           pool, tags, added_at, source_path, source_hash, batch_id, purchase_price FROM entry;
                DROP TABLE entry;
                ALTER TABLE entry_v3 RENAME TO entry;
                CREATE INDEX entry_pool ON entry(pool, set_code, collector_number);
                CREATE INDEX entry_batch ON entry(batch_id);
                CREATE TABLE wanted (\(columns));
                CREATE INDEX wanted_batch ON wanted(batch_id);
                CREATE TABLE csv_file (
                    hash TEXT PRIMARY KEY NOT NULL, -- SHA-256 of the file's bytes
                    path TEXT NOT NULL,
                    batch_id INTEGER REFERENCES batch(id),
                    imported_at DATETIME NOT NULL
                );
                CREATE INDEX csv_file_batch ON csv_file(batch_id);
                """)
        }
        m.registerMigration("v4-card-quad") { db in
            // Where each imported card lies in its photo (`CardPlace`), so the review and
            // collection pages can show the card cut out of the photo. NULL for rows from files,
            // added by hand or imported before.
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN quad TEXT;
                ALTER TABLE wanted ADD COLUMN quad TEXT;
                ALTER TABLE review ADD COLUMN quad TEXT;
                """)
        }
        return m
    }

    /// The schema version (last applied migration).
    public func schemaVersion() throws -> String? {
        try db.read { try Self.migrator.completedMigrations($0).last }
    }

    /// Runs `body` in an IMMEDIATE transaction (takes the write lock up front, waiting up to the
    /// busy timeout for another process).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try db.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as CollectionError {
            throw error
        } catch {
            throw CollectionError.corrupt(path: url.path, reason: Self.reason(error))
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try db.read(body) } catch let error as CollectionError { throw error } catch {
            throw CollectionError.corrupt(path: url.path, reason: Self.reason(error))
        }
    }

    // MARK: - Batches

    /// Starts an import batch (the unit of `undo`).
    public func beginBatch(kind: String, description: String) throws -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT INTO batch (kind, description, started_at) VALUES (?, ?, ?)", arguments: [kind, description, Date()])
            return db.lastInsertedRowID
        }
    }

    /// Ends a batch; a batch that recorded nothing is deleted so `undo` never picks an empty one.
    /// Returns whether the batch was kept.
    @discardableResult
    public func finishBatch(_ id: Int64) throws -> Bool {
        try write { db in
            let used = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM photo WHERE batch_id = ?1) OR EXISTS (SELECT 1 FROM entry WHERE batch_id = ?1)
                    OR EXISTS (SELECT 1 FROM review WHERE batch_id = ?1)
                """, arguments: [id]) ?? false
            if used {
                try db.execute(sql: "UPDATE batch SET finished_at = ? WHERE id = ?", arguments: [Date(), id])
            } else {
                try db.execute(sql: "DELETE FROM batch WHERE id = ?", arguments: [id])
            }
            return used
        }
    }

    public func batches() throws -> [Batch] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM batch ORDER BY id").map(Self.batch) }
    }

    static func batch(_ r: Row) -> Batch {
        Batch(id: r["id"], kind: r["kind"], description: r["description"], startedAt: r["started_at"], finishedAt: r["finished_at"])
    }

    // MARK: - Photos

    /// Where a photo went.
    public enum PhotoOutcome: Sendable, Equatable {
        case added(entryID: Int64)
        case review(reviewID: Int64)
        /// Another import recorded the same bytes first.
        case alreadyImported(path: String)
    }

    /// The path under which these bytes were imported, if they were.
    public func importedPath(hash: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT path FROM photo WHERE hash = ?", arguments: [hash]) }
    }

    /// Moves the cards of an imported photo (its entries and pending review items) into `pool`
    /// (`import --pool` of photos imported before). Returns the entries moved (0 when all were there).
    @discardableResult
    public func movePhoto(hash: String, toPool pool: String) throws -> Int {
        try write { db in
            try db.execute(sql: "UPDATE review SET pool = ? WHERE source_hash = ? AND state = 'pending' AND pool <> ?", arguments: [pool, hash, pool])
            try db.execute(sql: "UPDATE entry SET pool = ? WHERE source_hash = ? AND pool <> ?", arguments: [pool, hash, pool])
            return db.changesCount
        }
    }

    /// Records an identified photo and its entry in one transaction.
    public func recordIdentified(hash: String, path: String, entry: Entry, batchID: Int64) throws -> PhotoOutcome {
        try recordPhoto(hash: hash, path: path, cards: [.identified(entry)], batchID: batchID)[0]
    }

    /// Records an ambiguous/unidentified photo and its review item in one transaction.
    public func recordForReview(hash: String, path: String, matchStatus: String, candidates: [ReviewCandidate],
                                read: (title: String?, set: String?, number: String?),
                                pool: String, finish: Finish, condition: Condition, language: String?,
                                batchID: Int64) throws -> PhotoOutcome {
        let item = ReviewSubmission(matchStatus: matchStatus, candidates: candidates, readTitle: read.title, readSet: read.set,
                                    readNumber: read.number, pool: pool, finish: finish, condition: condition, language: language)
        return try recordPhoto(hash: hash, path: path, cards: [.review(item)], batchID: batchID)[0]
    }

    /// Records a photo and every card found on it (entries and review items) in one transaction:
    /// a crash keeps all of them or none, and the photo's hash is recorded once, so importing it
    /// again adds nothing. Returns one outcome per card, in order, or a single `alreadyImported`
    /// when another import recorded the same bytes first.
    public func recordPhoto(hash: String, path: String, cards: [PhotoCard], batchID: Int64) throws -> [PhotoOutcome] {
        precondition(!cards.isEmpty, "a photo is recorded with at least one card")
        return try write { db in
            // `cardscan undo` in another process may have removed this import's batch meanwhile.
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM batch WHERE id = ?)", arguments: [batchID]) == true else {
                throw CollectionError.invalid("\(path): not recorded: this import's batch \(batchID) was undone (`cardscan undo`) while it ran, "
                    + "with the photos it had recorded; run the import again to add them")
            }
            if let previous = try String.fetchOne(db, sql: "SELECT path FROM photo WHERE hash = ?", arguments: [hash]) {
                return [.alreadyImported(path: previous)]
            }
            var outcomes: [PhotoOutcome] = []
            for card in cards {
                switch card {
                case .identified(let entry):
                    var e = entry
                    e.sourcePath = path; e.sourceHash = hash; e.batchID = batchID
                    outcomes.append(.added(entryID: try Self.insert(e, db)))
                case .review(let item):
                    let json = String(decoding: try JSONEncoder().encode(item.candidates), as: UTF8.self)
                    try db.execute(sql: """
                        INSERT INTO review (batch_id, source_path, source_hash, match_status, candidates, read_title, read_set, read_number,
                                            pool, finish, condition, language, created_at, quad)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [batchID, path, hash, item.matchStatus, json, item.readTitle, item.readSet, item.readNumber,
                                         item.pool, item.finish.rawValue, item.condition.rawValue, item.language, Date(), item.quad])
                    outcomes.append(.review(reviewID: db.lastInsertedRowID))
                }
            }
            // 'added' when any card went into the collection, else 'review'.
            let added = outcomes.contains { if case .added = $0 { true } else { false } }
            try db.execute(sql: "INSERT INTO photo (hash, path, batch_id, outcome, imported_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [hash, path, batchID, added ? "added" : "review", Date()])
            return outcomes
        }
    }

    /// Number of photos recorded (added or sent to review).
    public func photoCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo") ?? 0 }
    }

    // MARK: - Entries

    /// Refuses a quantity outside 1…``Entry/maxQuantity``, naming the row. Every write of a
    /// quantity (import, CSV import, `add`, review accept) passes here.
    static func checkQuantity(_ quantity: Int, of e: Entry) throws {
        guard (1...Entry.maxQuantity).contains(quantity) else {
            throw CollectionError.invalid("\(e.name) (\(e.setCode.uppercased()) #\(e.collectorNumber)): quantity \(quantity) is not between 1 and "
                + "\(Entry.maxQuantity); nothing was written")
        }
    }

    /// A row's quantity in SQL, read no higher than the bound: a collection written before the
    /// bound may hold a larger one, and its sums must neither overflow nor hide the other rows.
    static let boundedQuantity = "MIN(quantity, \(Entry.maxQuantity))"

    static func insert(_ e: Entry, _ db: Database, table: String = "entry") throws -> Int64 {
        try checkQuantity(e.quantity, of: e)
        let d = e.details
        // A cached statement: a 100,000-row file import inserts as many rows.
        try db.cachedStatement(sql: """
            INSERT INTO \(table) (scryfall_id, name, set_code, collector_number, language, rarity, quantity, finish, condition,
                               pool, tags, added_at, source_path, source_hash, batch_id, purchase_price,
                               trade_quantity, proxy, altered, signed, misprint, price_currency, binder, binder_type, set_name, foil_kind, note, quad)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [e.scryfallID, e.name, e.setCode.lowercased(), e.collectorNumber, e.language, e.rarity, e.quantity,
                             e.finish.rawValue, e.condition.rawValue, e.pool, e.tags.joined(separator: ","), Dates.milliseconds(e.addedAt),
                             e.sourcePath, e.sourceHash, e.batchID, e.purchasePrice,
                             d.tradeQuantity, d.proxy, d.altered, d.signed, d.misprint, d.currency, d.binder, d.binderType.rawValue,
                             d.setName, d.foilKind?.rawValue, d.note, e.quad])
        return db.lastInsertedRowID
    }

    static func entry(_ r: Row) -> Entry {
        let tags: String = r["tags"]
        var e = Entry(id: r["id"], scryfallID: r["scryfall_id"], name: r["name"], setCode: r["set_code"],
                     collectorNumber: r["collector_number"], language: r["language"], rarity: r["rarity"],
                     quantity: min(r["quantity"], Entry.maxQuantity), finish: Finish(rawValue: r["finish"]) ?? .nonfoil,
                     condition: Condition(rawValue: r["condition"]) ?? .nm, pool: r["pool"],
                     tags: tags.split(separator: ",").map(String.init), addedAt: Dates.date(milliseconds: r["added_at"]),
                     sourcePath: r["source_path"], sourceHash: r["source_hash"], batchID: r["batch_id"],
                     purchasePrice: r["purchase_price"],
                     details: CardDetails(tradeQuantity: r["trade_quantity"], proxy: r["proxy"], altered: r["altered"], signed: r["signed"],
                                          misprint: r["misprint"], currency: r["price_currency"], binder: r["binder"],
                                          binderType: BinderType(rawValue: r["binder_type"]) ?? .binder, setName: r["set_name"],
                                          foilKind: (r["foil_kind"] as String?).flatMap(FoilKind.init(rawValue:)), note: r["note"]))
        e.quad = r["quad"]
        return e
    }

    /// Entries of one pool ("" = the main collection), or of everything when `pool` is nil.
    /// `wanted`: the wish list rows instead of the owned ones.
    public func entries(pool: String? = nil, wanted: Bool = false) throws -> [Entry] {
        let table = wanted ? "wanted" : "entry"
        return try read { db in
            let rows = pool == nil
                ? try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY pool, name, set_code, collector_number, id")
                : try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE pool = ? ORDER BY name, set_code, collector_number, id", arguments: [pool])
            return rows.map(Self.entry)
        }
    }

    /// Entries merged per printing, finish, condition, language, pool, tags, price and details.
    /// `wanted`: the wish list rows instead of the owned ones.
    public func holdings(pool: String? = nil, wanted: Bool = false) throws -> [Holding] {
        var merged: [String: Holding] = [:]
        var order: [String] = []
        for e in try entries(pool: pool, wanted: wanted) {
            let d = e.details
            let key = [e.scryfallID, e.name, e.setCode, e.collectorNumber, e.language, e.finish.rawValue, e.condition.rawValue,
                       e.pool, e.tags.joined(separator: ","), e.purchasePrice ?? "", String(d.tradeQuantity), "\(d.proxy)\(d.altered)\(d.signed)\(d.misprint)",
                       d.currency ?? "", d.binder, d.binderType.rawValue, d.setName ?? "", d.foilKind?.rawValue ?? "", d.note ?? ""].joined(separator: "\u{1F}")
            if var h = merged[key] {
                h.quantity += e.quantity
                h.addedAt = min(h.addedAt, e.addedAt)
                if h.rarity == nil { h.rarity = e.rarity }
                merged[key] = h
            } else {
                order.append(key)
                merged[key] = Holding(scryfallID: e.scryfallID, name: e.name, setCode: e.setCode, collectorNumber: e.collectorNumber,
                                      language: e.language, rarity: e.rarity, quantity: e.quantity, finish: e.finish,
                                      condition: e.condition, pool: e.pool, tags: e.tags, addedAt: e.addedAt, purchasePrice: e.purchasePrice,
                                      details: e.details)
            }
        }
        return order.compactMap { merged[$0] }
    }

    /// Total number of cards (sum of quantities) in a pool, or everywhere when nil.
    public func cardCount(pool: String? = nil) throws -> Int {
        try read { db in
            pool == nil ? try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(\(Self.boundedQuantity)), 0) FROM entry") ?? 0
                : try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(\(Self.boundedQuantity)), 0) FROM entry WHERE pool = ?", arguments: [pool]) ?? 0
        }
    }

    /// Pools with their card and row counts (the main collection, "", is not a pool).
    public func pools() throws -> [(name: String, cards: Int, entries: Int)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT pool, SUM(\(Self.boundedQuantity)) AS cards, COUNT(*) AS n FROM entry WHERE pool <> '' GROUP BY pool ORDER BY pool")
                .map { (name: $0["pool"], cards: $0["cards"], entries: $0["n"]) }
        }
    }

    /// Renames a pool: its entries, and the pending review items that would go to it. `new` = ""
    /// moves its cards into the main collection. Throws when the pool holds nothing or `new` is
    /// another pool already (pools are not merged by a rename). Returns the entries moved.
    @discardableResult
    public func renamePool(_ old: String, to new: String) throws -> Int {
        guard !old.isEmpty else { throw CollectionError.invalid("the main collection is not a pool; name a pool to rename") }
        return try write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE pool = ?", arguments: [old]) ?? 0
            guard count > 0 else { throw CollectionError.notFound("no pool \"\(old)\"") }
            if !new.isEmpty, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM entry WHERE pool = ?)", arguments: [new]) == true {
                throw CollectionError.invalid("pool \"\(new)\" already exists; pick another name (a rename never merges pools)")
            }
            try db.execute(sql: "UPDATE entry SET pool = ? WHERE pool = ?", arguments: [new, old])
            try db.execute(sql: "UPDATE review SET pool = ? WHERE pool = ? AND state = 'pending'", arguments: [new, old])
            return count
        }
    }

    /// Deletes a pool's entries (its cards leave the collection). Returns the entries and cards removed.
    @discardableResult
    public func deletePool(_ name: String) throws -> (entries: Int, cards: Int) {
        guard !name.isEmpty else { throw CollectionError.invalid("the main collection is not a pool") }
        return try write { db in
            let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE pool = ?", arguments: [name]) ?? 0
            guard entries > 0 else { throw CollectionError.notFound("no pool \"\(name)\"") }
            let cards = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(\(Self.boundedQuantity)), 0) FROM entry WHERE pool = ?", arguments: [name]) ?? 0
            try db.execute(sql: "UPDATE review SET entry_id = NULL WHERE entry_id IN (SELECT id FROM entry WHERE pool = ?)", arguments: [name])
            try db.execute(sql: "DELETE FROM entry WHERE pool = ?", arguments: [name])
            return (entries, cards)
        }
    }

    /// Adds copies by hand: merges into a hand-added row with the same printing, finish,
    /// condition, language, pool and tags, else inserts one. Returns the row.
    @discardableResult
    public func add(_ entry: Entry) throws -> Entry {
        try Self.checkQuantity(entry.quantity, of: entry)
        return try write { db in
            if let row = try Row.fetchOne(db, sql: """
                SELECT * FROM entry WHERE scryfall_id = ? AND set_code = ? AND collector_number = ? AND language = ? AND finish = ?
                    AND condition = ? AND pool = ? AND tags = ? AND source_hash IS NULL AND batch_id IS NULL
                ORDER BY id LIMIT 1
                """, arguments: [entry.scryfallID, entry.setCode.lowercased(), entry.collectorNumber, entry.language, entry.finish.rawValue,
                                 entry.condition.rawValue, entry.pool, entry.tags.joined(separator: ",")]) {
                var existing = Self.entry(row)
                try Self.checkQuantity(existing.quantity + entry.quantity, of: existing)
                existing.quantity += entry.quantity
                try db.execute(sql: "UPDATE entry SET quantity = ? WHERE id = ?", arguments: [existing.quantity, existing.id])
                return existing
            }
            var e = entry
            e.sourceHash = nil; e.sourcePath = nil; e.batchID = nil
            e.id = try Self.insert(e, db)
            return e
        }
    }

    /// Removes `quantity` copies of a printing from a pool (of the given finish, condition and
    /// language; any when nil), taking hand-added rows first, then the most recently added.
    /// Removes nothing and throws when fewer copies are held. Returns the rows touched (with their
    /// new quantity, 0 = deleted).
    @discardableResult
    public func remove(set: String, number: String, quantity: Int, pool: String = "",
                       finish: Finish? = nil, condition: Condition? = nil, language: String? = nil) throws -> [Entry] {
        guard quantity > 0 else { throw CollectionError.invalid("quantity must be at least 1") }
        return try write { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM entry WHERE set_code = ? AND (collector_number = ? OR ltrim(collector_number, '0') = ltrim(?, '0')) AND pool = ?
                    AND (?5 IS NULL OR finish = ?5) AND (?6 IS NULL OR condition = ?6) AND (?7 IS NULL OR language = ?7)
                ORDER BY (source_hash IS NULL) DESC, added_at DESC, id DESC
                """, arguments: [set.lowercased(), number, number, pool, finish?.rawValue, condition?.rawValue, language]).map(Self.entry)
            let held = rows.reduce(0) { $0 + $1.quantity }
            let kind = [finish?.rawValue, condition?.rawValue, language].compactMap { $0 }.joined(separator: " ")
            let place = (kind.isEmpty ? "" : "\(kind) copies in ") + (pool.isEmpty ? "the collection" : "pool \"\(pool)\"")
            guard held >= quantity else {
                throw CollectionError.notFound(held == 0 ? "\(set.lowercased()) \(number): not in \(place)"
                    : "\(set.lowercased()) \(number): only \(held) cop\(held == 1 ? "y" : "ies") in \(place), cannot remove \(quantity)")
            }
            var left = quantity
            var touched: [Entry] = []
            for var e in rows where left > 0 {
                let take = min(left, e.quantity)
                left -= take
                e.quantity -= take
                if e.quantity == 0 {
                    try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [e.id])
                    try db.execute(sql: "UPDATE review SET entry_id = NULL WHERE entry_id = ?", arguments: [e.id])
                } else {
                    try db.execute(sql: "UPDATE entry SET quantity = ? WHERE id = ?", arguments: [e.quantity, e.id])
                }
                touched.append(e)
            }
            return touched
        }
    }

    /// Imports holdings (from a CSV or JSON file) as one batch, in one transaction. Wish list rows
    /// (`details.wanted`) go to the wish list, not the collection. Returns the batch id.
    @discardableResult
    public func importHoldings(_ holdings: [Holding], description: String) throws -> Int64 {
        guard case .imported(let batch) = try importFile(holdings, description: description, file: nil) else { return 0 }
        return batch
    }

    /// What `importFile` did.
    public enum FileImportOutcome: Sendable, Equatable {
        case imported(batch: Int64)
        /// The same bytes were imported before (from `path`, in `batch`); nothing was added.
        case alreadyImported(path: String, batch: Int64?)
        /// The file held no row to add; nothing was recorded.
        case empty
    }

    /// Imports the holdings of one file as one batch, in one transaction. With `file` (the SHA-256
    /// of its bytes and its path), a file imported before adds nothing unless `again` is true, the
    /// way photos are recognised by content.
    public func importFile(_ holdings: [Holding], description: String, file: (hash: String, path: String)?,
                           again: Bool = false) throws -> FileImportOutcome {
        try importFile(description: description, file: file, again: again) { insert in
            for h in holdings { try insert(h) }
        }
    }

    /// The same, with the rows handed over one at a time by `rows` (which calls `insert` for each)
    /// while the file is read, so a large file is never held as rows in memory. An error thrown by
    /// `rows` rolls the whole import back.
    public func importFile(description: String, file: (hash: String, path: String)?, again: Bool = false,
                           rows: (_ insert: (Holding) throws -> Void) throws -> Void) throws -> FileImportOutcome {
        try write { db in
            if let file, !again, let row = try Row.fetchOne(db, sql: "SELECT path, batch_id FROM csv_file WHERE hash = ?", arguments: [file.hash]) {
                return .alreadyImported(path: row["path"], batch: row["batch_id"])
            }
            try db.execute(sql: "INSERT INTO batch (kind, description, started_at, finished_at) VALUES ('csv', ?, ?, ?)",
                           arguments: [description, Date(), Date()])
            let batch = db.lastInsertedRowID
            var inserted = 0
            try rows { h in
                guard h.quantity > 0 else { return }
                _ = try Self.insert(h.entry(batchID: batch), db, table: h.details.wanted ? "wanted" : "entry")
                inserted += 1
            }
            guard inserted > 0 else {
                try db.execute(sql: "DELETE FROM batch WHERE id = ?", arguments: [batch])
                return .empty
            }
            if let file {
                try db.execute(sql: "INSERT OR REPLACE INTO csv_file (hash, path, batch_id, imported_at) VALUES (?, ?, ?, ?)",
                               arguments: [file.hash, file.path, batch, Date()])
            }
            return .imported(batch: batch)
        }
    }

    /// Fills the Scryfall id (and rarity) of rows that were kept as given because the catalog did
    /// not know their printing when they were imported (a set newer than the catalog), now that
    /// `resolve` (the updated catalog) does. Owned and wish list rows. Returns the rows resolved.
    @discardableResult
    public func resolveUnknownPrintings(_ resolve: CollectionFiles.Resolver) throws -> Int {
        let pending = try read { db in
            try ["entry", "wanted"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT id, set_code, collector_number, language FROM \(table) WHERE scryfall_id = '' AND set_code <> '' AND collector_number <> ''")
                    .map { (table, $0["id"] as Int64, $0["set_code"] as String, $0["collector_number"] as String, $0["language"] as String) }
            }
        }
        let found = pending.compactMap { row in resolve(row.2, row.3, row.4).map { (row.0, row.1, $0) } }
        guard !found.isEmpty else { return 0 }
        return try write { db in
            for (table, id, p) in found {
                try db.execute(sql: "UPDATE \(table) SET scryfall_id = ?, rarity = COALESCE(rarity, ?) WHERE id = ? AND scryfall_id = ''",
                               arguments: [p.id, p.rarity, id])
            }
            return found.count
        }
    }

    // MARK: - Review queue

    static func reviewItem(_ r: Row) -> ReviewItem {
        let json: String = r["candidates"]
        let candidates = (try? JSONDecoder().decode([ReviewCandidate].self, from: Data(json.utf8))) ?? []
        return ReviewItem(id: r["id"], batchID: r["batch_id"], sourcePath: r["source_path"], sourceHash: r["source_hash"],
                          matchStatus: r["match_status"], state: ReviewItem.State(rawValue: r["state"]) ?? .pending,
                          candidates: candidates, readTitle: r["read_title"], readSet: r["read_set"], readNumber: r["read_number"],
                          pool: r["pool"], finish: Finish(rawValue: r["finish"]) ?? .nonfoil,
                          condition: Condition(rawValue: r["condition"]) ?? .nm, language: r["language"],
                          createdAt: r["created_at"], entryID: r["entry_id"], quad: r["quad"])
    }

    /// Review items, pending ones only unless `all`.
    public func reviewItems(all: Bool = false) throws -> [ReviewItem] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM review \(all ? "" : "WHERE state = 'pending'") ORDER BY id").map(Self.reviewItem)
        }
    }

    public func reviewItem(id: Int64) throws -> ReviewItem {
        guard let item = try read({ db in try Row.fetchOne(db, sql: "SELECT * FROM review WHERE id = ?", arguments: [id]).map(Self.reviewItem) }) else {
            throw CollectionError.notFound("review item \(id): no such item (see `cardscan review`)")
        }
        return item
    }

    /// Resolves a pending review item with a printing: adds an entry (with the import's options and
    /// the photo as source, in the import's batch so `undo` removes it too).
    @discardableResult
    public func accept(reviewID: Int64, printing: ReviewCandidate) throws -> Entry {
        try write { db in
            let item = try Self.pendingReviewItem(reviewID, db)
            var e = Entry(scryfallID: printing.id, name: printing.name, setCode: printing.set, collectorNumber: printing.collectorNumber,
                          language: item.language ?? printing.language, rarity: printing.rarity, quantity: 1, finish: item.finish,
                          condition: item.condition, pool: item.pool, sourcePath: item.sourcePath, sourceHash: item.sourceHash,
                          batchID: item.batchID)
            e.quad = item.quad
            e.id = try Self.insert(e, db)
            try db.execute(sql: "UPDATE review SET state = 'accepted', entry_id = ? WHERE id = ?", arguments: [e.id, reviewID])
            return e
        }
    }

    /// The review item `reviewID`, which must still be pending.
    private static func pendingReviewItem(_ reviewID: Int64, _ db: Database) throws -> ReviewItem {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM review WHERE id = ?", arguments: [reviewID]) else {
            throw CollectionError.notFound("review item \(reviewID): no such item (see `cardscan review`)")
        }
        let item = reviewItem(row)
        guard item.state == .pending else {
            throw CollectionError.invalid("review item \(reviewID): already \(item.state.rawValue) (\(item.sourcePath))")
        }
        return item
    }

    /// Rejects a pending review item (the photo stays recorded, so a re-import skips it).
    public func reject(reviewID: Int64) throws {
        try write { db in
            _ = try Self.pendingReviewItem(reviewID, db) // it must exist and be pending
            try db.execute(sql: "UPDATE review SET state = 'rejected' WHERE id = ?", arguments: [reviewID])
        }
    }

    // MARK: - Undo

    /// Reverts the most recent import batch (photos or CSV): its entries (including those accepted
    /// from its review items), its review items and its photo hashes, so importing again works.
    /// Returns nil when there is nothing to undo.
    public func undoLastBatch() throws -> UndoReport? {
        try write { db in
            // The newest batch that recorded something (an interrupted import may leave an empty one).
            guard let row = try Row.fetchOne(db, sql: """
                SELECT * FROM batch b WHERE EXISTS (SELECT 1 FROM photo WHERE batch_id = b.id)
                    OR EXISTS (SELECT 1 FROM entry WHERE batch_id = b.id) OR EXISTS (SELECT 1 FROM review WHERE batch_id = b.id)
                    OR EXISTS (SELECT 1 FROM wanted WHERE batch_id = b.id) OR EXISTS (SELECT 1 FROM csv_file WHERE batch_id = b.id)
                ORDER BY id DESC LIMIT 1
                """) else { return nil }
            let batch = Self.batch(row)
            let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE batch_id = ?", arguments: [batch.id]) ?? 0
            let cards = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(\(Self.boundedQuantity)), 0) FROM entry WHERE batch_id = ?", arguments: [batch.id]) ?? 0
            let reviews = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM review WHERE batch_id = ?", arguments: [batch.id]) ?? 0
            let photos = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE batch_id = ?", arguments: [batch.id]) ?? 0
            try db.execute(sql: "DELETE FROM entry WHERE batch_id = ?", arguments: [batch.id])
            try db.execute(sql: "DELETE FROM review WHERE batch_id = ?", arguments: [batch.id])
            try db.execute(sql: "DELETE FROM photo WHERE batch_id = ?", arguments: [batch.id])
            try db.execute(sql: "DELETE FROM wanted WHERE batch_id = ?", arguments: [batch.id])
            try db.execute(sql: "DELETE FROM csv_file WHERE batch_id = ?", arguments: [batch.id])
            try db.execute(sql: "DELETE FROM batch WHERE id = ?", arguments: [batch.id])
            return UndoReport(batch: batch, entriesRemoved: entries, cardsRemoved: cards, reviewItemsRemoved: reviews, photosForgotten: photos)
        }
    }
}
