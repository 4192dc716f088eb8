import CardCatalog
import CardCollection
import Foundation
import Hummingbird
import NIOCore

/// One entry as the collection page shows it.
struct EntryView: Encodable, Sendable {
    var id: Int64?
    var scryfallId: String
    var name: String
    var set: String
    var collectorNumber: String
    var language: String
    var rarity: String?
    var quantity: Int
    var finish: String
    var condition: String
    var pool: String
    var origin: String
    var sourcePath: String?
    var crop: String?

    init(_ e: Entry, origin: CollectionStore.Origin) {
        id = e.id; scryfallId = e.scryfallID; name = e.name; set = e.setCode; collectorNumber = e.collectorNumber
        language = e.language; rarity = e.rarity; quantity = e.quantity; finish = e.finish.rawValue; condition = e.condition.rawValue
        pool = e.pool; self.origin = origin.rawValue; sourcePath = e.sourcePath
        crop = e.quad == nil || e.id == nil ? nil : "/api/crops/entry/\(e.id!)"
    }
}

/// Totals of the entries shown, with their value where the catalog has prices.
struct TotalsView: Encodable, Sendable {
    struct Group: Encodable, Sendable {
        var key: String
        var cards: Int
        var entries: Int
        var valueUsd: Double?
    }
    var cards: Int
    var entries: Int
    var valueUsd: Double?
    /// Cards with no price in the catalog (not in `valueUsd`).
    var unpricedCards: Int
    /// The date of the Scryfall file the prices come from.
    var priceDate: String?
    var bySet: [Group]
    var byPool: [Group]
}

/// `/api/entries…`, `/api/totals`, `/api/crops`, `/api/export`, `/api/undo`, `/api/pools`.
struct CollectionRoutes {
    let server: CardScanServer

