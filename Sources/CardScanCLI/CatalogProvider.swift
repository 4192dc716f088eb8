import CardCatalog
import Foundation

/// Opens the catalog the user imported, or the built-in sample catalog when there is none.
enum CatalogProvider {
    /// Opens the catalog at `global.catalogURL`; with no explicit `--catalog` and nothing imported,
    /// the built-in sample catalog (saying so on stderr).
    static func open(_ global: GlobalOptions) throws -> CardCatalog {
        let url = global.catalogURL
        if global.catalog != nil, !FileManager.default.fileExists(atPath: url.path) {
            throw CLIError("\(url.path): no such catalog file (import one with `cardscan catalog import FILE`)")
        }
        do {
            return try CardCatalog.openOrSample(url: url) { Terminal.note($0) }
        } catch let error as CatalogError {
            throw CLIError(error.description)
        }
    }
}
