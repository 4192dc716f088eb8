import ArgumentParser
import CardCatalog
import CardCollection
import Foundation

/// `cardscan collection …`: list, export and import the collection.
struct CollectionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection",
        abstract: "List your collection, or export / import the files of Moxfield, ManaBox, Deckbox, Archidekt, Dragon Shield, Sorted, TCGplayer, Delver Lens, Arena or JSON.",
        discussion: """
        The collection lives in <data-dir>/collection.sqlite (see --data-dir), apart from the catalog. \
        Without --pool the commands work on the main collection; pools (`cardscan pool list`) are \
        separate.
        Examples:
          cardscan collection list
          cardscan collection list --pool cube --json
          cardscan collection export --format moxfield --output moxfield.csv
          cardscan collection import ManaBox_Collection.csv --dry-run
        """,
        subcommands: [CollectionListCommand.self, CollectionExportCommand.self, CollectionImportCommand.self],
        defaultSubcommand: CollectionListCommand.self
    )
}

struct CollectionListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the cards in the collection or a pool (the default).",
        discussion: """
        One line per printing, finish, condition and language, with the number of copies.
        Examples:
          cardscan collection list
          cardscan collection list --pool "MOM prerelease"
          cardscan collection list --all --json | jq '.[].name'
        """
    )

    @Option(help: ArgumentHelp("List this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Flag(help: "List the main collection and every pool.")
    var all = false

    @Flag(help: "Print a JSON array (one object per row).")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws { if all && pool != nil { throw ValidationError("--all and --pool cannot be used together") } }

    func run() throws {
        let holdings = try CollectionAccess.mapped { try CollectionAccess.openIfExists(global)?.holdings(pool: all ? nil : pool ?? "") } ?? []
        if json {
            print(try CollectionFiles.export(holdings, format: .json), terminator: "")
            return
        }
        guard !holdings.isEmpty else {
            print("\(all ? "the collection and its pools are" : CollectionAccess.place(pool ?? "") + " is") empty")
            return
        }
        let nameWidth = min(40, holdings.map(\.name.count).max() ?? 0)
        for h in holdings {
            let name = h.name.count > nameWidth ? String(h.name.prefix(nameWidth - 1)) + "…" : h.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            let printing = "\(h.setCode.uppercased()) \(h.collectorNumber)".padding(toLength: 10, withPad: " ", startingAt: 0)
            var line = String(format: "%4d  ", h.quantity) + name + "  " + printing + "  " + h.language.padding(toLength: 3, withPad: " ", startingAt: 0)
                + "  " + h.condition.rawValue.padding(toLength: 3, withPad: " ", startingAt: 0) + "  " + (h.finish == .nonfoil ? "" : h.finish.rawValue)
            if all && !h.pool.isEmpty { line += "  [pool \(h.pool)]" }
            if !h.tags.isEmpty { line += "  #" + h.tags.joined(separator: " #") }
            while line.hasSuffix(" ") { line.removeLast() }
            print(line)
        }
        let cards = holdings.reduce(0) { $0 + $1.quantity }
        Terminal.note("\(cards) card\(cards == 1 ? "" : "s") in \(holdings.count) row\(holdings.count == 1 ? "" : "s")")
    }
}

struct CollectionExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the collection (or a pool) as a file another app imports.",
        discussion: """
        Each file is written the way the app itself exports (header, column order, quoting, line \
        endings, its words for conditions and languages):
          moxfield      13 columns, every cell quoted ("Near Mint", "English", Alter/Proxy True/False)
          manabox       18 columns with Binder Name/Type and Added, no final newline (near_mint, en, zh_CN)
          deckbox       24 columns, Deckbox edition names from the catalog, prices as $0.00
          archidekt     13 columns (NM/LP/MP/HP/D, EN/JP/KR/CS/CT)
          dragonshield  "sep=," line, CRLF, Folder Name … Date Bought (NearMint, Simplified Chinese)
          sorted        Dragon Shield's successor: "sep=," line, List Type … (21 columns)
          tcgplayer     Quantity, Name, Simple Name, Set, Card Number, Set Code, Printing, …
          delverlens    Tag, Quantity, Name, Language, Foil, Edition CODE, …, every cell quoted
          arena         deck text: Deck / Sideboard sections, "N Name (SET) NUMBER"
          json          cardscan's own format (every field, including the pool)
        A value a format has no word for is written as its nearest (Mint as Near Mint where there \
        is no Mint); wish list rows are written only by manabox and json. Cells starting with = + - @ \
        are written with a leading ' so a spreadsheet does not run them as formulas.
        Examples:
          cardscan collection export --format moxfield --output moxfield.csv
          cardscan collection export --format archidekt --pool cube > cube.csv
        """
    )

    @Option(help: ArgumentHelp("moxfield, manabox, deckbox, archidekt, dragonshield, sorted, tcgplayer, delverlens, arena or json.", valueName: "format"))
    var format: CollectionFormat

    @Option(help: ArgumentHelp("Export this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let catalog = try? CatalogProvider.open(global)
        let (owned, wanted) = try CollectionAccess.mapped { () -> ([Holding], [Holding]) in
            guard let store = try CollectionAccess.openIfExists(global) else { return ([], []) }
            // Rows kept as given at import are resolved once the catalog knows their printing.
            if let catalog {
                let resolved = try store.resolveUnknownPrintings { set, number, lang in
                    try? CollectionAccess.printing(catalog, set: set, number: number, language: lang)
                }
                if resolved > 0 { Terminal.note("\(resolved) row\(resolved == 1 ? "" : "s") kept as given at import now resolved from the catalog") }
            }
            return (try store.holdings(pool: pool ?? ""), try store.holdings(pool: pool ?? "", wanted: true))
        }
        let text = try CollectionFiles.export(owned + wanted, format: format, setName: { code in catalog?.set(code: code)?.name })
        try CollectionAccess.write(text, to: output)
        let cards = owned.reduce(0) { $0 + $1.quantity }
        var note = "exported \(cards) card\(cards == 1 ? "" : "s") in \(owned.count) row\(owned.count == 1 ? "" : "s") from \(CollectionAccess.place(pool ?? ""))\(output.map { " to \($0)" } ?? "")"
        if !wanted.isEmpty {
            note += format.keepsWishList ? " and \(wanted.count) wish list row\(wanted.count == 1 ? "" : "s")"
                : "; \(wanted.count) wish list row\(wanted.count == 1 ? "" : "s") not written (\(format.rawValue) has no column for them)"
        }
        Terminal.note(note)
    }
}

