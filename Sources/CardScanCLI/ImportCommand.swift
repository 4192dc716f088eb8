import ArgumentParser
import CardCatalog
import CardCollection
import CardMatcher
import CardReader
import CardScanOCR
import Foundation

/// `cardscan import PATH…`: scan photos and add the identified cards to the collection.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Scan photos and add every identified card to your collection (or a pool).",
        discussion: """
        Identified cards are added; ambiguous and unidentified ones go to the review queue \
        (`cardscan review`); unreadable files are counted as failed and retried next time. A photo \
        of several cards (a binder page, a row on a table) gives one result per card found. \
        Photos are recognised by the SHA-256 of their bytes: importing the same folder again, or a \
        renamed or moved copy of a photo, adds nothing (with --pool, the cards of photos imported \
        before are moved into the pool). Each photo (with all its cards) is recorded \
        in its own transaction, so an interrupted import (Ctrl-C, kill -9, power cut) is resumed by running the \
        same command again. Each run is one batch: `cardscan undo` reverts the last one.
        Examples:
          cardscan import ~/Pictures/cards
          cardscan import box1/ box2/ --recursive --jobs 2
          cardscan import sealed/ --pool "MOM prerelease"
          cardscan import foils/ --foil --condition LP --lang de
        """
    )

    @Argument(help: ArgumentHelp("Photos and/or folders of photos.", valueName: "path"))
    var paths: [String]

    @Option(help: ArgumentHelp("Add the cards to this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Flag(help: "The cards are foils.")
    var foil = false

    @Option(help: ArgumentHelp("Condition of the cards: NM, LP, MP, HP or DMG.", valueName: "C"))
    var condition = "NM"

    @Option(help: ArgumentHelp("Language of the cards (Scryfall code: en, de, ja, …); default: the identified printing's.", valueName: "L"))
    var lang: String?

    @Flag(name: .shortAndLong, help: "Descend into sub-folders.")
    var recursive = false

    @Option(name: .shortAndLong, help: "Photos processed at once (default and maximum: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print the summary as one JSON object (with the outcome of every card and photo).")
    var json = false

    @Flag(name: .shortAndLong, help: "Only print the summary.")
    var quiet = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        _ = try CollectionAccess.condition(condition)
        _ = try CollectionAccess.language(lang)
        if let pool, pool.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--pool needs a name") }
    }

    func run() throws {
        let (files, missing) = try PhotoFiles.expandBatch(paths, recursive: recursive)
        let store = try CollectionAccess.open(global)
        let global = self.global
        // Opened on first use: a re-run over photos already imported needs neither catalog nor OCR.
        let catalog = LazyCatalog { try CollectionAccess.mapped { try CatalogProvider.open(global) } }
        let options = PhotoImporter.Options(pool: pool ?? "", finish: foil ? .foil : .nonfoil,
                                            condition: try CollectionAccess.condition(condition), language: try CollectionAccess.language(lang))
        let batch = try CollectionAccess.mapped {
            try store.beginBatch(kind: "photos", description: "import \(paths.joined(separator: " "))\(pool.map { " --pool \($0)" } ?? "")")
        }
        let importer = PhotoImporter(store: store, catalog: catalog, options: options, batch: batch,
                                     printer: json || quiet ? nil : { print($0); fflush(nil) })
        let jobs = Identifier.jobs(self.jobs)
        try importer.run(files: files, jobs: jobs, readerOptions: global.readerOptions)
        let kept = try CollectionAccess.mapped { try store.finishBatch(batch) }
        let s = importer.summary
        if json {
            print(try JSONOutput.string(s))
        } else {
            Terminal.note("imported \(files.count) photo\(files.count == 1 ? "" : "s") into \(CollectionAccess.place(options.pool))\(kept ? " (batch \(batch))" : ""): "
                + "\(s.added) added, \(s.review) to review, \(s.failed) failed, \(s.skipped) skipped as already imported"
                + (s.moved > 0 ? ", \(s.moved) imported before moved to the pool" : ""))
            if s.review > 0 { Terminal.note("see the photos to review with `cardscan review`") }
        }
        if s.failed > 0 || !missing.isEmpty { throw ExitCode(1) }
    }
}

