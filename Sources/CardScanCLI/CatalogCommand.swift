import ArgumentParser
import CardCatalog
import Foundation

/// `cardscan catalog …`: the local card catalog (download, import, inspect, search).
public struct CatalogCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Manage the local card catalog used for matching (Scryfall / MTGJSON data).",
        discussion: """
        Without an imported catalog, commands use a small built-in sample catalog.
        Examples:
          cardscan catalog update          # Scryfall's default cards, ~500 MB
          cardscan catalog import cards.json.gz AllPrintings.json.gz
          cardscan catalog info
          cardscan catalog search "Broodhunter VVurm"
          cardscan catalog card bfz 171
          cardscan catalog text "Flying, vigilance" "Her sword sings more beautifully"
        """,
        subcommands: [
            CatalogUpdateCommand.self, CatalogImportCommand.self, CatalogInfoCommand.self,
            CatalogSearchCommand.self, CatalogTextCommand.self, CatalogCardCommand.self,
        ]
    )

    public init() {}
}

/// Opening the catalog for the `catalog` subcommands.
enum CatalogAccess {
    /// The catalog at `--catalog` / the data dir, else the built-in sample (noted on stderr).
    /// An explicit `--catalog` path that does not exist is an error, not a fallback.
    static func open(_ global: GlobalOptions) throws -> CardCatalog {
        let url = global.catalogURL
        do {
            if global.catalog != nil, !FileManager.default.fileExists(atPath: url.path) {
                throw CLIError("\(url.path): no such catalog file (create it with `cardscan catalog import` or `catalog update`)")
            }
            return try CardCatalog.openOrSample(url: url, notice: Terminal.note)
        } catch let error as CatalogError {
            throw CLIError(error.description)
        }
    }
}
