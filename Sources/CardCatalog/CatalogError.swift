import Foundation

/// Errors from opening, importing or downloading a catalog. Descriptions are one line and name the file.
public enum CatalogError: Error, CustomStringConvertible, Sendable {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is not valid JSON of a known shape (truncated, corrupt, wrong format).
    case malformedFile(path: String, reason: String)
    /// The catalog database is missing or not a cardscan catalog.
    case notACatalog(path: String, reason: String)
    /// Downloading failed.
    case download(url: String, reason: String)
    /// The catalog opens but was built before what was asked for was kept: import again.
    case needsImport(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read: \(reason)"
        case let .malformedFile(path, reason): return "\(path): \(reason)"
        case let .notACatalog(path, reason): return "\(path): not a usable card catalog: \(reason)"
        case let .download(url, reason): return "\(url): download failed: \(reason)"
        case let .needsImport(path, reason): return "\(path): \(reason); import again to rebuild it (cardscan catalog import --replace FILE..., or cardscan catalog update)"
        }
    }
}
