import ArgumentParser
import CardCatalog
import CardCollection
import Foundation

/// `cardscan collection …`: list, export and import the collection.
struct CollectionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection",
        abstract: "List your collection, or export / import it as Moxfield, ManaBox, Deckbox, Archidekt or JSON files.",
        discussion: """
        The collection lives in <data-dir>/collection.sqlite (see --data-dir), apart from the catalog. \
        Without --pool the commands work on the main collection; pools (`cardscan pool list`) are \
        separate.
        Examples:
          cardscan collection list
          cardscan collection list --pool cube --json
          cardscan collection export --format moxfield --output moxfield.csv
          cardscan collection import manabox.csv --format manabox
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
        Formats (each file starts with the header the app's own import expects):
          moxfield   Count, Tradelist Count, Name, Edition, Condition, … (13 columns)
          manabox    Name, Set code, Set name, Collector number, Foil, … (15 columns)
          deckbox    Count, Tradelist Count, Name, Edition, … (24 columns)
          archidekt  Quantity, Name, Finish, Condition, Date Added, … (13 columns)
          json       cardscan's own format (every field, including the pool)
        Conditions and languages are written the way each app does (Moxfield "Near Mint"/"English", \
        ManaBox "near_mint"/"en", Deckbox "Near Mint"/"English", Archidekt "NM"/"EN").
        Examples:
          cardscan collection export --format moxfield --output moxfield.csv
          cardscan collection export --format archidekt --pool cube > cube.csv
        """
    )

    @Option(help: ArgumentHelp("moxfield, manabox, deckbox, archidekt or json.", valueName: "format"))
    var format: CollectionFormat

    @Option(help: ArgumentHelp("Export this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let holdings = try CollectionAccess.mapped { try CollectionAccess.openIfExists(global)?.holdings(pool: pool ?? "") } ?? []
        let catalog = format == .json || format == .moxfield ? nil : try? CatalogProvider.open(global)
        let text = try CollectionFiles.export(holdings, format: format, setName: { code in catalog?.set(code: code)?.name })
        try CollectionAccess.write(text, to: output)
        let cards = holdings.reduce(0) { $0 + $1.quantity }
        Terminal.note("exported \(cards) card\(cards == 1 ? "" : "s") in \(holdings.count) row\(holdings.count == 1 ? "" : "s") from \(CollectionAccess.place(pool ?? ""))\(output.map { " to \($0)" } ?? "")")
    }
}

struct CollectionImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the cards of a Moxfield, ManaBox, Deckbox, Archidekt or cardscan JSON file.",
        discussion: """
        The format is detected from the header when --format is not given. Rows without a Scryfall \
        id (Moxfield) are looked up in the catalog by set code and collector number. Rows that cannot \
        be read are reported with their line number and skipped. The whole file is one batch: \
        `cardscan undo` removes it again.
        Examples:
          cardscan collection import moxfield.csv --format moxfield
          cardscan collection import export.csv
          cardscan collection import cube.csv --format archidekt --pool cube
        """
    )

    @Argument(help: ArgumentHelp("The file to read.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("moxfield, manabox, deckbox, archidekt or json (default: detected).", valueName: "format"))
    var format: CollectionFormat?

    @Option(help: ArgumentHelp("Add the cards to this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw CLIError("\(file): cannot read: \(FileManager.default.fileExists(atPath: file) ? "not UTF-8 text" : "no such file")")
        }
        guard let format = format ?? Self.detect(text) else {
            throw CLIError("\(file): unknown file format; pass --format moxfield|manabox|deckbox|archidekt|json")
        }
        let store = try CollectionAccess.open(global)
        let catalog = try? CatalogProvider.open(global)
        try CollectionAccess.mapped {
            let (holdings, problems) = try CollectionFiles.parse(text, format: format, file: file, pool: pool ?? "") { set, number, lang in
                guard let catalog else { return nil }
                return try? CollectionAccess.printing(catalog, set: set, number: number, language: lang)
            }
            for p in problems { Terminal.note(p) }
            guard !holdings.isEmpty else { throw CLIError("\(file): no cards to import") }
            let batch = try store.importHoldings(holdings, description: "collection import \(file) (\(format.rawValue))")
            let cards = holdings.reduce(0) { $0 + $1.quantity }
            if json {
                struct Summary: Encodable { let batch: Int64; let rows: Int; let cards: Int; let skipped_rows: Int; let problems: [String] }
                print(try JSONOutput.string(Summary(batch: batch, rows: holdings.count, cards: cards, skipped_rows: problems.filter { $0.hasSuffix("skipped") }.count, problems: problems)))
            } else {
                print("imported \(cards) card\(cards == 1 ? "" : "s") in \(holdings.count) row\(holdings.count == 1 ? "" : "s") from \(file) (\(format.rawValue)) into \(CollectionAccess.place(pool ?? "")) (batch \(batch); `cardscan undo` reverts it)")
            }
        }
    }

    /// The format whose header the file starts with.
    static func detect(_ text: String) -> CollectionFormat? {
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.first == "[" { return .json }
        let firstLine = trimmed.prefix { $0 != "\n" && $0 != "\r" }
        let columns = Set(firstLine.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) })
        return CollectionFormat.allCases.filter { $0 != .json }.max { a, b in
            columns.intersection(a.header).count < columns.intersection(b.header).count
        }.flatMap { columns.isSuperset(of: $0.requiredColumns) ? $0 : nil }
    }
}
