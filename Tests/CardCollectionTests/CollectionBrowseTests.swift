import Foundation
import Testing
@testable import CardCollection

@Suite("Browsing and editing entries (what cardscan serve's collection page calls)")
struct CollectionBrowseTests {
    func store() throws -> (CollectionStore, URL) {
        let dir = Temp.directory()
        return (try CollectionStore(url: dir.appendingPathComponent("collection.sqlite")), dir)
    }

    @Test("filters by name part, set, pool, finish, condition and origin; totals per set and pool in one pass")
    func filtersAndTotals() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.add(Entry(scryfallID: "a", name: "Lightning Bolt", setCode: "m10", collectorNumber: "146", quantity: 3))
        try store.add(Entry(scryfallID: "b", name: "Lightning Helix", setCode: "rav", collectorNumber: "213", finish: .foil, condition: .lp, pool: "cube"))
        try store.add(Entry(scryfallID: "c", name: "Counterspell_%", setCode: "m10", collectorNumber: "50"))
        let photo = Entry(scryfallID: "d", name: "Shock", setCode: "m19", collectorNumber: "156")
        _ = try store.recordPhoto(hash: "h1", path: "/p/1.jpg", cards: [.identified(photo)], batchID: try store.beginBatch(kind: "photos", description: "t"))

        func names(_ f: CollectionStore.EntryFilter) throws -> [String] { try store.entries(matching: f, limit: 10, offset: 0).entries.map(\.0.name) }
        #expect(try names(.init(name: "lightning")) == ["Lightning Bolt", "Lightning Helix"])
        #expect(try names(.init(name: "_%")) == ["Counterspell_%"]) // LIKE wildcards taken literally
        #expect(try names(.init(set: "M10")) == ["Counterspell_%", "Lightning Bolt"])
        #expect(try names(.init(pool: "cube")) == ["Lightning Helix"])
        #expect(try names(.init(finish: .foil, condition: .lp)) == ["Lightning Helix"])
        #expect(try names(.init(origin: .identified)) == ["Shock"])
        #expect(try names(.init(origin: .other)).count == 3)
        let page = try store.entries(matching: .init(), limit: 2, offset: 2)
        #expect(page.total == 4 && page.entries.map(\.0.name) == ["Lightning Helix", "Shock"])

        let t = try store.totals(matching: .init())
        #expect(t.cards == 6 && t.entries == 4)
        #expect(t.bySet.map { "\($0.key) \($0.cards)" } == ["m10 4", "m19 1", "rav 1"])
        #expect(t.byPool.map { "\($0.key) \($0.cards)" } == [" 5", "cube 1"])
        #expect(t.copies.count == 4 && t.copies.first { $0.scryfallID == "b" }?.finish == .foil)
    }

    @Test("an edit changes only what it names, is checked like every write, and a delete is reported once")
    func editAndDelete() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let e = try store.add(Entry(scryfallID: "a", name: "Lightning Bolt", setCode: "m10", collectorNumber: "146", quantity: 2))
        let id = try #require(e.id)
        let changed = try store.updateEntry(id: id) { $0.quantity = 5; $0.condition = .mp }
        #expect(changed.quantity == 5 && changed.condition == .mp && changed.finish == .nonfoil)
        #expect(throws: CollectionError.self) { try store.updateEntry(id: id) { $0.quantity = 0 } }
        #expect(try store.entry(id: id).quantity == 5)
        #expect(throws: CollectionError.notFound("entry 999: no such entry")) { try store.updateEntry(id: 999) { $0.quantity = 1 } }
        try store.deleteEntry(id: id)
        #expect(throws: CollectionError.notFound("entry \(id): no such entry")) { try store.deleteEntry(id: id) }
        #expect(try store.cardCount() == 0)
    }

    @Test("a card's place in its photo is kept on the entry and the review item, and an accepted item's entry takes it")
    func placeIsKept() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let place = CardPlace(width: 4000, height: 3000, corners: [(10, 20), (630, 22.5), (628, 900), (12, 898)])
        #expect(CardPlace(text: place.text) == place && CardPlace(text: "1 2 3") == nil)
        var entry = Entry(scryfallID: "d", name: "Shock", setCode: "m19", collectorNumber: "156")
        entry.quad = place.text
        let review = ReviewSubmission(matchStatus: "ambiguous", candidates: [ReviewCandidate(id: "x", name: "Shock", set: "m19", collectorNumber: "156",
                                      language: "en", rarity: "common", score: 0.5)], readTitle: "Shock", readSet: nil, readNumber: nil,
                                      pool: "", finish: .nonfoil, condition: .nm, language: nil, quad: place.text)
        let batch = try store.beginBatch(kind: "photos", description: "t")
        let outcomes = try store.recordPhoto(hash: "h", path: "/p.jpg", cards: [.identified(entry), .review(review)], batchID: batch)
        guard case .added(let entryID) = outcomes[0], case .review(let reviewID) = outcomes[1] else { Issue.record("\(outcomes)"); return }
        #expect(try store.entry(id: entryID).quad == place.text)
        #expect(try store.reviewItem(id: reviewID).quad == place.text)
        let accepted = try store.accept(reviewID: reviewID, printing: review.candidates[0])
        #expect(try store.entry(id: try #require(accepted.id)).quad == place.text)
        #expect(try store.entries(matching: .init(origin: .reviewed), limit: 5, offset: 0).entries.map(\.1) == [.reviewed])
    }
}
