import ArgumentParser
import CSV
import CardCatalog
import CardMatcher
import CardScanOCR
import CardScanTerminal
import CardScanner
import Foundation

/// `cardscan scan PATH…`: identify every photo in files and folders, in parallel.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Identify every card photo in the given files and folders.",
        discussion: """
        Photos are processed in parallel (one OCR engine per job) and results are printed as they \
        finish; once fewer photos are left than jobs, the idle engines help read the cards of the \
        others (one photo of several cards is read on every engine, with the same results). Each \
        card found is one result: a photo of several cards gives several, the main \
        (most card-like) card first. An unreadable file gives an error record and the scan goes \
        on; the exit status is 1 when any file failed.

        With --json each line is one JSON object with the keys file, status (identified, \
        ambiguous, unidentified or error), card (id, name, set, collector_number, lang, rarity; \
        null unless identified), confidence, extracted (title, set_code, collector_number, \
        set_size, rarity, language), candidates (id, name, set, collector_number, score), quad \
        (four [x, y] corners, 0…1, origin bottom-left), error (status error only), \
        timings_ms (decode, locate, ocr, match, total) and evidence (method, border, and text: \
        what the card's words said, when they were read; see the README).

        Examples:
          cardscan scan ~/Pictures/cards
          cardscan scan photos/ --recursive --jobs 2 --json > results.jsonl
        """
    )

    @Argument(help: ArgumentHelp("Photos and/or folders of photos.", valueName: "path"))
    var paths: [String]

    @Flag(name: .shortAndLong, help: "Descend into sub-folders.")
    var recursive = false

    @Option(name: .shortAndLong, help: "Photos processed at once, one OCR engine each; an engine with no photo left helps read the cards of those still being read (default and maximum: the number of cores).")
    var jobs: Int?

    @Flag(help: "JSON Lines output (one object per card found; a photo of several cards gives several).")
    var json = false

    @Flag(help: "CSV output: file,status,name,set,collector_number,lang,confidence.")
    var csv = false

    @Flag(help: ArgumentHelp("Read every card's text box and credits, also when its title and number identified it (slower).",
                             discussion: "With --json, evidence.text then says what each card's words point to (text_name, lead), a check of every identification."))
    var text = false

    @Option(help: ArgumentHelp("Write each photo with every card found outlined and numbered, with its name or why it failed, as a PNG into this folder.",
                               valueName: "folder"))
    var annotate: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv cannot be used together") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let (files, missing) = try PhotoFiles.expandBatch(paths, recursive: recursive)
        let catalog = try CatalogProvider.open(global)
        if text && !catalog.hasTextIndex {
            Terminal.note("cardscan: --text reads nothing: this catalog keeps no card texts (run `cardscan catalog import` again to add them)")
        }
        let output = ScanOutput(format: json ? .json : csv ? .csv : .text, total: files.count)
        if let annotate {
            do {
                try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true)
            } catch {
                throw CLIError("\(annotate): cannot create the folder for annotated photos: \(error.localizedDescription)")
            }
        }
        let runner = ParallelScan(files: files, jobs: Identifier.jobs(jobs), annotate: annotate)
        let unwritten = LockedBox(0)
        try runner.run(
            makeWorker: { try Identifier(catalog: catalog, readerOptions: global.readerOptions, readsEveryText: text) },
            emit: { records in output.emit(records) },
            failedDrawing: { message in
                Terminal.note("cardscan: \(message)")
                unwritten.update { $0 += 1 }
            })
        output.finish()
        if output.failed > 0 || !missing.isEmpty || unwritten.get() > 0 { throw ExitCode(1) }
    }
}

/// Runs identifications on several threads, one `Identifier` per thread, and hands each photo's
/// records (one per card found) to `emit` (serialised) as soon as they are ready.
struct ParallelScan {
    let files: [String]
    let jobs: Int
    /// The folder annotated photos are written into (`--annotate`), if any.
    var annotate: String?

