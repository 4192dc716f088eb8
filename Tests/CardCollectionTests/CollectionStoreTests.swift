import CardCatalog
import Foundation
import GRDB
import Testing
@testable import CardCollection

/// Temporary folders and the sample catalog for the collection tests.
enum Temp {
    static func directory(_ label: String = #function) -> URL {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-collection-tests-\(getpid())-\(safe)-\(UUID().uuidString.prefix(6))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built-in sample catalog (Fixtures/catalog), built once per process.
    static let sample: CardCatalog? = {
        var env = ProcessInfo.processInfo.environment
        env["CARDSCAN_SAMPLE_CATALOG"] = root.appendingPathComponent("Fixtures/catalog/sample-cards.json").path
        return try? SampleCatalog.open(cacheDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-collection-tests-cache-\(getpid())"), environment: env)
    }()
}

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-4 test vectors, and streaming in odd-sized pieces equals hashing at once")
    func vectors() throws {
        #expect(SHA256Hasher.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Hasher.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Hasher.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256Hasher.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        var hasher = SHA256Hasher()
        var offset = 0
        for size in [1, 63, 64, 65, 0, 127, 3000] + Array(repeating: 1000, count: 10) where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            hasher.update(bytes[offset..<end])
            offset = end
        }
        #expect(offset == bytes.count)
        #expect(hasher.finalize().map { String(format: "%02x", $0) }.joined() == SHA256Hasher.hex(of: bytes))
        let file = Temp.directory().appendingPathComponent("f.bin")
        try bytes.write(to: file)
        #expect(try SHA256Hasher.hex(ofFile: file.path) == SHA256Hasher.hex(of: bytes))
        #expect(throws: CollectionError.self) { try SHA256Hasher.hex(ofFile: "/nonexistent/photo.jpg") }
    }
}

@Suite("Collection store (real SQLite)")
struct CollectionStoreTests {
    static func wurm(_ q: Int = 1, pool: String = "") -> Entry {
        Entry(scryfallID: "02461278-0f39-5476-a835-fce8d24ea979", name: "Broodhunter Wurm", setCode: "bfz", collectorNumber: "171",
              rarity: "common", quantity: q, pool: pool)
    }

