import CardCatalog
import CardCollection
import CardMatcher
import CardReader
import CardScanOCR
import Foundation
import Synchronization

/// Photo → collection: hash, skip known photos, identify, record — one transaction per photo.
/// `cardscan import` and the import of `cardscan serve` both run it, so a photo is recorded the
/// same way whichever started it (and `undo` reverts either).
public final class PhotoImporter: @unchecked Sendable {
    /// How the cards of this import are added.
    public struct Options: Sendable {
        public var pool: String
        public var finish: Finish
        public var condition: Condition
        public var language: String?
        public init(pool: String = "", finish: Finish = .nonfoil, condition: Condition = .nm, language: String? = nil) {
            self.pool = pool; self.finish = finish; self.condition = condition; self.language = language
        }
    }

    /// What happened to one photo (or one card of it).
    public struct Outcome: Encodable, Sendable {
        public let file: String
        public let outcome: String // added, review, failed, skipped, moved (to --pool, imported before)
        public let card: String?
        public let detail: String?

        /// The line the CLI prints for it (not escaped).
        public var line: String {
            switch outcome {
            case "added": "\(file): added \(card ?? "")"
            case "review": "\(file): to review (\(detail ?? ""))"
            case "failed": "\(file): failed: \(detail ?? "")"
            case "moved": "\(file): \(detail ?? "moved")"
            default: "\(file): skipped (\(detail ?? "already imported"))"
            }
        }
    }

    /// The counts so far, and every outcome.
    public struct Summary: Encodable, Sendable {
        public var batch: Int64
        public var added = 0, review = 0, failed = 0, skipped = 0, moved = 0
        public var photos: [Outcome] = []

        public init(batch: Int64) { self.batch = batch }

        /// Counts `o` (without keeping it in `photos`).
        public mutating func count(_ o: Outcome) {
            switch o.outcome {
            case "added": added += 1
            case "review": review += 1
            case "failed": failed += 1
            case "moved": moved += 1
            default: skipped += 1
            }
        }
    }

    public let store: CollectionStore
    public let catalog: LazyCatalog
    public let options: Options
    public let batch: Int64
    /// Called with each outcome as it happens (from the worker threads, one at a time).
    let report: ((Outcome) -> Void)?
    /// Makes one scanner per worker thread, when its first new photo needs one.
    let makeScanner: @Sendable (CardCatalog) throws -> CardScanner
    /// What this run has seen: the hashes claimed (hash → first path in this run) and the summary.
    private struct RunState {
        var claimed: [String: String] = [:]
        var summary: Summary
    }
    private let state: Mutex<RunState>

    public init(store: CollectionStore, catalog: LazyCatalog, options: Options, batch: Int64,
                makeScanner: @escaping @Sendable (CardCatalog) throws -> CardScanner, report: ((Outcome) -> Void)?) {
        self.store = store; self.catalog = catalog; self.options = options; self.report = report
        self.batch = batch; self.makeScanner = makeScanner
        state = Mutex(RunState(summary: Summary(batch: batch)))
    }

    public var summary: Summary { state.withLock { $0.summary } }

    /// Imports `files` on `jobs` threads. Throws the first store error (a photo that cannot be
    /// read is an outcome, not an error).
    public func run(files: [String], jobs: Int) throws {
        let queue = WorkQueue(files, workers: jobs)
        // Several workers: one that has no photo left lends its engine to the photos still read.
        let helpers = WorkerThreads.helpers(jobs: jobs, photos: files.count)
        try WorkerThreads.run(count: helpers?.workers ?? min(jobs, files.count)) {
            // The OCR engine and catalog are opened only when a photo turns out to be new.
            var scanner: CardScanner?
            func made() throws -> CardScanner {
                if scanner == nil {
                    scanner = try self.makeScanner(try self.catalog.get())
                    scanner!.helpers = helpers
                }
                return scanner!
            }
            try WorkerThreads.work(helpers, photos: {
                while let file = queue.next() { try self.process(file, scanner: made) }
            }, lending: made)
        }
    }

    /// Counts and keeps `o`, and reports it (one report at a time).
    private func record(_ o: Outcome) {
        state.withLock { state in
            state.summary.count(o)
            state.summary.photos.append(o)
            report?(o)
        }
    }

    /// Claims a hash for this run; returns the path that claimed it first when it was taken.
    private func claim(_ hash: String, _ file: String) -> String? {
        state.withLock { state in
            if let first = state.claimed[hash] { return first }
            state.claimed[hash] = file
            return nil
        }
    }