/// The import loop: hash, skip known photos, identify, record — one transaction per photo.
final class PhotoImporter: @unchecked Sendable {
    struct Options {
        var pool: String
        var finish: Finish
        var condition: Condition
        var language: String?
    }

    struct Outcome: Encodable {
        let file: String
        let outcome: String // added, review, failed, skipped, moved (to --pool, imported before)
        let card: String?
        let detail: String?
    }

    struct Summary: Encodable {
        var batch: Int64
        var added = 0, review = 0, failed = 0, skipped = 0, moved = 0
        var photos: [Outcome] = []
    }

    let store: CollectionStore
    let catalog: LazyCatalog
    let options: Options
    let printer: ((String) -> Void)?
    let batch: Int64
    private let lock = NSLock()
    private var claimed: [String: String] = [:] // hash → first path in this run
    private var state: Summary

    init(store: CollectionStore, catalog: LazyCatalog, options: Options, batch: Int64, printer: ((String) -> Void)?) {
        self.store = store; self.catalog = catalog; self.options = options; self.printer = printer
        self.batch = batch
        state = Summary(batch: batch)
    }

    var summary: Summary { lock.lock(); defer { lock.unlock() }; return state }

    func run(files: [String], jobs: Int, readerOptions: CardReader.Options) throws {
        let queue = WorkQueue(files, workers: jobs)
        try WorkerThreads.run(count: min(jobs, files.count)) {
            // The OCR engine and catalog are opened only when a photo turns out to be new.
            var identifier: Identifier?
            while let file = queue.next() {
                try self.process(file) {
                    if identifier == nil { identifier = try Identifier(catalog: try self.catalog.get(), readerOptions: readerOptions) }
                    return identifier!
                }
            }
        }
    }

    private func report(_ o: Outcome) {
        lock.lock()
        switch o.outcome {
        case "added": state.added += 1
        case "review": state.review += 1
        case "failed": state.failed += 1
        case "moved": state.moved += 1
        default: state.skipped += 1
        }
        state.photos.append(o)
        lock.unlock()
        guard let printer else { return }
        let file = o.file
        let line: String
        switch o.outcome {
        case "added": line = "\(file): added \(o.card ?? "")"
        case "review": line = "\(file): to review (\(o.detail ?? ""))"
        case "failed": line = "\(file): failed: \(o.detail ?? "")"
        case "moved": line = "\(file): \(o.detail ?? "moved")"
        default: line = "\(file): skipped (\(o.detail ?? "already imported"))"
        }
        // The whole line escaped: a detail names files too (an error, an earlier import's path).
        printer(Terminal.shown(line))
    }

    /// Claims a hash for this run; returns the path that claimed it first when it was taken.
    private func claim(_ hash: String, _ file: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        if let first = claimed[hash] { return first }
        claimed[hash] = file
        return nil
    }

