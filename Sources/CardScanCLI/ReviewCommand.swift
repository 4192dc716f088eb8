import ArgumentParser
import CardCatalog
import CardCollection
import Foundation

/// `cardscan review …`: photos the matcher could not settle.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "List and resolve imported photos that were ambiguous or unidentified.",
        discussion: """
        `cardscan import` adds the cards it is sure of; the rest wait here with the printings that \
        fit what was read. Accept a candidate, name the printing yourself, or reject the photo. \
        Resolved cards join the import's batch, so `cardscan undo` still reverts everything.
        Examples:
          cardscan review                        pending photos and their candidates
          cardscan review accept 3               add candidate 1 of item 3
          cardscan review accept 3 --choice 2    add candidate 2
          cardscan review set 4 lea 54           it is Alpha #54
          cardscan review reject 5               not a card / do not add
          cardscan review reject 2 3 7 8         several at once (accept too)
        """,
        subcommands: [ReviewListCommand.self, ReviewAcceptCommand.self, ReviewSetCommand.self, ReviewRejectCommand.self],
        defaultSubcommand: ReviewListCommand.self
    )
}

struct ReviewListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List pending review items with their candidates (the default).",
        discussion: "Examples: cardscan review    cardscan review list --all --json"
    )

    @Flag(help: "Include accepted and rejected items.")
    var all = false

    @Flag(help: "Print a JSON array of items.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let items = try CollectionAccess.mapped { try CollectionAccess.openIfExists(global)?.reviewItems(all: all) } ?? []
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            encoder.keyEncodingStrategy = .convertToSnakeCase
            print(String(decoding: try encoder.encode(items), as: UTF8.self))
            return
        }
        guard !items.isEmpty else { print(all ? "no review items" : "nothing to review"); return }
        for item in items {
            let read = [item.readTitle.map { "title \"\($0)\"" }, item.readSet.map { "set \($0)" }, item.readNumber.map { "number \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
            var line = "#\(item.id)  \(item.matchStatus)  \(item.sourcePath)"
            if item.state != .pending { line += "  [\(item.state.rawValue)]" }
            print(line)
            print("    read: \(read.isEmpty ? "nothing legible" : read)\(item.pool.isEmpty ? "" : "  → pool \"\(item.pool)\"")")
            if item.candidates.isEmpty { print("    no candidates: `cardscan review set \(item.id) SET NUMBER` or `review reject \(item.id)`") }
            for (i, c) in item.candidates.prefix(10).enumerated() {
                print("    \(i + 1). \(c.name) — \(c.set.uppercased()) #\(c.collectorNumber) (\(c.language)\(c.rarity.map { ", \($0)" } ?? ""))  score \(Int((c.score * 100).rounded()))%")
            }
            if item.candidates.count > 10 { print("    … \(item.candidates.count - 10) more (see --json)") }
        }
        if !all { Terminal.note("\(items.count) item\(items.count == 1 ? "" : "s") to review") }
    }
}

struct ReviewAcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Add a candidate of one or more review items to the collection.",
        discussion: "Examples: cardscan review accept 3    cardscan review accept 3 --choice 2    cardscan review accept 2 3 7"
    )

    @Argument(help: ArgumentHelp("Review item numbers (from `cardscan review`).", valueName: "id"))
    var ids: [Int64]

    @Option(help: ArgumentHelp("Which candidate, counting from 1 (the same for every item given).", valueName: "N"))
    var choice = 1

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let store = try CollectionAccess.open(global)
        try ReviewItems.each(ids) { id in
            let item = try store.reviewItem(id: id)
            guard !item.candidates.isEmpty else {
                throw CLIError("review item \(id) (\(item.sourcePath)) has no candidates; use `cardscan review set \(id) SET NUMBER`")
            }
            guard (1...item.candidates.count).contains(choice) else {
                throw CLIError("review item \(id): --choice must be between 1 and \(item.candidates.count)")
            }
            let entry = try store.accept(reviewID: id, printing: item.candidates[choice - 1])
            print("added \(entry.name) — \(entry.setCode.uppercased()) #\(entry.collectorNumber) to \(CollectionAccess.place(entry.pool)) (from \(item.sourcePath))")
        }
    }
}

struct ReviewSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Resolve a review item with the printing you name (set code and collector number).",
        discussion: "Examples: cardscan review set 4 lea 54    cardscan review set 7 bfz 171 --lang ja"
    )

    @Argument(help: ArgumentHelp("Review item number.", valueName: "id"))
    var id: Int64

    @Argument(help: ArgumentHelp("Set code (e.g. bfz).", valueName: "set"))
    var set: String

    @Argument(help: ArgumentHelp("Collector number (e.g. 171).", valueName: "number"))
    var number: String

    @Option(help: ArgumentHelp("Language of the printing (default: the import's --lang, else English).", valueName: "L"))
    var lang: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws { _ = try CollectionAccess.language(lang) }

    func run() throws {
        let store = try CollectionAccess.open(global)
        try CollectionAccess.mapped {
            let item = try store.reviewItem(id: id)
            let catalog = try CatalogProvider.open(global)
            guard let p = try CollectionAccess.printing(catalog, set: set, number: number, language: try CollectionAccess.language(lang) ?? item.language) else {
                throw CollectionAccess.unknownPrinting(catalog, set: set, number: number)
            }
            let candidate = ReviewCandidate(id: p.id, name: p.name, set: p.setCode, collectorNumber: p.collectorNumber,
                                            language: p.language, rarity: p.rarity, score: 1)
            let entry = try store.accept(reviewID: id, printing: candidate)
            print("added \(entry.name) — \(entry.setCode.uppercased()) #\(entry.collectorNumber) to \(CollectionAccess.place(entry.pool)) (from \(item.sourcePath))")
        }
    }
}

struct ReviewRejectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject",
        abstract: "Drop review items without adding a card (the photos stay known, so re-imports skip them).",
        discussion: "Examples: cardscan review reject 5    cardscan review reject 2 3 7 8"
    )

    @Argument(help: ArgumentHelp("Review item numbers.", valueName: "id"))
    var ids: [Int64]

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let store = try CollectionAccess.open(global)
        try ReviewItems.each(ids) { id in
            let item = try store.reviewItem(id: id)
            try store.reject(reviewID: id)
            print("rejected review item \(id) (\(item.sourcePath))")
        }
    }
}

/// Several review items in one command: each is resolved on its own (one transaction each), an
/// item that cannot be is told in one line and the rest go on; exit 1 when some failed, 2 when all did.
enum ReviewItems {
    static func each(_ ids: [Int64], _ body: (Int64) throws -> Void) throws {
        var failed = 0
        for id in ids {
            do { try CollectionAccess.mapped { try body(id) } } catch let error as CLIError {
                if ids.count == 1 { throw error }
                Terminal.note("Error: \(error.description)")
                failed += 1
            }
        }
        if failed > 0 { throw ExitCode(failed == ids.count ? ExitStatus.error : ExitStatus.partial) }
    }
}
