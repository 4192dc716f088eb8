import ArgumentParser
import CardCatalog
import Foundation

/// `cardscan catalog info`: what the catalog holds and where it came from.
struct CatalogInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the catalog's sources, date, counts and sets."
    )

    @Flag(help: "List every set (default: the 10 newest).")
    var sets = false

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    struct Output: Encodable {
        let info: CatalogInfo
        let sets: [CardSet]
    }

    func run() throws {
        let catalog = try CatalogAccess.open(global)
        let info = try catalog.info()
        let allSets = catalog.sets
        if json {
            print(try JSONOutput.string(Output(info: info, sets: allSets)))
            return
        }
        print("catalog: \(info.path)\(info.isSample ? " (built-in sample)" : "")")
        print("updated: \(info.updatedAt ?? "unknown")")
        for i in info.imports {
            print("source:  \(i.path) [\(i.format)\(i.sourceDate.map { ", \($0)" } ?? "")] imported \(i.importedAt): \(i.records) records, \(i.imported) new, \(i.updated) updated, \(i.malformed) malformed")
        }
        let languages = info.languages.sorted { $0.value > $1.value }.prefix(8).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("counts:  \(info.printings) printings of \(info.cards) cards, \(info.sets) sets, \(info.searchNames) searchable names")
        print("languages: \(languages)")
        if let digital = info.digitalOnly {
            print("digital-only printings: \(digital) (left out when matching photos)")
        } else {
            print("digital-only printings: not recorded by the cardscan that built this catalog; import again to record them")
        }
        if let white = info.whiteBordered {
            print("white-bordered printings: \(white) (a photo's border tells them from black-bordered reprints)")
        } else {
            print("border colours: not recorded by the cardscan that built this catalog; import again to record them")
        }
        let shown = sets ? allSets : Array(allSets.prefix(10))
        print(sets ? "sets:" : "newest sets (--sets for all):")
        for s in shown {
            let size = s.printedSize.map { "/\($0)" } ?? ""
            print("  \(s.code.padding(toLength: 6, withPad: " ", startingAt: 0)) \(s.releasedAt ?? "????-??-??")  \(s.name ?? "?") [\(s.type ?? "?")] \(s.cardCount) cards\(size.isEmpty ? "" : ", printed size \(size)")")
        }
    }
}
