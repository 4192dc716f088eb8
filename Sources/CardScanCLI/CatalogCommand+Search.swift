import ArgumentParser
import CardCatalog
import Foundation

/// `cardscan catalog search TEXT`: fuzzy name search, ranked with scores.
struct CatalogSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Fuzzy-search card names (tolerates OCR errors), ranked with scores 0–1.",
        discussion: """
            Names that begin with the text as whole words come first (\"Name\" finds \"Name, Epithet\" \
            before \"Name's Spell\"), then the others, each by score.
            Example: cardscan catalog search \"Gurrnag Drovvner\"
            """
    )

    @Argument(help: ArgumentHelp("Text to look for (several words are joined).", valueName: "text"))
    var text: [String]

    @Option(help: "Maximum number of results.")
    var limit = 10

    @Option(help: ArgumentHelp("Minimum score 0…1.", valueName: "score"))
    var minScore = 0.3

    @Flag(help: "Print a JSON array.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let query = text.joined(separator: " ")
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw CLIError("search: empty text") }
        let catalog = try CatalogAccess.open(global)
        let matches = catalog.searchNames(query, limit: limit, minimumScore: minScore, wholeWordsFirst: true)
        if json {
            print(try JSONOutput.string(matches))
            return
        }
        if matches.isEmpty { Terminal.note("no name close to \"\(query)\"") }
        for m in matches {
            let via = m.matchedText == m.name ? "" : "  (\(m.kind.rawValue): \(m.matchedText))"
            print(String(format: "%.3f  ", m.score) + "\(m.name)  [\(m.printings) printing\(m.printings == 1 ? "" : "s")]\(via)")
        }
    }
}