    @Test("photos are recorded once by hash; undo reverts a batch exactly (entries, accepted reviews, hashes)")
    func photosAndUndo() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("collection.sqlite"))
        try store.add(Self.wurm(2)) // by hand: not part of any batch
        let b1 = try store.beginBatch(kind: "photos", description: "first")
        #expect(try store.recordIdentified(hash: "h1", path: "/a/1.jpg", entry: Self.wurm(), batchID: b1) != .alreadyImported(path: "/a/1.jpg"))
        #expect(try store.recordIdentified(hash: "h1", path: "/b/renamed.jpg", entry: Self.wurm(), batchID: b1) == .alreadyImported(path: "/a/1.jpg"))
        let cand = ReviewCandidate(id: "x", name: "Counterspell", set: "7ed", collectorNumber: "67", language: "en", rarity: "uncommon", score: 0.3)
        guard case let .review(rid) = try store.recordForReview(hash: "h2", path: "/a/2.jpg", matchStatus: "ambiguous", candidates: [cand],
                                                                  read: ("Counterspell", nil, nil), pool: "", finish: .foil, condition: .lp,
                                                                  language: nil, batchID: b1) else { Issue.record("not a review"); return }
        try store.finishBatch(b1)
        #expect(try store.importedPath(hash: "h2") == "/a/2.jpg")
        let accepted = try store.accept(reviewID: rid, printing: cand)
        #expect(accepted.finish == .foil && accepted.condition == .lp && accepted.batchID == b1)
        #expect(throws: CollectionError.self) { try store.accept(reviewID: rid, printing: cand) }
        #expect(try store.reviewItems().isEmpty)
        #expect(try store.cardCount() == 4)

        let empty = try store.beginBatch(kind: "photos", description: "nothing new")
        try store.finishBatch(empty)
        #expect(try store.batches().map(\.id) == [b1], "an empty batch is dropped")

        let report = try #require(try store.undoLastBatch())
        #expect(report.batch.id == b1 && report.cardsRemoved == 2 && report.reviewItemsRemoved == 1 && report.photosForgotten == 2)
        #expect(try store.cardCount() == 2, "hand-added cards stay")
        #expect(try store.importedPath(hash: "h1") == nil, "hashes are forgotten so a re-import works")
        #expect(try store.reviewItems(all: true).isEmpty)
        #expect(try store.undoLastBatch() == nil)
    }

    @Test("a photo of several cards is recorded whole: every card once, the photo once, undone together")
    func severalCardsOnePhoto() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("collection.sqlite"))
        let batch = try store.beginBatch(kind: "photos", description: "binder page")
        let unsure = ReviewSubmission(matchStatus: "ambiguous", candidates: [], readTitle: "Counterspell", readSet: nil, readNumber: nil,
                                      pool: "", finish: .nonfoil, condition: .nm, language: nil)
        let outcomes = try store.recordPhoto(hash: "page", path: "/binder/page1.jpg",
                                             cards: [.identified(Self.wurm()), .identified(Self.wurm()), .review(unsure)], batchID: batch)
        #expect(outcomes.count == 3)
        #expect(outcomes.filter { if case .added = $0 { true } else { false } }.count == 2)
        #expect(try store.cardCount() == 2 && store.reviewItems().count == 1 && store.photoCount() == 1)
        // The same bytes again (renamed): nothing is added, whatever was on the photo.
        #expect(try store.recordPhoto(hash: "page", path: "/binder/copy.jpg", cards: [.identified(Self.wurm())], batchID: batch)
                == [.alreadyImported(path: "/binder/page1.jpg")])
        #expect(try store.cardCount() == 2)
        try store.finishBatch(batch)
        let report = try #require(try store.undoLastBatch())
        #expect(report.cardsRemoved == 2 && report.reviewItemsRemoved == 1 && report.photosForgotten == 1)
    }

    static func holding(_ q: Int) -> Holding {
        let w = wurm(q)
        return Holding(scryfallID: w.scryfallID, name: w.name, setCode: w.setCode, collectorNumber: w.collectorNumber, language: "en",
                       rarity: w.rarity, quantity: q, finish: .nonfoil, condition: .nm, pool: "", tags: [], addedAt: Date(), purchasePrice: nil)
    }

    @Test("a quantity above the bound is refused by every writer, writing nothing; a merge cannot overflow")
    func quantityBound() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        #expect(throws: CollectionError.self) { try store.add(Self.wurm(Int.max)) }
        #expect(throws: CollectionError.self) { try store.importHoldings([Self.holding(Int.max), Self.holding(1)], description: "hostile.csv") }
        #expect(try store.cardCount() == 0 && store.batches().isEmpty, "a refused import writes no row and no batch")
        try store.add(Self.wurm(Entry.maxQuantity))
        #expect(throws: CollectionError.self) { try store.add(Self.wurm(1)) }
        #expect(try store.cardCount() == Entry.maxQuantity)
        let b = try store.beginBatch(kind: "photos", description: "")
        #expect(throws: CollectionError.self) {
            try store.recordPhoto(hash: "h", path: "/h.jpg", cards: [.identified(Self.wurm(Int.max))], batchID: b)
        }
        #expect(try store.importedPath(hash: "h") == nil, "the photo is not recorded without its card")
    }

    @Test("undo of an import's batch while it runs: its next photo is refused saying so, not as a damaged file 'left untouched'")
    func undoDuringImport() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        let batch = try store.beginBatch(kind: "photos", description: "import box/")
        _ = try store.recordIdentified(hash: "a", path: "/box/a.jpg", entry: Self.wurm(), batchID: batch)
        #expect(try store.undoLastBatch()?.photosForgotten == 1)
        let error = #expect(throws: CollectionError.self) {
            try store.recordIdentified(hash: "b", path: "/box/b.jpg", entry: Self.wurm(), batchID: batch)
        }
        #expect(error?.description.contains("was undone") == true && error?.description.contains("left untouched") == false,
                "\(String(describing: error))")
        #expect(try store.cardCount() == 0 && store.importedPath(hash: "b") == nil)
    }

    @Test("a collection damaged by an overflowing quantity (written before the bound) opens, lists, sums, and undo repairs it")
    func damagedByOverflow() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("c.sqlite")
        do {
            let store = try CollectionStore(url: url)
            try store.add(Self.wurm(2))
            try store.importHoldings([Self.holding(1), Self.holding(1)], description: "hostile.csv")
        }
        // What the unbounded import left: Int.max copies and another row in the same batch.
        let raw = try DatabaseQueue(path: url.path)
        try raw.write { db in
            try db.execute(sql: "UPDATE entry SET quantity = 9223372036854775807 WHERE batch_id IS NOT NULL")
        }
        try raw.close()
        let store = try CollectionStore(url: url)
        #expect(try store.holdings().map(\.quantity) == [2 + 2 * Entry.maxQuantity], "read no higher than the bound")
        #expect(try store.cardCount() == 2 + 2 * Entry.maxQuantity)
        #expect(try store.pools().isEmpty)
        let undo = try #require(try store.undoLastBatch())
        #expect(undo.entriesRemoved == 2)
        #expect(try store.cardCount() == 2 && store.holdings().map(\.quantity) == [2], "the hand-added copies stay")
    }

    @Test("remove can be limited to a finish, condition and language; other copies stay")
    func removeByKind() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        try store.add(Self.wurm(2))
        var foil = Self.wurm(1)
        foil.finish = .foil; foil.condition = .lp; foil.language = "ja"
        try store.add(foil)
        #expect(throws: CollectionError.self) { try store.remove(set: "bfz", number: "171", quantity: 2, finish: .foil) }
        let touched = try store.remove(set: "bfz", number: "171", quantity: 1, finish: .foil, condition: .lp, language: "ja")
        #expect(touched.count == 1 && touched[0].finish == .foil && touched[0].quantity == 0)
        #expect(try store.entries().map(\.finish) == [.nonfoil] && store.cardCount() == 2, "the non-foil copies stay")
        #expect(throws: CollectionError.self) { try store.remove(set: "bfz", number: "171", quantity: 1, condition: .dmg) }
        #expect(try store.cardCount() == 2)
    }

    @Test("a pool is renamed (never merged into another), moved into the collection with \"\", or deleted")
    func poolRenameDelete() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        try store.add(Self.wurm(2, pool: "sealed"))
        try store.add(Self.wurm(1, pool: "cube"))
        try store.add(Self.wurm(5))
        #expect(throws: CollectionError.self) { try store.renamePool("sealed", to: "cube") }
        #expect(throws: CollectionError.self) { try store.renamePool("nothing", to: "x") }
        #expect(try store.renamePool("sealed", to: "MOM sealed") == 1)
        #expect(try store.pools().map(\.name) == ["MOM sealed", "cube"])
        #expect(try store.renamePool("cube", to: "") == 1)
        #expect(try store.cardCount(pool: "") == 6)
        #expect(try store.deletePool("MOM sealed").cards == 2)
        #expect(try store.pools().isEmpty && store.cardCount() == 6)
        #expect(throws: CollectionError.self) { try store.deletePool("MOM sealed") }
    }

    @Test("add merges hand-added copies; remove takes hand-added first and refuses to go below zero")
    func addRemove() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CollectionStore(url: dir.appendingPathComponent("c.sqlite"))
        try store.add(Self.wurm(1))
        let merged = try store.add(Self.wurm(2))
        #expect(merged.quantity == 3)
        try store.add(Self.wurm(1, pool: "cube"))
        let b = try store.beginBatch(kind: "photos", description: "")
        _ = try store.recordIdentified(hash: "p", path: "/p.jpg", entry: Self.wurm(), batchID: b)
        #expect(try store.entries(pool: "").count == 2 && store.cardCount(pool: "") == 4)
        #expect(throws: CollectionError.self) { try store.remove(set: "bfz", number: "171", quantity: 5) }
        #expect(try store.cardCount(pool: "") == 4, "a refused removal removes nothing")
        let touched = try store.remove(set: "BFZ", number: "0171", quantity: 3)
        #expect(touched.count == 1 && touched[0].sourceHash == nil && touched[0].quantity == 0)
        #expect(try store.entries(pool: "").map(\.sourceHash) == ["p"], "the photo copy is left")
        #expect(try store.pools().map(\.name) == ["cube"])
        #expect(try store.cardCount(pool: "cube") == 1)
    }

    @Test("a file that is not SQLite, or another app's SQLite database, is refused and left byte-for-byte untouched")
    func foreignAndCorruptFiles() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let garbage = dir.appendingPathComponent("garbage.sqlite")
        try Data("this is a shopping list, not a database\n".utf8 + Data(repeating: 7, count: 200)).write(to: garbage)
        let before = try Data(contentsOf: garbage)
        #expect {
            try CollectionStore(url: garbage)
        } throws: { e in
            guard case let .corrupt(path, _) = e as? CollectionError else { return false }
            return path == garbage.path && (e as! CollectionError).description.contains("garbage.sqlite")
        }
        #expect(try Data(contentsOf: garbage) == before)

        let foreign = dir.appendingPathComponent("foreign.sqlite")
        let q = try DatabaseQueue(path: foreign.path)
        try q.write { try $0.execute(sql: "CREATE TABLE printing (id TEXT); INSERT INTO printing VALUES ('x')") }
        try q.close()
        let foreignBefore = try Data(contentsOf: foreign)
        #expect {
            try CollectionStore(url: foreign)
        } throws: { e in
            guard case .foreign = e as? CollectionError else { return false }
            return (e as! CollectionError).description.contains("card catalog")
        }
        #expect(try Data(contentsOf: foreign) == foreignBefore)
        #expect(!FileManager.default.fileExists(atPath: foreign.path + "-wal"))

        // Truncated cardscan collection: a valid header, the rest cut off.
        let good = dir.appendingPathComponent("good.sqlite")
        let store = try CollectionStore(url: good)
        for i in 0..<200 { try store.add(Entry(scryfallID: "id\(i)", name: "Card \(i)", setCode: "tst", collectorNumber: "\(i)")) }
        try store.db.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try store.db.close()
        let bytes = try Data(contentsOf: good)
        let cut = dir.appendingPathComponent("cut.sqlite")
        try bytes.prefix(4096 + 100).write(to: cut)
        let cutBefore = try Data(contentsOf: cut)
        #expect(throws: CollectionError.self) {
            let s = try CollectionStore(url: cut)
            _ = try s.entries()
        }
        #expect(try Data(contentsOf: cut) == cutBefore)
    }

    @Test("a migration backs the old file up first; a file from a newer cardscan is refused")
    func migrationsBackUpFirst() throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("collection.sqlite")
        let old = try DatabaseQueue(path: url.path)
        try CollectionStore.migrator.migrate(old, upTo: "v1")
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO entry (scryfall_id, name, set_code, collector_number, language, quantity, finish, condition, added_at)
                VALUES ('id', 'Old Card', 'tst', '1', 'en', 3, 'nonfoil', 'NM', 0)
                """)
        }
        try old.close()
        let store = try CollectionStore(url: url)
        let backup = try #require(store.backupURL)
        #expect(backup.lastPathComponent.hasPrefix("collection.sqlite.backup-v1-"))
        #expect(try store.schemaVersion() == "v4-card-quad")
        #expect(try store.entries().map(\.name) == ["Old Card"])
        let copy = try DatabaseQueue(path: backup.path)
        #expect(try copy.read { try CollectionStore.migrator.completedMigrations($0) } == ["v1"])
        #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT quantity FROM entry") } == 3)
        try copy.close()
        #expect(try CollectionStore(url: url).backupURL == nil, "no backup when nothing is migrated")

        try store.db.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        #expect(throws: CollectionError.tooNew(path: url.path)) { try CollectionStore(url: url) }
    }

    @Test("two writers on the same file at once lose nothing (WAL, busy timeout, immediate transactions)")
    func concurrentWriters() async throws {
        let dir = Temp.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("collection.sqlite")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<2 {
                group.addTask {
                    let store = try CollectionStore(url: url) // its own pool, like another process
                    let batch = try store.beginBatch(kind: "photos", description: "writer \(w)")
                    for i in 0..<100 {
                        // Both writers also race for the same 20 shared hashes.
                        let hash = i < 20 ? "shared-\(i)" : "w\(w)-\(i)"
                        _ = try store.recordIdentified(hash: hash, path: "/\(w)/\(i).jpg", entry: Self.wurm(), batchID: batch)
                    }
                    try store.finishBatch(batch)
                }
            }
            try await group.waitForAll()
        }
        let store = try CollectionStore(url: url)
        #expect(try store.photoCount() == 20 + 2 * 80)
        #expect(try store.cardCount() == 20 + 2 * 80)
    }
}