    private func process(_ file: String, scanner: () throws -> CardScanner) throws {
        // The file type is checked before any read: hashing a FIFO would wait for ever for a writer.
        if let reason = Image.notARegularFile(file) {
            record(Outcome(file: file, outcome: "failed", card: nil, detail: reason)); return
        }
        let hash: String
        do { hash = try SHA256Hasher.hex(ofFile: file) } catch {
            record(Outcome(file: file, outcome: "failed", card: nil, detail: "\(error)")); return
        }
        if let first = claim(hash, file) {
            record(Outcome(file: file, outcome: "skipped", card: nil, detail: "same photo as \(first)")); return
        }
        if let previous = try store.importedPath(hash: hash) {
            let known = previous == file ? "already imported" : "already imported as \(previous)"
            // With a pool, a photo imported before has its cards moved into the pool.
            if !options.pool.isEmpty, try store.movePhoto(hash: hash, toPool: options.pool) > 0 {
                record(Outcome(file: file, outcome: "moved", card: nil, detail: "\(known); its cards moved to pool \"\(options.pool)\""))
                return
            }
            record(Outcome(file: file, outcome: "skipped", card: nil, detail: known))
            return
        }
        let found: [CardScanner.Card]
        do {
            found = try scanner().scan(contentsOf: file).cards
        } catch {
            // The reason without the file's name, which the line already starts with.
            let cause = (error as? OCRError)?.description ?? "\(error)"
            record(Outcome(file: file, outcome: "failed", card: nil,
                           detail: cause.hasPrefix(file + ": ") ? String(cause.dropFirst(file.count + 2)) : cause))
            return
        }
        guard !found.isEmpty else {
            record(Outcome(file: file, outcome: "failed", card: nil, detail: "unreadable")); return
        }
        // Every card found on the photo (the main card first), recorded together.
        let cards = found.map { photoCard($0.reading, $0.match) }
        let outcomes = try store.recordPhoto(hash: hash, path: file, cards: cards.map(\.card), batchID: batch)
        for (outcome, card) in zip(outcomes, cards) {
            switch outcome {
            case .added: record(Outcome(file: file, outcome: "added", card: card.label, detail: nil))
            case .review(let id): record(Outcome(file: file, outcome: "review", card: nil, detail: "#\(id) \(card.label)"))
            case .alreadyImported(let previous): record(Outcome(file: file, outcome: "skipped", card: nil, detail: "imported meanwhile as \(previous)"))
            }
        }
    }

    /// Where the card lies in the photo, as the collection stores it.
    static func place(_ reading: CardReading) -> String? {
        guard let quad = reading.quad else { return nil }
        return CardPlace(width: reading.imageWidth, height: reading.imageHeight, corners: quad.corners.map { (x: $0.x, y: $0.y) }).text
    }

    /// What to record for one card: its entry when identified, else a review item; and how to
    /// name it in the report.
    private func photoCard(_ reading: CardReading, _ match: MatchResult) -> (card: PhotoCard, label: String) {
        if match.status == .identified, let identified = match.card {
            var printing = identified
            if let lang = options.language, lang != printing.language,
               let localized = try? catalog.get().printings(set: printing.setCode, number: printing.collectorNumber, language: lang).first {
                printing = localized
            }
            // The language: as given with --lang, else as printed on the card when the catalog
            // holds the card in another language only, else the printing's.
            var entry = Entry(scryfallID: printing.id, name: printing.name, setCode: printing.setCode, collectorNumber: printing.collectorNumber,
                              language: options.language ?? match.printedLanguage ?? printing.language, rarity: printing.rarity, quantity: 1,
                              finish: options.finish, condition: options.condition, pool: options.pool)
            entry.quad = Self.place(reading)
            return (.identified(entry), "\(printing.name) — \(printing.setCode.uppercased()) #\(printing.collectorNumber)")
        }
        let status = match.status.rawValue
        let candidates = match.candidates.map {
            ReviewCandidate(id: $0.printing.id, name: $0.printing.name, set: $0.printing.setCode, collectorNumber: $0.printing.collectorNumber,
                            language: $0.printing.language, rarity: $0.printing.rarity, score: ($0.score * 1000).rounded() / 1000)
        }
        let f = reading.fields
        let item = ReviewSubmission(matchStatus: status, candidates: candidates, readTitle: f.title?.value, readSet: f.setCode?.value,
                                    readNumber: f.collectorNumber?.value, pool: options.pool, finish: options.finish,
                                    condition: options.condition, language: options.language, quad: Self.place(reading))
        let what = candidates.isEmpty ? "\(status), title read as \"\(f.title?.value ?? "?")\""
            : "\(status), \(candidates.count) candidate\(candidates.count == 1 ? "" : "s")"
        return (.review(item), what)
    }
}

