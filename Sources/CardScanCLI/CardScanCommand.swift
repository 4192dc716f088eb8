import ArgumentParser

/// The `cardscan` root command.
public struct CardScanCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "cardscan",
        abstract: "Recognise Magic: The Gathering cards in photos, offline.",
        discussion: """
        Typical use:
          cardscan identify photo.jpg        the card in a photo: name, set, number
          cardscan scan ~/Pictures/cards     every card in a folder (or --json)
          cardscan import ~/Pictures/cards   add them to your collection
          cardscan ocr photo.jpg             raw text the OCR engine sees, with boxes
          cardscan catalog update            download Scryfall's card data
        """,
        subcommands: CommandRegistry.subcommands
    )

    public init() {}
}

/// The list of subcommands, in the order `--help` shows them.
enum CommandRegistry {
    static var subcommands: [any ParsableCommand.Type] {
        [IdentifyCommand.self, ScanCommand.self, ReadCommand.self, CatalogCommand.self, OCRCommand.self,
         ImportCommand.self, ReviewCommand.self, AddCommand.self, RemoveCommand.self, UndoCommand.self,
         CollectionCommand.self, PoolCommand.self]
    }
}

extension CardScanCommand {
    /// Parses the process arguments and runs the chosen subcommand (async entry point).
    public static func run() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