    private func process(_ file: String, identifier: () throws -> Identifier) throws {
        // The file type is checked before any read: hashing a FIFO would wait for ever for a writer.
        if let reason = Image.notARegularFile(file) {
            report(Outcome(file: file, outcome: "failed", card: nil, detail: reason)); return
        }
        let hash: String
        do { hash = try SHA256Hasher.hex(ofFile: file) } catch {
            report(Outcome(file: file, outcome: "failed", card: nil, detail: "\(error)")); return
        }
        if let first = claim(hash, file) {
            report(Outcome(file: file, outcome: "skipped", card: nil, detail: "same photo as \(first)")); return
        }
        if let previous = try store.importedPath(hash: hash) {
            let known = previous == file ? "already imported" : "already imported as \(previous)"
            // With --pool, a photo imported before has its cards moved into the pool.
            if !options.pool.isEmpty, try CollectionAccess.mapped({ try store.movePhoto(hash: hash, toPool: options.pool) }) > 0 {
                report(Outcome(file: file, outcome: "moved", card: nil, detail: "\(known); its cards moved to pool \"\(options.pool)\""))
                return
            }
            report(Outcome(file: file, outcome: "skipped", card: nil, detail: known))
            return
        }
        let found = try identifier().identifyEach(file)
        guard let first = found.first, first.record.status != MatchStatus.error.rawValue else {
            // The reason without the file's name, which the line already starts with.
            let error = found.first?.record.error ?? "unreadable"
            report(Outcome(file: file, outcome: "failed", card: nil,
                           detail: error.hasPrefix(file + ": ") ? String(error.dropFirst(file.count + 2)) : error))
            return
        }
        // Every card found on the photo (the main card first), recorded together.
        let cards = found.map { photoCard($0.reading, $0.match) }
        let outcomes = try store.recordPhoto(hash: hash, path: file, cards: cards.map(\.card), batchID: batch)
        for (outcome, card) in zip(outcomes, cards) {
            switch outcome {
            case .added: report(Outcome(file: file, outcome: "added", card: card.label, detail: nil))
            case .review(let id): report(Outcome(file: file, outcome: "review", card: nil, detail: "#\(id) \(card.label)"))
            case .alreadyImported(let previous): report(Outcome(file: file, outcome: "skipped", card: nil, detail: "imported meanwhile as \(previous)"))
            }
        }
    }

    /// What to record for one card: its entry when identified, else a review item; and how to
    /// name it in the report.
    private func photoCard(_ reading: CardReading?, _ match: MatchResult?) -> (card: PhotoCard, label: String) {
        if let match, match.status == .identified, let identified = match.card {
            var printing = identified
            if let lang = options.language, lang != printing.language,
               let localized = try? catalog.get().printings(set: printing.setCode, number: printing.collectorNumber, language: lang).first {
                printing = localized
            }
            // The language: as given with --lang, else as printed on the card when the catalog
            // holds the card in another language only, else the printing's.
            let entry = Entry(scryfallID: printing.id, name: printing.name, setCode: printing.setCode, collectorNumber: printing.collectorNumber,
                              language: options.language ?? match.printedLanguage ?? printing.language, rarity: printing.rarity, quantity: 1,
                              finish: options.finish, condition: options.condition, pool: options.pool)
            return (.identified(entry), "\(printing.name) — \(printing.setCode.uppercased()) #\(printing.collectorNumber)")
        }
        let status = match?.status.rawValue ?? MatchStatus.unidentified.rawValue
        let candidates = (match?.candidates ?? []).map {
            ReviewCandidate(id: $0.printing.id, name: $0.printing.name, set: $0.printing.setCode, collectorNumber: $0.printing.collectorNumber,
                            language: $0.printing.language, rarity: $0.printing.rarity, score: ($0.score * 1000).rounded() / 1000)
        }
        let f = reading?.fields
        let item = ReviewSubmission(matchStatus: status, candidates: candidates, readTitle: f?.title?.value, readSet: f?.setCode?.value,
                                    readNumber: f?.collectorNumber?.value, pool: options.pool, finish: options.finish,
                                    condition: options.condition, language: options.language)
        let what = candidates.isEmpty ? "\(status), title read as \"\(f?.title?.value ?? "?")\""
            : "\(status), \(candidates.count) candidate\(candidates.count == 1 ? "" : "s")"
        return (.review(item), what)
    }
}

/// The catalog, opened once by whichever import thread needs it first.
final class LazyCatalog: @unchecked Sendable {
    private let open: () throws -> CardCatalog
    private let lock = NSLock()
    private var result: Result<CardCatalog, Error>?

    init(_ open: @escaping () throws -> CardCatalog) { self.open = open }

    func get() throws -> CardCatalog {
        lock.lock(); defer { lock.unlock() }
        if result == nil { result = Result { try open() } }
        return try result!.get()
    }
}