struct CollectionImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the cards of a Moxfield, ManaBox, Deckbox, Archidekt, Dragon Shield, Sorted, TCGplayer, Delver Lens, Arena or cardscan JSON file.",
        discussion: """
        The format is detected from the header when --format is not given ("sep=," lines, quoting, \
        CRLF or LF, no final newline are all read). Every row is either taken or listed with its line \
        number and the reason it was skipped (an unknown condition, language or finish, a quote that \
        never closes, an unquoted comma in a name, ...); the summary counts rows taken, skipped and not \
        owned (wish list rows, ManaBox Binder Type "list", kept apart from the collection). A printing \
        the catalog does not know (a set newer than the catalog) is kept as given. Trade counts, \
        proxy/altered/signed/misprint, purchase price and currency, date added, tags and binder or \
        folder are kept. The whole file is one batch (`cardscan undo` removes it). A file imported \
        before (same bytes) adds nothing unless --again is given.
        Exit status: 0 when every row was taken, 1 when any row was skipped, 2 on an error.
        Examples:
          cardscan collection import moxfield.csv --dry-run
          cardscan collection import ManaBox_Collection.csv
          cardscan collection import cube.csv --format archidekt --pool cube
        """
    )

    @Argument(help: ArgumentHelp("The file to read.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("moxfield, manabox, deckbox, archidekt, dragonshield, sorted, tcgplayer, delverlens, arena or json (default: detected).", valueName: "format"))
    var format: CollectionFormat?

    @Option(help: ArgumentHelp("Add the cards to this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Flag(help: "Read and report every row without writing anything.")
    var dryRun = false

    @Flag(help: "Import the file even if the same file was imported before (adds its cards again).")
    var again = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let (text, hash) = try Self.load(file)
        guard let format = format ?? CollectionFormat.detect(Substring(text)) else {
            throw CLIError("\(file): unknown file format; pass --format (\(CollectionFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let catalog = try? CatalogProvider.open(global)
        var skippedAny = false
        try CollectionAccess.mapped {
            // One catalog query per row (none for a set the catalog does not know): every language
            // of the printing, the row's own preferred.
            let resolve: CollectionFiles.Resolver = { set, number, lang in
                guard let catalog, catalog.set(code: set) != nil,
                      let all = try? catalog.printings(set: set, number: number, language: nil) else { return nil }
                return all.first { $0.language == lang } ?? all.first
            }
            // The rows go into the collection as they are read, in one transaction (a dry run or a
            // file imported before only counts them).
            var report: CollectionFileReport?
            var batch: Int64?
            var already: (path: String, batch: Int64?)?
            if !dryRun {
                let store = try CollectionAccess.open(global)
                switch try store.importFile(description: "collection import \(file) (\(format.rawValue))", file: (hash, file), again: again, rows: { insert in
                    report = try withoutActuallyEscaping(insert) { insert in
                        try CollectionFiles.read(text, format: format, file: file, pool: pool ?? "", resolve: resolve, each: insert)
                    }
                }) {
                case .imported(let b): batch = b
                case .alreadyImported(let path, let b): already = (path, b)
                case .empty: break
                }
            }
            let r = try report ?? CollectionFiles.read(text, format: format, file: file, pool: pool ?? "", resolve: resolve, each: { _ in })
            skippedAny = !r.skipped.isEmpty
            let cards = r.cards
            if json {
                // Property names are the JSON keys, encoded by name.
                // swift-format-ignore: AlwaysUseLowerCamelCase
                struct Summary: Encodable {
                    let file: String, format: String, dry_run: Bool, batch: Int64?, already_imported_from: String?
                    let rows: Int, taken: Int, skipped: Int, not_owned: Int, cards: Int
                    let skipped_rows: [RowNote], notes: [RowNote]
                }
                print(try JSONOutput.string(Summary(file: file, format: format.rawValue, dry_run: dryRun, batch: batch, already_imported_from: already?.path,
                                                    rows: r.rows, taken: r.taken, skipped: r.skipped.count, not_owned: r.wanted,
                                                    cards: cards, skipped_rows: r.skipped, notes: r.notes)))
            } else {
                for n in r.skipped { Terminal.note("\(file): \(n); skipped") }
                // Every skipped row is listed; remarks on rows taken stop after 20 (--json lists them all).
                for n in r.notes.prefix(20) { Terminal.note("\(file): \(n)") }
                if r.notes.count > 20 { Terminal.note("\(file): \(r.notes.count - 20) more rows kept as given (--json lists them)") }
                let counts = "\(r.rows) row\(r.rows == 1 ? "" : "s"): \(r.taken) taken (\(cards) card\(cards == 1 ? "" : "s")), \(r.skipped.count) skipped, \(r.wanted) not owned (wish list)"
                if dryRun {
                    print("\(file) (\(format.rawValue)): \(counts); dry run, nothing written")
                } else if let already {
                    print("\(file) (\(format.rawValue)): already imported\(already.path == file ? "" : " as \(already.path)")\(already.batch.map { " (batch \($0))" } ?? ""); nothing added (--again adds it again)")
                } else if let batch {
                    print("\(file) (\(format.rawValue)): \(counts); imported into \(CollectionAccess.place(pool ?? "")) (batch \(batch); `cardscan undo` reverts it)")
                } else {
                    print("\(file) (\(format.rawValue)): \(counts); nothing to import")
                }
            }
        }
        // Issue 26's exit codes: 1 when some rows were skipped.
        if skippedAny { throw ExitCode(1) }
    }

    /// The file's text and the SHA-256 of its bytes (the bytes are not kept: a large file is held once).
    static func load(_ file: String) throws -> (text: String, hash: String) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            throw CLIError("\(file): cannot read: \(FileManager.default.fileExists(atPath: file) ? error.localizedDescription : "no such file")")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError("\(file): cannot read: not UTF-8 text") }
        return (text, SHA256Hasher.hex(of: data))
    }
}
