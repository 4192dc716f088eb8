import Foundation
import GRDB

/// Browsing and editing single entries: what the collection page (`cardscan serve`) does,
/// through the same store as the CLI so `undo` and the exports see every edit.
extension CollectionStore {
    /// How an entry came in: identified on import, accepted from review, or neither (a file, `add`).
    public enum Origin: String, Sendable, Codable, CaseIterable { case identified, reviewed, other }

    /// What to show of the collection. Nil fields do not filter.
    public struct EntryFilter: Sendable {
        /// Part of the name, case-insensitive.
        public var name: String?
        public var set: String?
        /// "" = the main collection.
        public var pool: String?
        public var finish: Finish?
        public var condition: Condition?
        public var origin: Origin?
        public init(name: String? = nil, set: String? = nil, pool: String? = nil, finish: Finish? = nil,
                    condition: Condition? = nil, origin: Origin? = nil) {
            self.name = name; self.set = set; self.pool = pool; self.finish = finish; self.condition = condition; self.origin = origin
        }

        /// The WHERE clause and its arguments.
        var sql: (String, StatementArguments) {
            var clauses: [String] = [], args: [DatabaseValueConvertible?] = []
            if let name, !name.isEmpty { clauses.append("name LIKE ? ESCAPE '\\'"); args.append("%" + Self.escaped(name) + "%") }
            if let set, !set.isEmpty { clauses.append("set_code = ?"); args.append(set.lowercased()) }
            if let pool { clauses.append("pool = ?"); args.append(pool) }
            if let finish { clauses.append("finish = ?"); args.append(finish.rawValue) }
            if let condition { clauses.append("condition = ?"); args.append(condition.rawValue) }
            switch origin {
            case .reviewed?: clauses.append(CollectionStore.reviewedSQL)
            case .identified?: clauses.append("source_hash IS NOT NULL AND NOT \(CollectionStore.reviewedSQL)")
            case .other?: clauses.append("source_hash IS NULL")
            case nil: break
            }
            return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), StatementArguments(args))
        }

        static func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        }
    }

    static let reviewedSQL = "EXISTS (SELECT 1 FROM review r WHERE r.entry_id = entry.id)"

    /// One page of the entries matching `filter` (by name, set, number, id), the number matching,
    /// and the origin of each entry on the page.
    public func entries(matching filter: EntryFilter, limit: Int, offset: Int) throws -> (entries: [(Entry, Origin)], total: Int) {
        let (whereSQL, args) = filter.sql
        return try read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry \(whereSQL)", arguments: args) ?? 0
            var pageArgs = args
            pageArgs += [limit, offset]
            let rows = try Row.fetchAll(db, sql: """
                SELECT entry.*, \(Self.reviewedSQL) AS reviewed FROM entry \(whereSQL)
                ORDER BY name, set_code, collector_number, id LIMIT ? OFFSET ?
                """, arguments: pageArgs)
            return (rows.map { r in
                let e = Self.entry(r)
                let origin: Origin = r["reviewed"] ? .reviewed : (e.sourceHash == nil ? .other : .identified)
                return (e, origin)
            }, total)
        }
    }

    /// Cards and rows in all, per set and per pool among the entries matching `filter`, and the
    /// copies per printing and finish (for pricing): one pass over the rows.
    public struct Totals: Sendable, Codable, Equatable {
        public struct Group: Sendable, Codable, Equatable {
            public var key: String
            public var cards: Int
            public var entries: Int
        }
        public struct Copies: Sendable, Codable, Equatable {
            public var scryfallID: String, setCode: String, pool: String
            public var finish: Finish
            public var quantity: Int
        }
        public var cards: Int
        public var entries: Int
        public var bySet: [Group]
        public var byPool: [Group]
        public var copies: [Copies]
    }

    public func totals(matching filter: EntryFilter) throws -> Totals {
        let (whereSQL, args) = filter.sql
        let rows = try read { db in
            try Row.fetchAll(db, sql: """
                SELECT scryfall_id, set_code, pool, finish, SUM(\(Self.boundedQuantity)) AS q, COUNT(*) AS n FROM entry \(whereSQL)
                GROUP BY scryfall_id, set_code, pool, finish
                """, arguments: args)
        }
        var bySet: [String: Totals.Group] = [:], byPool: [String: Totals.Group] = [:], copies: [Totals.Copies] = []
        var cards = 0, entries = 0
        for r in rows {
            let set: String = r["set_code"], pool: String = r["pool"], q: Int = r["q"], n: Int = r["n"]
            cards += q; entries += n
            bySet[set, default: .init(key: set, cards: 0, entries: 0)].cards += q
            bySet[set]!.entries += n
            byPool[pool, default: .init(key: pool, cards: 0, entries: 0)].cards += q
            byPool[pool]!.entries += n
            copies.append(.init(scryfallID: r["scryfall_id"], setCode: set, pool: pool, finish: Finish(rawValue: r["finish"]) ?? .nonfoil, quantity: q))
        }
        return Totals(cards: cards, entries: entries, bySet: bySet.values.sorted { $0.key < $1.key },
                      byPool: byPool.values.sorted { $0.key < $1.key }, copies: copies)
    }

    /// The entry `id`.
    public func entry(id: Int64) throws -> Entry {
        guard let e = try read({ db in try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]).map(Self.entry) }) else {
            throw CollectionError.notFound("entry \(id): no such entry")
        }
        return e
    }

    /// Changes one entry in one transaction: `change` gets the row as stored now (so an edit
    /// made meanwhile elsewhere is kept for the fields not changed here). The quantity is checked
    /// as on every write. Returns the row as stored.
    @discardableResult
    public func updateEntry(id: Int64, _ change: (inout Entry) throws -> Void) throws -> Entry {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE id = ?", arguments: [id]) else {
                throw CollectionError.notFound("entry \(id): no such entry")
            }
            var e = Self.entry(row)
            try change(&e)
            try Self.checkQuantity(e.quantity, of: e)
            try db.execute(sql: """
                UPDATE entry SET scryfall_id = ?, name = ?, set_code = ?, collector_number = ?, rarity = ?, language = ?, quantity = ?,
                    finish = ?, condition = ?, pool = ? WHERE id = ?
                """, arguments: [e.scryfallID, e.name, e.setCode.lowercased(), e.collectorNumber, e.rarity, e.language, e.quantity,
                                 e.finish.rawValue, e.condition.rawValue, e.pool, id])
            return e
        }
    }

    /// Deletes one entry (a review item it came from keeps its state, without the entry).
    public func deleteEntry(id: Int64) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw CollectionError.notFound("entry \(id): no such entry") }
            try db.execute(sql: "UPDATE review SET entry_id = NULL WHERE entry_id = ?", arguments: [id])
        }
    }
}
