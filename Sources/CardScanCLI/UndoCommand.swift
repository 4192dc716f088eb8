import ArgumentParser
import CardCollection
import Foundation

/// `cardscan undo`: revert the last import batch.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the last import (photos or a collection file), exactly.",
        discussion: """
        Removes the cards the last `cardscan import` or `cardscan collection import` added (including \
        cards later accepted from its review items), its review items, and forgets its photos, so \
        importing them again works. Run it again to undo the import before.
        Examples:
          cardscan import new-cards/    # oops, wrong pool
          cardscan undo
          cardscan import new-cards/ --pool cube
        """
    )

    @Flag(help: "Print what was reverted as JSON.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        guard let store = try CollectionAccess.openIfExists(global),
              let report = try CollectionAccess.mapped({ try store.undoLastBatch() }) else {
            throw CLIError("nothing to undo: no import in \(global.collectionURL.path)")
        }
        if json { print(try JSONOutput.string(report)); return }
        print("undid batch \(report.batch.id) (\(report.batch.description)): removed \(report.cardsRemoved) card\(report.cardsRemoved == 1 ? "" : "s") "
            + "in \(report.entriesRemoved) entr\(report.entriesRemoved == 1 ? "y" : "ies"), \(report.reviewItemsRemoved) review item\(report.reviewItemsRemoved == 1 ? "" : "s"), "
            + "forgot \(report.photosForgotten) photo\(report.photosForgotten == 1 ? "" : "s")")
    }
}