    /// `failedDrawing` hears of an annotated photo that could not be written (the scan goes on).
    func run(makeWorker: @escaping @Sendable () throws -> Identifier, emit: @escaping @Sendable ([ScanRecord]) -> Void,
             failedDrawing: @escaping @Sendable (String) -> Void = { _ in }) throws {
        // Several workers: one that has no photo left lends its engine to the photos still read.
        let annotate = self.annotate
        try WorkerThreads.cliErrors {
            try WorkerThreads.scanSharing(files, jobs: jobs, make: makeWorker, scanner: \.scanner) { made, file in
                let cards = made.identifyEach(file)
                if let annotate {
                    do { _ = try made.annotate(file, cards, into: annotate) } catch { failedDrawing("\(file): cannot draw it: \(error)") }
                }
                emit(cards.map(\.record))
            }
        }
    }
}

extension WorkerThreads {
    /// Runs `body` (which starts the workers), the first error thrown made a one-line CLI error.
    static func cliErrors(_ body: () throws -> Void) throws {
        do { try body() } catch let e as CLIError { throw e } catch {
            throw CLIError(String(describing: error))
        }
    }
}

/// Serialised printing of scan results, with a progress line on a terminal.
final class ScanOutput: @unchecked Sendable {
    enum Format { case text, json, csv }
    private let format: Format
    private let total: Int
    private let bar = ProgressBar(unit: .items, offTerminal: .silent)
    private let lock = NSLock()
    private var done = 0
    private var cards = 0
    private var counts: [String: Int] = [:]
    private(set) var failed = 0

    init(format: Format, total: Int) {
        self.format = format
        self.total = total
        if format == .csv { print("file,status,name,set,collector_number,lang,confidence") }
    }

    /// Prints one photo's records (one per card found, or one error).
    func emit(_ records: [ScanRecord]) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        bar.clear()
        for r in records { printRecord(r) }
        fflush(nil) // stream each result as it finishes
        bar.update(done: Int64(done), total: Int64(total))
    }

    private func printRecord(_ r: ScanRecord) {
        cards += 1
        counts[r.status, default: 0] += 1
        if r.status == "error" { failed += 1; Terminal.note(r.error ?? r.file) }
        switch format {
        case .json: print((try? JSONOutput.string(r)) ?? "{}")
        case .csv: print(CSVField.line([r.file, r.status, r.card?.name ?? "", r.card?.set ?? "", r.card?.collector_number ?? "", r.card?.lang ?? "", String(format: "%.3f", r.confidence)]))
        case .text:
            let what = r.card.map { "\($0.name) — \($0.set.uppercased()) #\($0.collector_number)" }
                ?? (r.status == "ambiguous" ? Self.ambiguity(r) : r.status)
            print("\(Terminal.shown(r.file)): \(what)\(r.card != nil ? String(format: "  %.0f%%", r.confidence * 100) : "")")
        }
    }

    /// "Forest — printing not certain (12 candidates)" when every candidate is the same card,
    /// else the candidate count and the title as read.
    private static func ambiguity(_ r: ScanRecord) -> String {
        if let first = r.candidates.first?.name, r.candidates.allSatisfy({ $0.name == first }) {
            return "\(first) — printing not certain (\(r.candidates.count) candidate\(r.candidates.count == 1 ? "" : "s"))"
        }
        return "ambiguous (\(r.candidates.count) candidates, title \"\(r.extracted.title ?? "?")\")"
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        bar.clear()
        let summary = ["identified", "ambiguous", "unidentified", "error"].map { "\(counts[$0, default: 0]) \($0)" }.joined(separator: ", ")
        let found = cards == done ? "" : ", \(cards) results"
        Terminal.note("scanned \(done) photo\(done == 1 ? "" : "s")\(found): \(summary)")
    }
}

/// One CSV line written by CSV.swift (cells quoted when they hold a comma, quote or line break).
enum CSVField {
    static func line(_ cells: [String]) -> String {
        let stream = OutputStream(toMemory: ())
        stream.open()
        guard let writer = try? CSVWriter(stream: stream), (try? writer.write(row: cells)) != nil else { return cells.joined(separator: ",") }
        writer.stream.close()
        return String(decoding: stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data(), as: UTF8.self)
    }
}