    func add(to api: RouterGroup<BasicRequestContext>) {
        let server = self.server
        api.get("entries") { request, _ in
            let filter = try Self.filter(request)
            let q = request.uri.queryParameters
            let limit = min(max(Int(q["limit"].map(String.init) ?? "") ?? 100, 1), 1000)
            let offset = max(Int(q["offset"].map(String.init) ?? "") ?? 0, 0)
            struct Page: Encodable { var total: Int; var offset: Int; var entries: [EntryView] }
            return try JSON.response(try await blocking {
                let (rows, total) = try server.store.entries(matching: filter, limit: limit, offset: offset)
                return Page(total: total, offset: offset, entries: rows.map { EntryView($0.0, origin: $0.1) })
            })
        }
        api.get("totals") { request, _ in
            let filter = try Self.filter(request)
            return try JSON.response(try await blocking { try server.totals(filter) })
        }
        api.patch("entries/:id") { request, context in
            let id = try context.parameters.id()
            let change = try await JSON.body(EntryChange.self, request)
            return try JSON.response(try await blocking { EntryView(try server.update(id, change), origin: .other) })
        }
        api.delete("entries/:id") { _, context in
            let id = try context.parameters.id()
            try await blocking { try server.store.deleteEntry(id: id) }
            return try JSON.response(["deleted": id])
        }
        api.get("crops/:kind/:id") { _, context in
            let id = try context.parameters.id()
            guard let kind = context.parameters.get("kind"), kind == "review" || kind == "entry" else {
                throw HTTPError(.badRequest, message: "kind must be review or entry")
            }
            let data = try await blocking { try server.crop(kind: kind, id: id) }
            return Response(status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "max-age=86400"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        api.get("export") { request, _ in
            let name = request.uri.queryParameters["format"].map(String.init) ?? "moxfield"
            guard let format = CollectionFormat(rawValue: name) else {
                throw HTTPError(.badRequest, message: "format must be one of \(CollectionFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let pool = request.uri.queryParameters["pool"].map(String.init) ?? ""
            let text = try await blocking {
                let catalog = server.openCatalog()
                let rows = try server.store.holdings(pool: pool) + server.store.holdings(pool: pool, wanted: true)
                return try CollectionFiles.export(rows, format: format, setName: { catalog?.set(code: $0)?.name })
            }
            let type = format == .json ? "application/json" : "text/csv; charset=utf-8"
            return Response(status: .ok, headers: [.contentType: type, .contentDisposition: "attachment; filename=\"collection-\(name).\(format == .json ? "json" : "csv")\""],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        api.post("undo") { _, _ in
            guard let report = try await blocking({ try server.store.undoLastBatch() }) else {
                throw HTTPError(.conflict, message: "nothing to undo")
            }
            return try JSON.response(report)
        }
        api.get("pools") { _, _ in
            struct Pool: Encodable { var name: String; var cards: Int; var entries: Int }
            return try JSON.response(try await blocking { try server.store.pools().map { Pool(name: $0.name, cards: $0.cards, entries: $0.entries) } })
        }
    }

    /// The filter from the query: name, set, pool, finish, condition, origin.
    static func filter(_ request: Request) throws -> CollectionStore.EntryFilter {
        let q = request.uri.queryParameters
        func value(_ k: String) -> String? { q[Substring(k)].map(String.init).flatMap { $0.isEmpty ? nil : $0 } }
        var f = CollectionStore.EntryFilter(name: value("name"), set: value("set"), pool: q["pool"].map(String.init))
        f.finish = try value("finish").map(Checked.finish)
        f.condition = try value("condition").map(Checked.condition)
        if let v = value("origin") {
            guard let o = CollectionStore.Origin(rawValue: v) else { throw HTTPError(.badRequest, message: "origin must be identified, reviewed or other") }
            f.origin = o
        }
        return f
    }
}

/// The fields a PATCH of an entry may change; absent ones are kept.
struct EntryChange: Decodable, Sendable {
    var printing: String?
    var quantity: Int?
    var condition: String?
    var finish: String?
    var language: String?
    var pool: String?
}

extension CardScanServer {
    func update(_ id: Int64, _ change: EntryChange) throws -> Entry {
        var printing: Printing?
        if let p = change.printing {
            guard let catalog = openCatalog(), let found = try catalog.printing(id: p) else {
                throw HTTPError(.badRequest, message: "printing \(p): not in the catalog")
            }
            printing = found
        }
        let condition = try change.condition.map(Checked.condition)
        let finish = try change.finish.map(Checked.finish)
        if let q = change.quantity, !(1...Entry.maxQuantity).contains(q) {
            throw HTTPError(.badRequest, message: "quantity must be between 1 and \(Entry.maxQuantity) (delete the entry to remove it)")
        }
        let language = try change.language.map(Checked.language)
        return try store.updateEntry(id: id) { e in
            if let p = printing {
                e.scryfallID = p.id; e.name = p.name; e.setCode = p.setCode; e.collectorNumber = p.collectorNumber; e.rarity = p.rarity
            }
            if let q = change.quantity { e.quantity = q }
            if let condition { e.condition = condition }
            if let finish { e.finish = finish }
            if let language { e.language = language }
            if let pool = change.pool { e.pool = pool }
        }
    }

    /// Totals, valued at the catalog's USD prices (foil price for foil and etched copies).
    func totals(_ filter: CollectionStore.EntryFilter) throws -> TotalsView {
        let t = try store.totals(matching: filter)
        let catalog = openCatalog()
        var bySet: [String: Double] = [:], byPool: [String: Double] = [:], total = 0.0, unpriced = 0, anyPrice = false
        if let catalog {
            let rows = t.copies
            let known = try catalog.prices(ids: rows.map(\.scryfallID).filter { !$0.isEmpty })
            for row in rows {
                let prices = known[row.scryfallID.lowercased()]
                let text = row.finish == .nonfoil ? prices?.usd : (prices?.usdFoil ?? prices?.usd)
                guard let price = text.flatMap(Double.init) else { unpriced += row.quantity; continue }
                anyPrice = true
                let value = price * Double(row.quantity)
                total += value; bySet[row.setCode, default: 0] += value; byPool[row.pool, default: 0] += value
            }
        } else {
            unpriced = t.cards
        }
        // Scryfall's bulk files carry no date of their own: the file's date when the import knew
        // it, else the day it was imported into the catalog.
        let scryfall = try catalog?.imports().filter { $0.format.lowercased().contains("scryfall") } ?? []
        let date = scryfall.compactMap(\.sourceDate).max() ?? scryfall.map(\.importedAt).max().map { "imported \($0.prefix(10))" }
        func groups(_ g: [CollectionStore.Totals.Group], _ values: [String: Double]) -> [TotalsView.Group] {
            g.map { TotalsView.Group(key: $0.key, cards: $0.cards, entries: $0.entries, valueUsd: values[$0.key].map { ($0 * 100).rounded() / 100 }) }
        }
        return TotalsView(cards: t.cards, entries: t.entries, valueUsd: anyPrice ? (total * 100).rounded() / 100 : nil, unpricedCards: unpriced,
                          priceDate: date, bySet: groups(t.bySet, bySet), byPool: groups(t.byPool, byPool))
    }
}
