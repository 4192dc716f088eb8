import CardCatalog
import CardCollection
import Foundation
import Hummingbird

/// A printing as the pages show it: what tells it from the other printings of the card.
struct PrintingView: Encodable, Sendable {
    var id: String
    var name: String
    var set: String
    var setName: String?
    var collectorNumber: String
    var lang: String
    var rarity: String?
    var year: String?
    var artist: String?
    var frame: String?
    var borderColor: String?
    var flavor: String?
    var priceUsd: String?
    var priceUsdFoil: String?
    var score: Double?

    init(_ p: Printing, catalog: CardCatalog?, score: Double? = nil) {
        id = p.id; name = p.name; set = p.setCode; setName = catalog?.set(code: p.setCode)?.name
        collectorNumber = p.collectorNumber; lang = p.language; rarity = p.rarity
        year = p.releasedAt.map { String($0.prefix(4)) }; artist = p.artist; frame = p.frame
        borderColor = p.borderColor?.rawValue; flavor = p.flavorText
        priceUsd = p.prices?.usd; priceUsdFoil = p.prices?.usdFoil; self.score = score
    }

    /// A candidate stored with a review item, with the catalog's details when it has the printing.
    init(_ c: ReviewCandidate, catalog: CardCatalog?) {
        if let catalog, let p = try? catalog.printing(id: c.id) {
            self.init(p, catalog: catalog, score: c.score)
        } else {
            self.init(id: c.id, name: c.name, set: c.set, collectorNumber: c.collectorNumber, lang: c.language, rarity: c.rarity, score: c.score)
        }
    }

    /// A printing the catalog does not hold: what the review item stored of it.
    private init(id: String, name: String, set: String, collectorNumber: String, lang: String, rarity: String?, score: Double) {
        self.id = id; self.name = name; self.set = set; self.collectorNumber = collectorNumber; self.lang = lang; self.rarity = rarity
        self.score = score
    }

    var candidate: ReviewCandidate {
        ReviewCandidate(id: id, name: name, set: set, collectorNumber: collectorNumber, language: lang, rarity: rarity, score: score ?? 0)
    }
}

/// One review item as the review page shows it.
struct ReviewView: Encodable, Sendable {
    var id: Int64
    var batchId: Int64?
    var sourcePath: String
    var matchStatus: String
    var state: String
    var readTitle: String?, readSet: String?, readNumber: String?
    var pool: String
    var finish: String
    var condition: String
    var language: String?
    var crop: String?
    var candidates: [PrintingView]
    var entryId: Int64?
}

/// `/api/review…`: the queue, accept (a candidate or any printing), reject, and both in bulk.
struct ReviewRoutes {
    let server: CardScanServer

    func add(to api: RouterGroup<BasicRequestContext>) {
        api.get("review") { request, _ in
            let all = request.uri.queryParameters["state"].map { $0 == "all" } ?? false
            let server = self.server
            return try JSON.response(try await blocking { try server.reviewViews(all: all) })
        }
        api.post("review/:id/accept") { request, context in
            struct Body: Decodable { var printing: String? }
            let id = try context.parameters.id()
            let body = try await JSON.body(Body.self, request)
            let server = self.server
            return try JSON.response(try await blocking { try server.accept(id, printing: body.printing) })
        }
        api.post("review/:id/reject") { _, context in
            let id = try context.parameters.id()
            let server = self.server
            try await blocking { try server.store.reject(reviewID: id) }
            return try JSON.response(["rejected": id])
        }
        api.post("review/bulk") { request, _ in
            struct Body: Decodable { var ids: [Int64]; var action: String }
            let body = try await JSON.body(Body.self, request)
            guard body.action == "accept" || body.action == "reject" else {
                throw HTTPError(.badRequest, message: "action must be \"accept\" (each item's first candidate) or \"reject\"")
            }
            guard !body.ids.isEmpty else { throw HTTPError(.badRequest, message: "ids must name at least one review item") }
            let server = self.server
            return try JSON.response(try await blocking { server.bulk(body.ids, accept: body.action == "accept") })
        }
        api.get("printings") { request, _ in
            let q = request.uri.queryParameters["q"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard !q.isEmpty else { throw HTTPError(.badRequest, message: "q: give a card name, or a set code and a collector number") }
            let server = self.server
            return try JSON.response(try await blocking { try server.searchPrintings(q) })
        }
    }
}

/// The outcome of one item of a bulk action.
struct BulkOutcome: Encodable, Sendable {
    var id: Int64
    var ok: Bool
    var error: String?
    var entryId: Int64?
}

extension CardScanServer {
    func openCatalog() -> CardCatalog? { try? catalog.get() }