/// The catalog, opened once by whichever import thread needs it first.
public final class LazyCatalog: @unchecked Sendable {
    private let open: () throws -> CardCatalog
    private let result = Mutex<Result<CardCatalog, Error>?>(nil)

    public init(_ open: @escaping () throws -> CardCatalog) { self.open = open }

    /// The catalog, opened by the first call (the others wait for it); a failure to open is
    /// thrown to every caller.
    public func get() throws -> CardCatalog {
        try result.withLock { result in
            if result == nil { result = Result { try open() } }
            return result!
        }.get()
    }
}

/// Runs the same body on `count` threads (OCR engines are per thread, so workers are threads, not
/// tasks) and waits; rethrows the first error thrown by any of them.
public enum WorkerThreads {
    public static func run(count: Int, body: @escaping @Sendable () throws -> Void) throws {
        let group = DispatchGroup()
        let failure = LockedBox<Error?>(nil)
        for _ in 0..<max(1, count) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do { try body() } catch { failure.set(error) }
            }
            thread.stackSize = 8 << 20 // Tesseract recurses deeply on some layouts
            thread.start()
        }
        group.wait()
        if let error = failure.get() { throw error }
    }
}

extension WorkerThreads {
    /// The engines `jobs` workers share over `photos` photos (`ScanHelpers`): nil for one worker,
    /// or no photo.
    public static func helpers(jobs: Int, photos: Int) -> ScanHelpers? {
        jobs > 1 && photos > 0 ? ScanHelpers(workers: jobs) : nil
    }

    /// One worker's part: `photos`, then (with `helpers`) its engine lent to the photos still read.
    public static func work(_ helpers: ScanHelpers?, photos: () throws -> Void, lending scanner: () throws -> CardScanner) throws {
        if let helpers { try helpers.work(photos: photos, lending: scanner) } else { try photos() }
    }

    /// `files` read as `cardscan scan --jobs N` reads them: `jobs` workers (no more than there
    /// are photos, unless engines are lent) take photos from one queue (`WorkQueue`), each with
    /// its own worker (`make`, called on its thread; `scanner` is its scanner) passed to `each`
    /// with every photo it takes; a worker with no photo left lends its scanner to the photos
    /// still read (`ScanHelpers`). Returns the helpers (nil on one worker).
    @discardableResult
    public static func scanSharing<Worker>(_ files: [String], jobs: Int, make: @escaping @Sendable () throws -> Worker,
                                           scanner: @escaping @Sendable (Worker) -> CardScanner,
                                           each: @escaping @Sendable (Worker, String) throws -> Void) throws -> ScanHelpers? {
        let queue = WorkQueue(files, workers: jobs)
        let helpers = helpers(jobs: jobs, photos: files.count)
        try run(count: helpers?.workers ?? min(jobs, files.count)) {
            var worker: Worker?
            try work(helpers, photos: {
                let made = try make()
                scanner(made).helpers = helpers
                worker = made
                while let file = queue.next() { try each(made, file) }
            }, lending: { try scanner(worker ?? make()) })
        }
        return helpers
    }
}

/// A shared cursor over the files: in the order given for one worker, largest first for several
/// (`PhotoSchedule`).
public final class WorkQueue: Sendable {
    private let files: [String]
    private let index = Mutex(0)

    public init(_ files: [String], workers: Int) { self.files = PhotoSchedule.order(files, workers: workers).map { files[$0] } }

    public func next() -> String? {
        index.withLock { index in
            guard index < files.count else { return nil }
            defer { index += 1 }
            return files[index]
        }
    }
}

/// A value behind a lock (`Synchronization.Mutex`), in a class so that threads and escaping
/// closures can share it (a `Mutex` itself cannot be copied or captured by an escaping closure).
/// The value must be `Sendable`: what `get` returns leaves the lock.
public final class LockedBox<T: Sendable>: Sendable {
    private let mutex: Mutex<T>
    public init(_ value: T) { mutex = Mutex(value) }
    /// A copy of the value.
    public func get() -> T { mutex.withLock { $0 } }
    /// Replaces the value.
    public func set(_ value: T) { mutex.withLock { $0 = value } }
    /// Runs `change` on the value with the lock held; returns what it returns.
    @discardableResult
    public func update<R: Sendable, E: Error>(_ change: (inout T) throws(E) -> R) throws(E) -> R {
        try mutex.withLock { (value: inout T) throws(E) -> R in try change(&value) }
    }
}
