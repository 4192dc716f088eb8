import ArgumentParser
import CardCatalog
import Foundation

/// `cardscan catalog card SET NUMBER`: the printing(s) with this set code and collector number.
struct CatalogCardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Look up a printing by set code and collector number.",
        discussion: """
        Shows the printing's name, set, rarity, type line and mana cost, its frame, border and artist, the Oracle, printed and flavor text (what a photo of it shows), finishes and prices.
        Examples: cardscan catalog card bfz 171    cardscan catalog card m10 146 --lang ja
        """
    )

    @Argument(help: ArgumentHelp("Set code (e.g. bfz).", valueName: "set"))
    var set: String

    @Argument(help: ArgumentHelp("Collector number as printed (171, 12a, ★).", valueName: "number"))
    var number: String

    @Option(help: ArgumentHelp("Language code (en, ja, de, …); `any` for every language.", valueName: "code"))
    var lang = "en"

    @Flag(help: "Print a JSON array.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let catalog = try CatalogAccess.open(global)
        let printings = try catalog.printings(set: set, number: number, language: lang == "any" ? nil : lang)
        if json {
            print(try JSONOutput.string(printings))
            if printings.isEmpty { throw ExitCode(1) }
            return
        }
        guard !printings.isEmpty else {
            var message = "no printing \(set) \(number) (\(lang)) in the catalog"
            if catalog.set(code: set) == nil {
                let near = catalog.nearestSetCodes(set, limit: 3).map(\.code)
                if !near.isEmpty { message += "; unknown set code, nearest: \(near.joined(separator: ", "))" }
            }
            throw CLIError(message)
        }
        for p in printings {
            let setName = catalog.set(code: p.setCode)?.name ?? p.setCode
            print("\(p.name)\(p.printedName.map { " (\($0))" } ?? "")")
            print("  \(p.setCode) \(p.collectorNumber) \(p.language)  \(setName)\(p.releasedAt.map { ", \($0)" } ?? "")")
            let mana = [p.manaCost, p.manaValue.map { "mv \(String(format: "%g", $0))" }].compactMap { $0 }.filter { !$0.isEmpty }
            print("  \([p.rarity, p.typeLine].compactMap { $0 }.joined(separator: "  "))\(mana.isEmpty ? "" : "  " + mana.joined(separator: " "))")
            if !p.faceNames.isEmpty { print("  faces: \(p.faceNames.joined(separator: " | "))") }
            let look = [p.frame.map { "\($0) frame" }, p.borderColor.map { "\($0.rawValue) border" }, p.artist.map { "illus. \($0)" }]
                .compactMap { $0 }
            if !look.isEmpty { print("  " + look.joined(separator: ", ")) }
            if let printed = p.printedTypeLine, printed != p.typeLine { print("  printed type: \(printed)") }
            for (label, text) in [("oracle", p.oracleText), ("printed", p.printedText), ("flavor", p.flavorText)] {
                guard let text, !(label == "printed" && text == p.oracleText) else { continue }
                let lines = text.components(separatedBy: "\n")
                print("  \(label): \(lines[0])")
                for line in lines.dropFirst() { print("    \(line)") }
            }
            if !p.finishes.isEmpty { print("  finishes: \(p.finishes.joined(separator: ", "))") }
            if let prices = p.prices {
                print("  prices: " + [("usd", prices.usd), ("usd foil", prices.usdFoil), ("eur", prices.eur), ("tix", prices.tix)]
                    .compactMap { k, v in v.map { "\(k) \($0)" } }.joined(separator: ", "))
            }
            print("  scryfall id: \(p.id)")
        }
    }
}
