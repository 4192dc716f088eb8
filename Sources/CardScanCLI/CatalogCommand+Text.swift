import ArgumentParser
import CardCatalog
import Foundation

/// `cardscan catalog text LINES...`: printings found by the words printed on them.
struct CatalogTextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Find printings by the words printed on them (rules text, flavor text, type line, artist).",
        discussion: """
        Give OCR'd lines in any order; misread and unknown words are tolerated (each word is read as the catalog word it looks like, or left out). Each result shows its score (the share of the query's word weight found on the printing, rare words weighing more) and the words it holds, with where they are printed. Flavor text and artist tell reprints apart.
        Exit status: 0 when something was found, 1 when nothing was.
        Examples:
          cardscan catalog text "Flying, vigilance" "Her sword sings more beautifully"
          tesseract photo.jpg - | cardscan catalog text -
        """
    )

    @Argument(help: ArgumentHelp("Lines of text (`-` reads standard input).", valueName: "text"))
    var text: [String]

    @Option(help: "Maximum number of printings shown.")
    var limit = 10

    @Flag(help: "Print a JSON object (words used, corrected and ignored; matches).")
    var json = false

    @OptionGroup var global: GlobalOptions

    // Property names are the JSON keys, encoded by name.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct Output: Encodable {
        struct Match: Encodable {
            var printing: Printing
            var score: Double
            var relevance: Double
            var matched_words: [String: [String]]
            /// The printing's name was read in a row in the text, and its own rules text names it.
            var names_itself: Bool
        }
        var words: [String]
        var corrected: [String: String]
        var ignored: [String]
        var matches: [Match]
    }

    func run() throws {
        var query = text.filter { $0 != "-" }.joined(separator: "\n")
        if text.contains("-") {
            query += "\n" + String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw CLIError("text: empty text") }
        let catalog = try CatalogAccess.open(global)
        let result: TextSearchResult
        do { result = try catalog.searchText(query, limit: limit) } catch let error as CatalogError {
            throw CLIError(error.description)
        }
        if json {
            let matches = result.matches.map { m in
                Output.Match(printing: m.printing, score: (m.score * 1000).rounded() / 1000,
                             relevance: (m.relevance * 1000).rounded() / 1000,
                             matched_words: m.matchedWords.mapValues { $0.map(\.rawValue).sorted() },
                             names_itself: m.namesItself)
            }
            print(try JSONOutput.string(Output(words: result.words.map(\.word), corrected: result.corrected,
                                               ignored: result.ignored, matches: matches)))
        } else {
            if !result.corrected.isEmpty {
                Terminal.note("read as: " + result.corrected.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }.joined(separator: ", "))
            }
            if result.words.isEmpty { Terminal.note("no word of the text is a distinctive word of any printing") }
            let order = Dictionary(uniqueKeysWithValues: result.words.enumerated().map { ($1.word, $0) })
            for m in result.matches {
                let p = m.printing
                let words = m.matchedWords.sorted { (order[$0.key] ?? 0) < (order[$1.key] ?? 0) }
                    .map { "\($0.key) (\($0.value.map(\.rawValue).sorted().joined(separator: ",")))" }
                print(String(format: "%.3f  ", m.score) + "\(p.name)  \(p.setCode) \(p.collectorNumber) \(p.language)"
                      + (p.releasedAt.map { "  \($0)" } ?? ""))
                print("       " + words.joined(separator: " ") + (m.namesItself ? "  [its name read in its text]" : ""))
            }
        }
        if result.matches.isEmpty { throw ExitCode(1) }
    }
}
