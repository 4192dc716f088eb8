import ArgumentParser
import CardCatalog
import CardScanTerminal
import CardScanner
import Foundation

/// `cardscan catalog update`: download a Scryfall bulk file and rebuild the catalog from it.
struct CatalogUpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Download Scryfall bulk data and replace the catalog with it.",
        discussion: """
        Reads Scryfall's bulk-data index, downloads the chosen file (progress on stderr), checks its size, \
        imports it and swaps the new catalog in atomically. The old catalog stays usable if anything fails. \
        Types: default_cards (every English printing, ~500 MB), all_cards (every language, ~2.3 GB), \
        oracle_cards (one per card), unique_artwork.
        """
    )

    @Option(help: ArgumentHelp("Bulk file type from the index.", valueName: "type"))
    var type = "default_cards"

    @Option(help: ArgumentHelp("Bulk-data index URL.", valueName: "url"))
    var url = CatalogDownloader.scryfallIndexURL.absoluteString

    @Flag(help: "Merge into the existing catalog (keep MTGJSON or other imports) instead of replacing its content.")
    var keepExisting = false

    @Flag(help: "Print the import report as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        try BlockingAsync.run { try await update() }
    }

    private func update() async throws {
        guard let indexURL = URL(string: url), indexURL.scheme != nil else { throw CLIError("\(url): not a URL") }
        let bar = ProgressBar.catalog(label: "downloading \(type)")
        let importBar = ProgressBar.catalog(label: "importing")
        let waitingNote = ImportSummary.waiting(catalogPath: global.catalogURL.path)
        do {
            let result = try await CatalogDownloader(indexURL: indexURL).update(
                type: type, catalogURL: global.catalogURL, keepExisting: keepExisting,
                downloadProgress: { done, total in bar.update(done: done, total: total) },
                importProgress: { p in bar.finish(); importBar.importCallback(p) },
                waiting: { bar.finish(); waitingNote() })
            importBar.finish()
            if json {
                print(try JSONOutput.string(result.report))
            } else {
                print("downloaded \(result.entry.type) (updated \(result.entry.updatedAt ?? "?")) into \(global.catalogURL.path)")
                ImportSummary.print(result.report)
            }
            ImportSummary.warn(result.report, catalogPath: global.catalogURL.path)
        } catch let error as CatalogError {
            bar.finish()
            importBar.finish()
            throw CLIError(error.description)
        }
    }
}

/// Runs async work to completion from a synchronous command (the download is the only async step).
enum BlockingAsync {
    static func run(_ work: @escaping @Sendable () async throws -> Void) throws {
        let result = LockedBox<Result<Void, Error>>(.success(()))
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await work() } catch { result.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        try result.get().get()
    }
}