    func reviewViews(all: Bool) throws -> [ReviewView] {
        let catalog = openCatalog()
        return try store.reviewItems(all: all).map { view($0, catalog: catalog) }
    }

    func view(_ item: ReviewItem, catalog: CardCatalog?) -> ReviewView {
        ReviewView(id: item.id, batchId: item.batchID, sourcePath: item.sourcePath, matchStatus: item.matchStatus, state: item.state.rawValue,
                   readTitle: item.readTitle, readSet: item.readSet, readNumber: item.readNumber, pool: item.pool,
                   finish: item.finish.rawValue, condition: item.condition.rawValue, language: item.language,
                   crop: item.quad == nil ? nil : "/api/crops/review/\(item.id)",
                   candidates: item.candidates.map { PrintingView($0, catalog: catalog) }, entryId: item.entryID)
    }

    /// Accepts review item `id` as `printing` (a Scryfall id, from its candidates or any
    /// printing of the catalog), or as its first candidate when nil.
    func accept(_ id: Int64, printing: String?) throws -> Entry {
        let item = try store.reviewItem(id: id)
        let chosen: ReviewCandidate
        if let printing {
            if let c = item.candidates.first(where: { $0.id == printing }) {
                chosen = c
            } else if let catalog = openCatalog(), let p = try catalog.printing(id: printing) {
                chosen = PrintingView(p, catalog: catalog).candidate
            } else {
                throw HTTPError(.badRequest, message: "printing \(printing): not a candidate of review item \(id) nor a printing of the catalog")
            }
        } else {
            guard let first = item.candidates.first else {
                throw HTTPError(.conflict, message: "review item \(id) has no candidate: name a printing (search by name or set and number)")
            }
            chosen = first
        }
        return try store.accept(reviewID: id, printing: chosen)
    }

    /// Each item accepted (as its first candidate) or rejected on its own: one that fails (already
    /// resolved elsewhere, no candidate) is reported and the others go on.
    func bulk(_ ids: [Int64], accept: Bool) -> [BulkOutcome] {
        ids.map { id in
            do {
                if accept {
                    let e = try self.accept(id, printing: nil)
                    return BulkOutcome(id: id, ok: true, entryId: e.id)
                }
                try store.reject(reviewID: id)
                return BulkOutcome(id: id, ok: true)
            } catch let e as HTTPError {
                return BulkOutcome(id: id, ok: false, error: e.body)
            } catch {
                return BulkOutcome(id: id, ok: false, error: "\(error)")
            }
        }
    }

    /// Printings for "SET NUMBER" (e.g. `m19 125`, `m19 #125`) or a name (exact, else fuzzy).
    func searchPrintings(_ q: String) throws -> [PrintingView] {
        guard let catalog = openCatalog() else { throw HTTPError(.serviceUnavailable, message: "no catalog could be opened") }
        let words = q.split(separator: " ").map(String.init)
        if words.count == 2, catalog.set(code: words[0]) != nil {
            let number = words[1].hasPrefix("#") ? String(words[1].dropFirst()) : words[1]
            let found = try catalog.printings(set: words[0], number: number, language: nil)
            if !found.isEmpty { return found.prefix(20).map { PrintingView($0, catalog: catalog) } }
        }
        var names = [q]
        if try catalog.printings(named: q).isEmpty {
            names = catalog.searchNames(q, limit: 5, wholeWordsFirst: true).map(\.name)
        }
        var out: [PrintingView] = []
        for name in names where out.count < 40 {
            out += try catalog.printings(named: name).prefix(40 - out.count).map { PrintingView($0, catalog: catalog) }
        }
        return out
    }
}
