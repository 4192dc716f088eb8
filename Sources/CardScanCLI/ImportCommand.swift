import ArgumentParser
import CardCatalog
import CardCollection
import CardMatcher
import CardReader
import CardScanOCR
import CardScanner
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

    @Option(name: .shortAndLong, help: "Photos processed at once, one OCR engine each; an engine with no photo left helps read the cards of those still being read (default and maximum: the number of cores).")
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
        let readerOptions = global.readerOptions
        // The whole line escaped: a detail names files too (an error, an earlier import's path).
        let importer = PhotoImporter(store: store, catalog: catalog, options: options, batch: batch,
                                     makeScanner: { try Identifier(catalog: $0, readerOptions: readerOptions).scanner },
                                     report: json || quiet ? nil : { print(Terminal.shown($0.line)); fflush(nil) })
        let jobs = Identifier.jobs(self.jobs)
        try WorkerThreads.cliErrors { try CollectionAccess.mapped { try importer.run(files: files, jobs: jobs) } }
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
