import ArgumentParser
import CardScanTerminal
import Foundation

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

        Options every command accepts (also shown by --help-hidden):
          --data-dir <path>   databases ($CARDSCAN_HOME or ~/.local/share/cardscan)
          --catalog <path>    card catalog (default: <data-dir>/catalog.sqlite)
          --tessdata <path>   Tesseract models (default: $TESSDATA_PREFIX)

        Exit status (every command): 0 identified / done; 1 not identified (ambiguous or \
        unidentified), or some files or rows failed or were skipped while the rest went on; \
        2 error (nothing could be done: a missing file, an unusable database, …); 64 usage \
        (a wrong option or argument). Errors are one line on standard error.
        """,
        version: CardScanCommand.version,
        subcommands: CommandRegistry.subcommands
    )

    /// Printed by `cardscan --version`.
    public static let version = "0.1.0"

    public init() {}

    /// Bare `cardscan`: the help on standard error and the usage status (a script that forgot the
    /// subcommand must not see success).
    public func run() async throws {
        StandardError.line(Self.helpMessage())
        throw ExitCode(ExitStatus.usage)
    }
}

/// The exit statuses every command shares (documented in `cardscan --help` and the README).
enum ExitStatus {
    static let done: Int32 = 0
    /// Not identified, or some items failed or were skipped while the batch went on.
    static let partial: Int32 = 1
    /// The command could not do its job.
    static let error: Int32 = 2
    /// A wrong option or argument (EX_USAGE, as ArgumentParser's validation errors).
    static let usage: Int32 = 64
}

/// The list of subcommands, in the order `--help` shows them.
enum CommandRegistry {
    static var subcommands: [any ParsableCommand.Type] {
        [IdentifyCommand.self, ScanCommand.self, ReadCommand.self, CatalogCommand.self, OCRCommand.self,
         ImportCommand.self, ReviewCommand.self, AddCommand.self, RemoveCommand.self, UndoCommand.self,
         CollectionCommand.self, PoolCommand.self, ServeCommand.self]
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
            // ArgumentParser gives 0 for --help/--version, 64 for usage errors and 1 for any
            // other error; an error of the command itself is status 2 (1 means "not identified").
            guard !(error is ExitCode), exitCode(for: error) == .failure else { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { Terminal.note(message) }
            Foundation.exit(ExitStatus.error)
        }
    }
}
