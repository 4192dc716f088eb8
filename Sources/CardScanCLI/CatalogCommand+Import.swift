import ArgumentParser
import CardCatalog
import CardScanTerminal
import Foundation

/// `cardscan catalog import FILE…`: import Scryfall or MTGJSON files.
struct CatalogImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import Scryfall bulk files or MTGJSON files (.json or .json.gz) into the catalog.",
        discussion: """
        Accepts Scryfall bulk files (default/all/oracle cards, unique artwork), Scryfall set lists, and \
        MTGJSON AllPrintings or per-set files. Printings are keyed by Scryfall id, so importing Scryfall and \
        MTGJSON data describing the same printing gives one row. The import runs in one transaction on a \
        copy; the catalog is replaced only when every file imported.
        Example:
          cardscan catalog import default-cards.json AllPrintings.json.gz
        """
    )

    @Argument(help: ArgumentHelp("Files to import.", valueName: "file"))
    var files: [String]

    @Flag(help: "Replace the catalog's content with these files instead of merging into it.")
    var replace = false

    @Flag(help: "Print the import report as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let bar = ProgressBar.catalog(label: "importing")
        do {
            var importer = CatalogImporter(catalogURL: global.catalogURL, progress: bar.importCallback)
            importer.waiting = ImportSummary.waiting(catalogPath: global.catalogURL.path)
            let report = try importer.importFiles(files, replacing: replace)
            bar.finish()
            if json { print(try JSONOutput.string(report)) } else { ImportSummary.print(report) }
            ImportSummary.warn(report, catalogPath: global.catalogURL.path)
        } catch let error as CatalogError {
            bar.finish()
            throw CLIError(error.description)
        }
    }
}
