import ArgumentParser
import CardCatalog
import CardCollection
import Foundation

/// `cardscan pool …`: named pools (a sealed pool, a cube, a box to sort) kept apart from the collection.
struct PoolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pool",
        abstract: "Named pools of cards (sealed pools, cubes, …): list, statistics, deck-list export.",
        discussion: """
        A pool is created by importing or adding cards with --pool NAME.
        Examples:
          cardscan import sealed/ --pool "MOM prerelease"
          cardscan pool list
          cardscan pool show "MOM prerelease"
          cardscan pool export "MOM prerelease" --format arena > pool.txt
          cardscan pool rename "MOM prerelease" "MOM sealed"
          cardscan pool rename cube ""             move a pool's cards into the collection
          cardscan pool delete "MOM sealed" --yes
        """,
        subcommands: [PoolListCommand.self, PoolShowCommand.self, PoolExportCommand.self, PoolRenameCommand.self, PoolDeleteCommand.self],
        defaultSubcommand: PoolListCommand.self
    )
}

struct PoolListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the pools with their card counts (the default).",
        discussion: "Examples: cardscan pool list    cardscan pool list --json"
    )

    @Flag(help: "Print a JSON array of {name, cards, entries}.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let pools = try CollectionAccess.mapped { try CollectionAccess.openIfExists(global)?.pools() } ?? []
        if json {
            struct Row: Encodable { let name: String; let cards: Int; let entries: Int }
            print(try JSONOutput.string(pools.map { Row(name: $0.name, cards: $0.cards, entries: $0.entries) }))
            return
        }
        guard !pools.isEmpty else { print("no pools (create one with `cardscan import PHOTOS --pool NAME` or `cardscan add SET NUMBER --pool NAME`)"); return }
        for p in pools { print(String(format: "%5d  ", p.cards) + p.name) }
    }
}

struct PoolShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Counts by rarity, colour and card type, and the mana curve, of a pool.",
        discussion: """
        Colour, type and mana value come from the catalog (by Scryfall id, else set and number, else \
        name); cards the catalog lacks are counted as unknown. Use an empty name ("") for the main \
        collection.
        Examples:
          cardscan pool show "MOM prerelease"
          cardscan pool show cube --json
        """
    )

    @Argument(help: ArgumentHelp("Pool name.", valueName: "name"))
    var name: String

    @Flag(help: "Print the counts as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let entries = try PoolAccess.entries(global, pool: name)
        let catalog = try? CatalogProvider.open(global)
        let summary = PoolSummary(name: name.isEmpty ? "collection" : name, entries: entries, catalog: catalog)
        if json { print(try JSONOutput.string(summary)); return }
        print(summary.text())
    }
}

struct PoolExportCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable { case arena, text }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a pool as a deck list: MTG Arena (`1 Carnage Tyrant (XLN) 179`) or plain text (`1 Carnage Tyrant`).",
        discussion: """
        Examples:
          cardscan pool export sealed --format arena > sealed.txt
          cardscan pool export cube --format text --output cube.txt
        """
    )

    @Argument(help: ArgumentHelp("Pool name.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("arena or text.", valueName: "format"))
    var format: Format = .arena

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let entries = try PoolAccess.entries(global, pool: name)
        let lines = PoolSummary.deckList(entries, arena: format == .arena)
        try CollectionAccess.write(lines.map { $0 + "\n" }.joined(), to: output)
    }
}

struct PoolRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a pool; an empty new name (\"\") moves its cards into the main collection.",
        discussion: """
        Pending review items of the pool follow it. A rename never merges two pools.
        Examples:
          cardscan pool rename sealed "MOM sealed"
          cardscan pool rename cube ""
        """
    )

    @Argument(help: ArgumentHelp("The pool's name.", valueName: "name"))
    var name: String

    @Argument(help: ArgumentHelp("Its new name (\"\" for the main collection).", valueName: "new-name"))
    var newName: String

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let store = try CollectionAccess.open(global)
        let moved = try CollectionAccess.mapped { try store.renamePool(name, to: newName) }
        print("moved \(moved) row\(moved == 1 ? "" : "s") from pool \"\(name)\" to \(CollectionAccess.place(newName))")
    }
}

struct PoolDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a pool and the cards in it (to keep the cards, `pool rename NAME \"\"`).",
        discussion: """
        Asks for --yes: the cards leave the collection and `cardscan undo` does not bring them back.
        Example:
          cardscan pool delete "old draft" --yes
        """
    )

    @Argument(help: ArgumentHelp("The pool's name.", valueName: "name"))
    var name: String

    @Flag(help: "Really delete the pool's cards.")
    var yes = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let entries = try PoolAccess.entries(global, pool: name)
        guard yes else {
            let cards = entries.reduce(0) { $0 + $1.quantity }
            throw CLIError("pool \"\(name)\" holds \(cards) card\(cards == 1 ? "" : "s"); add --yes to delete them "
                + "(or `cardscan pool rename \"\(name)\" \"\"` to move them into the collection)")
        }
        let store = try CollectionAccess.open(global)
        let removed = try CollectionAccess.mapped { try store.deletePool(name) }
        print("deleted pool \"\(name)\": \(removed.cards) card\(removed.cards == 1 ? "" : "s") in \(removed.entries) row\(removed.entries == 1 ? "" : "s")")
    }
}

enum PoolAccess {
    /// The entries of a pool; a clear error naming the known pools when it does not exist.
    static func entries(_ global: GlobalOptions, pool: String) throws -> [Entry] {
        try CollectionAccess.mapped {
            guard let store = try CollectionAccess.openIfExists(global) else {
                throw CLIError("no pool \"\(pool)\": the collection \(global.collectionURL.path) does not exist yet")
            }
            let entries = try store.entries(pool: pool)
            if entries.isEmpty && !pool.isEmpty {
                let names = try store.pools().map(\.name)
                throw CLIError("no pool \"\(pool)\"" + (names.isEmpty ? " (there are no pools yet)" : " (pools: \(names.joined(separator: ", ")))"))
            }
            return entries
        }
    }
}
