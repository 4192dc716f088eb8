import ArgumentParser
import CardCatalog
import CardCollection
import Foundation

/// Opening the user's collection for the collection commands, with one-line errors.
enum CollectionAccess {
    /// Opens (creating it when missing) `<data-dir>/collection.sqlite`.
    static func open(_ global: GlobalOptions) throws -> CollectionStore {
        try mapped {
            let store = try CollectionStore(url: global.collectionURL)
            if let backup = store.backupURL { Terminal.note("cardscan: upgraded the collection schema; the previous file was copied to \(backup.path)") }
            return store
        }
    }

    /// Opens the collection when it exists (read-only commands do not create one).
    static func openIfExists(_ global: GlobalOptions) throws -> CollectionStore? {
        guard FileManager.default.fileExists(atPath: global.collectionURL.path) else { return nil }
        return try open(global)
    }

    /// Runs `body`, turning collection and catalog errors into one-line CLI errors.
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as CollectionError { throw CLIError(e.description) } catch let e as CatalogError {
            throw CLIError(e.description)
        }
    }

    /// `--condition` values.
    static func condition(_ text: String) throws -> Condition {
        guard let c = Condition(loose: text) else {
            throw ValidationError("--condition must be one of M, NM, EX, LP, MP, HP, DMG (got \"\(text)\")")
        }
        return c
    }

    /// `--lang` values: Scryfall language codes.
    static var languages: Set<String> { Entry.languageCodes }

    static func language(_ text: String?) throws -> String? {
        guard let text else { return nil }
        let code = text.lowercased()
        guard languages.contains(code) else {
            throw ValidationError("--lang must be a Scryfall language code (\(languages.sorted().joined(separator: ", "))), got \"\(text)\"")
        }
        return code
    }

    /// The printing for a set and number, preferring `language`, then English, then any language.
    static func printing(_ catalog: CardCatalog, set: String, number: String, language: String?) throws -> Printing? {
        if let language, let p = try catalog.printings(set: set, number: number, language: language).first { return p }
        if let p = try catalog.printings(set: set, number: number, language: "en").first { return p }
        return try catalog.printings(set: set, number: number, language: nil).first
    }

    /// The error for a set/number the catalog lacks, with the nearest set codes when the code is unknown.
    static func unknownPrinting(_ catalog: CardCatalog, set: String, number: String) -> CLIError {
        var message = "\(set.lowercased()) \(number): no such printing in the catalog"
        if catalog.set(code: set) == nil {
            let near = catalog.nearestSetCodes(set, limit: 3).map(\.code)
            message += near.isEmpty ? " (unknown set code)" : " (unknown set code; nearest: \(near.joined(separator: ", ")))"
        }
        if catalog.isSample { message += "; only the built-in sample catalog is available (run `cardscan catalog update`)" }
        return CLIError(message)
    }

    /// "the collection" or `pool "NAME"`.
    static func place(_ pool: String) -> String { pool.isEmpty ? "the collection" : "pool \"\(pool)\"" }

    /// Writes `text` to `output` (or stdout when nil), naming the file on failure.
    static func write(_ text: String, to output: String?) throws {
        guard let output else { print(text, terminator: ""); return }
        do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
            throw CLIError("\(output): cannot write: \(error.localizedDescription)")
        }
    }
}

extension CollectionFormat: ExpressibleByArgument {}
