import ArgumentParser
import CardCatalog
import CardCollection
import Foundation

/// `cardscan add SET NUMBER`: add copies of a printing by hand.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add copies of a printing to your collection by set code and collector number.",
        discussion: """
        The printing is looked up in the catalog; its Scryfall id, name, set, number and language are \
        stored with the entry. Adding the same printing again raises the quantity.
        Examples:
          cardscan add bfz 171
          cardscan add xln 179 --qty 2 --foil --condition LP
          cardscan add dmu 107 --lang ja --pool cube
        """
    )

    @Argument(help: ArgumentHelp("Set code (e.g. bfz).", valueName: "set"))
    var set: String

    @Argument(help: ArgumentHelp("Collector number (e.g. 171).", valueName: "number"))
    var number: String

    @Option(help: ArgumentHelp("Number of copies.", valueName: "N"))
    var qty = 1

    @Flag(help: "The copies are foil.")
    var foil = false

    @Option(help: ArgumentHelp("Add to this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Option(help: ArgumentHelp("Language (Scryfall code: en, de, ja, …).", valueName: "L"))
    var lang: String?

    @Option(help: ArgumentHelp("Condition: NM, LP, MP, HP or DMG.", valueName: "C"))
    var condition = "NM"

    @Option(help: ArgumentHelp("A tag (repeatable).", valueName: "tag"))
    var tag: [String] = []

    @Flag(help: "Print the entry as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if qty < 1 { throw ValidationError("--qty must be at least 1") }
        _ = try CollectionAccess.condition(condition)
        _ = try CollectionAccess.language(lang)
    }

    func run() throws {
        let store = try CollectionAccess.open(global)
        try CollectionAccess.mapped {
            let catalog = try CatalogProvider.open(global)
            let language = try CollectionAccess.language(lang)
            guard let p = try CollectionAccess.printing(catalog, set: set, number: number, language: language) else {
                throw CollectionAccess.unknownPrinting(catalog, set: set, number: number)
            }
            let entry = try store.add(Entry(scryfallID: p.id, name: p.name, setCode: p.setCode, collectorNumber: p.collectorNumber,
                                            language: language ?? p.language, rarity: p.rarity, quantity: qty,
                                            finish: foil ? .foil : .nonfoil, condition: try CollectionAccess.condition(condition),
                                            pool: pool ?? "", tags: tag))
            if json { print(try JSONOutput.string(entry)); return }
            let total = try store.cardCount(pool: pool ?? "")
            print("added \(qty) × \(p.name) — \(p.setCode.uppercased()) #\(p.collectorNumber) (\(entry.language), \(entry.finish.rawValue), \(entry.condition.rawValue)) to \(CollectionAccess.place(pool ?? "")); now \(entry.quantity) in this row, \(total) card\(total == 1 ? "" : "s") in \(CollectionAccess.place(pool ?? ""))")
        }
    }
}

/// `cardscan remove SET NUMBER`: remove copies of a printing.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove copies of a printing from your collection or a pool.",
        discussion: """
        Copies added by hand go first, then the most recently imported ones. Nothing is removed when \
        fewer copies are held than asked for. --foil, --condition and --lang remove only copies of \
        that finish, condition or language (by default any).
        Examples:
          cardscan remove bfz 171
          cardscan remove xln 179 --qty 2 --pool cube
          cardscan remove bfz 171 --foil --condition LP --lang ja
        """
    )

    @Argument(help: ArgumentHelp("Set code.", valueName: "set"))
    var set: String

    @Argument(help: ArgumentHelp("Collector number.", valueName: "number"))
    var number: String

    @Option(help: ArgumentHelp("Number of copies.", valueName: "N"))
    var qty = 1

    @Option(help: ArgumentHelp("Remove from this pool instead of the main collection.", valueName: "name"))
    var pool: String?

    @Flag(help: "Only foil copies.")
    var foil = false

    @Option(help: ArgumentHelp("Only copies in this condition: NM, LP, MP, HP or DMG.", valueName: "C"))
    var condition: String?

    @Option(help: ArgumentHelp("Only copies in this language (Scryfall code).", valueName: "L"))
    var lang: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        if qty < 1 { throw ValidationError("--qty must be at least 1") }
        _ = try condition.map(CollectionAccess.condition)
        _ = try CollectionAccess.language(lang)
    }

    func run() throws {
        guard let store = try CollectionAccess.openIfExists(global) else {
            throw CLIError("\(global.collectionURL.path): no collection yet; nothing to remove")
        }
        try CollectionAccess.mapped {
            let touched = try store.remove(set: set, number: number, quantity: qty, pool: pool ?? "", finish: foil ? .foil : nil,
                                           condition: try condition.map(CollectionAccess.condition), language: try CollectionAccess.language(lang))
            let name = touched.first?.name ?? "\(set) \(number)"
            print("removed \(qty) × \(name) — \(set.uppercased()) #\(number) from \(CollectionAccess.place(pool ?? ""))")
        }
    }
}
