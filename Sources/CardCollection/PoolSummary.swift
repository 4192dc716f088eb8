import CardCatalog
import Foundation

/// What a pool (or the collection) holds: counts by rarity, colour and card type, and the mana
/// curve. Colour, type and mana value come from the catalog at the time of asking (by Scryfall
/// id, else set + number, else name); cards the catalog lacks are counted under `unknown`.
public struct PoolSummary: Sendable, Codable, Equatable {
    public var name: String
    public var cards: Int
    public var distinct: Int
    public var byRarity: [String: Int]
    /// White, Blue, Black, Red, Green, Multicolor, Colorless.
    public var byColor: [String: Int]
    /// Main card types (a Artifact Creature counts under both).
    public var byType: [String: Int]
    /// Non-land cards by mana value; the key 7 holds 7 and more.
    public var curve: [Int: Int]
    /// Cards the catalog does not know (colour, type and curve unknown).
    public var unknown: Int

    public static let colorNames: [(letter: String, name: String)] = [("W", "White"), ("U", "Blue"), ("B", "Black"), ("R", "Red"), ("G", "Green")]
    public static let typeNames = ["Creature", "Instant", "Sorcery", "Artifact", "Enchantment", "Planeswalker", "Battle", "Land"]

    /// Summarises `entries` using `catalog` (nil: everything but rarity is unknown).
    public init(name: String, entries: [Entry], catalog: CardCatalog?) {
        self.name = name
        cards = entries.reduce(0) { $0 + $1.quantity }
        distinct = Set(entries.map { $0.scryfallID.isEmpty ? "\($0.setCode)/\($0.collectorNumber)" : $0.scryfallID }).count
        byRarity = [:]; byColor = [:]; byType = [:]; curve = [:]; unknown = 0
        var cache: [String: Printing?] = [:]
        for e in entries {
            let key = "\(e.scryfallID)|\(e.setCode)|\(e.collectorNumber)|\(e.language)|\(e.name)"
            let printing: Printing?
            if let hit = cache[key] { printing = hit } else {
                printing = catalog.flatMap { Self.lookup(e, in: $0) }
                cache[key] = printing
            }
            let q = e.quantity
            byRarity[(e.rarity ?? printing?.rarity ?? "unknown").lowercased(), default: 0] += q
            guard let p = printing else { unknown += q; continue }
            let colors = p.colors.filter { c in Self.colorNames.contains { $0.letter == c } }
            let colorKey = colors.isEmpty ? "Colorless" : colors.count > 1 ? "Multicolor" : Self.colorNames.first { $0.letter == colors[0] }!.name
            byColor[colorKey, default: 0] += q
            let typeLine = (p.typeLine ?? "").components(separatedBy: "—").first ?? ""
            var isLand = false
            for t in Self.typeNames where typeLine.contains(t) {
                byType[t, default: 0] += q
                if t == "Land" { isLand = true }
            }
            if !isLand, let mv = p.manaValue { curve[min(7, Int(mv.rounded(.down))), default: 0] += q }
        }
    }

    static func lookup(_ e: Entry, in catalog: CardCatalog) -> Printing? {
        if !e.scryfallID.isEmpty, let p = try? catalog.printing(id: e.scryfallID) { return p }
        if let p = (try? catalog.printings(set: e.setCode, number: e.collectorNumber, language: nil))?.first { return p }
        return (try? catalog.printings(named: e.name))?.first
    }

    /// A text report with bar charts (for `cardscan pool show`).
    public func text(width: Int = 30) -> String {
        var lines = ["\(name): \(cards) card\(cards == 1 ? "" : "s") (\(distinct) distinct)"]
        func section(_ title: String, _ rows: [(String, Int)]) {
            let rows = rows.filter { $0.1 > 0 }
            guard !rows.isEmpty else { return }
            lines.append("")
            lines.append(title)
            let labelWidth = rows.map(\.0.count).max() ?? 0
            let top = rows.map(\.1).max() ?? 1
            for (label, n) in rows {
                let bar = String(repeating: "#", count: max(1, Int((Double(n) / Double(top) * Double(width)).rounded())))
                lines.append("  " + label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  " + String(format: "%3d ", n) + bar)
            }
        }
        let rarityOrder = ["common", "uncommon", "rare", "mythic", "special", "bonus", "unknown"]
        section("Rarity", byRarity.sorted { (rarityOrder.firstIndex(of: $0.key) ?? 99, $0.key) < (rarityOrder.firstIndex(of: $1.key) ?? 99, $1.key) })
        section("Colour", (Self.colorNames.map(\.name) + ["Multicolor", "Colorless"]).map { ($0, byColor[$0] ?? 0) })
        section("Type", Self.typeNames.map { ($0, byType[$0] ?? 0) })
        section("Mana curve (non-land)", (0...7).map { ($0 == 7 ? "7+" : String($0), curve[$0] ?? 0) })
        if unknown > 0 { lines += ["", "\(unknown) card\(unknown == 1 ? "" : "s") not in the catalog: colour, type and mana value unknown"] }
        return lines.joined(separator: "\n")
    }

    /// Deck-list lines: `1 Carnage Tyrant (XLN) 179` (arena) or `1 Carnage Tyrant` (text).
    public static func deckList(_ entries: [Entry], arena: Bool) -> [String] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for e in entries {
            let key = arena ? "\(e.name) (\(e.setCode.uppercased())) \(e.collectorNumber)" : e.name
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += e.quantity
        }
        return order.map { "\(counts[$0]!) \($0)" }
    }
}
