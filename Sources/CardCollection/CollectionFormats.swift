import CardCatalog
import CSV
import Foundation

/// Collection file formats of other apps, with the exact headers they write and read.
///
/// Value mappings (cardscan → file; reading also accepts the loose forms `Condition(loose:)` knows):
///
/// | cardscan | Moxfield          | ManaBox      | Deckbox                | Archidekt |
/// |----------|-------------------|--------------|------------------------|-----------|
/// | NM       | Near Mint         | near_mint    | Near Mint              | NM        |
/// | LP       | Lightly Played    | excellent    | Good (Lightly Played)  | LP        |
/// | MP       | Moderately Played | good         | Played                 | MP        |
/// | HP       | Heavily Played    | played       | Heavily Played         | HP        |
/// | DMG      | Damaged           | poor         | Poor                   | D         |
/// | nonfoil  | (empty)           | normal       | (empty)                | Normal    |
/// | foil     | foil              | foil         | foil                   | Foil      |
/// | etched   | etched            | etched       | foil + Printing Note "Etched" | Etched |
/// | language | English, Japanese… | en, ja…     | English, Japanese…     | EN, JA…   |
///
/// ManaBox grades on the European scale (mint, near_mint, excellent, good, light_played, played,
/// poor); reading maps mint→NM, light_played→MP. Deckbox reads Mint→NM. Set codes are written
/// lower-case for Moxfield and Archidekt, upper-case for ManaBox and Deckbox, and read in any case.
public enum CollectionFormat: String, CaseIterable, Sendable {
    case moxfield, manabox, deckbox, archidekt, json

    /// The header row this format writes (and requires, by column name, when reading).
    public var header: [String] {
        switch self {
        case .moxfield:
            return ["Count", "Tradelist Count", "Name", "Edition", "Condition", "Language", "Foil", "Tags", "Last Modified",
                    "Collector Number", "Alter", "Proxy", "Purchase Price"]
        case .manabox:
            return ["Name", "Set code", "Set name", "Collector number", "Foil", "Rarity", "Quantity", "ManaBox ID", "Scryfall ID",
                    "Purchase price", "Misprint", "Altered", "Condition", "Language", "Purchase price currency"]
        case .deckbox:
            return ["Count", "Tradelist Count", "Name", "Edition", "Edition Code", "Card Number", "Condition", "Language", "Foil",
                    "Signed", "Artist Proof", "Altered Art", "Misprint", "Promo", "Textless", "Printing Id", "Printing Note", "Tags",
                    "My Price", "Cost", "Rarity", "Price", "TcgPlayer ID", "Scryfall ID"]
        case .archidekt:
            return ["Quantity", "Name", "Finish", "Condition", "Date Added", "Language", "Purchase Price", "Tags", "Edition Name",
                    "Edition Code", "Multiverse Id", "Scryfall ID", "Collector Number"]
        case .json:
            return []
        }
    }

    /// Columns a file must have to be read in this format.
    public var requiredColumns: [String] {
        switch self {
        case .moxfield: return ["Count", "Name", "Edition", "Collector Number"]
        case .manabox: return ["Name", "Set code", "Collector number", "Quantity"]
        case .deckbox: return ["Count", "Name", "Edition Code", "Card Number"]
        case .archidekt: return ["Quantity", "Name", "Edition Code", "Collector Number"]
        case .json: return []
        }
    }

    // MARK: Mapping tables

    static let conditionNames: [CollectionFormat: [Condition: String]] = [
        .moxfield: [.nm: "Near Mint", .lp: "Lightly Played", .mp: "Moderately Played", .hp: "Heavily Played", .dmg: "Damaged"],
        .manabox: [.nm: "near_mint", .lp: "excellent", .mp: "good", .hp: "played", .dmg: "poor"],
        .deckbox: [.nm: "Near Mint", .lp: "Good (Lightly Played)", .mp: "Played", .hp: "Heavily Played", .dmg: "Poor"],
        .archidekt: [.nm: "NM", .lp: "LP", .mp: "MP", .hp: "HP", .dmg: "D"],
    ]

    /// Extra spellings read per format, beyond the written names and `Condition(loose:)`.
    static let conditionAliases: [CollectionFormat: [String: Condition]] = [
        .manabox: ["mint": .nm, "light_played": .mp, "excellent": .lp, "good": .mp, "played": .hp],
        .deckbox: ["mint": .nm, "good (lightly played)": .lp, "played": .mp],
    ]

    /// Scryfall language codes and the English names Moxfield and Deckbox write.
    static let languageNames: [(code: String, moxfield: String, deckbox: String)] = [
        ("en", "English", "English"), ("ja", "Japanese", "Japanese"), ("de", "German", "German"), ("fr", "French", "French"),
        ("it", "Italian", "Italian"), ("es", "Spanish", "Spanish"), ("pt", "Portuguese", "Portuguese"),
        ("ru", "Russian", "Russian"), ("ko", "Korean", "Korean"), ("zhs", "Chinese Simplified", "Simplified Chinese"),
        ("zht", "Chinese Traditional", "Traditional Chinese"), ("he", "Hebrew", "Hebrew"), ("la", "Latin", "Latin"),
        ("grc", "Ancient Greek", "Ancient Greek"), ("ar", "Arabic", "Arabic"), ("sa", "Sanskrit", "Sanskrit"),
        ("ph", "Phyrexian", "Phyrexian"),
    ]

    func conditionText(_ c: Condition) -> String { Self.conditionNames[self]?[c] ?? c.rawValue }

    func condition(from text: String) -> Condition? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return .nm }
        if let exact = Self.conditionNames[self]?.first(where: { $0.value.caseInsensitiveCompare(t) == .orderedSame })?.key { return exact }
        if let alias = Self.conditionAliases[self]?[t.lowercased()] { return alias }
        return Condition(loose: t)
    }

    func languageText(_ code: String) -> String {
        switch self {
        case .moxfield: return Self.languageNames.first { $0.code == code }?.moxfield ?? code
        case .deckbox: return Self.languageNames.first { $0.code == code }?.deckbox ?? code
        case .archidekt: return code.uppercased()
        default: return code
        }
    }

    func language(from text: String) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty { return "en" }
        if let row = Self.languageNames.first(where: {
            $0.code.caseInsensitiveCompare(t) == .orderedSame || $0.moxfield.caseInsensitiveCompare(t) == .orderedSame
                || $0.deckbox.caseInsensitiveCompare(t) == .orderedSame
        }) { return row.code }
        return t.lowercased()
    }
}

/// Reading and writing collection files.
public enum CollectionFiles {
    /// Set name lookup for formats that write one (Deckbox "Edition", ManaBox "Set name", Archidekt "Edition Name").
    public typealias SetNamer = @Sendable (String) -> String?
    /// Printing lookup by (set, collector number, language) for rows without a Scryfall id.
    public typealias Resolver = (_ set: String, _ number: String, _ language: String) -> Printing?

    // MARK: Writing

    /// The file text for `holdings` in `format`.
    public static func export(_ holdings: [Holding], format: CollectionFormat, setName: SetNamer = { _ in nil }) throws -> String {
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .custom { date, enc in
                var c = enc.singleValueContainer()
                try c.encode(Dates.iso.string(from: date))
            }
            return String(decoding: try encoder.encode(holdings), as: UTF8.self) + "\n"
        }
        let stream = OutputStream(toMemory: ())
        stream.open()
        let csv = try CSVWriter(stream: stream)
        try csv.write(row: format.header)
        for h in holdings {
            try csv.write(row: row(h, format: format, setName: setName))
        }
        csv.stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func row(_ h: Holding, format: CollectionFormat, setName: SetNamer) -> [String] {
        let tags = h.tags.joined(separator: ",")
        let price = h.purchasePrice ?? ""
        switch format {
        case .moxfield:
            return [String(h.quantity), "0", h.name, h.setCode.lowercased(), format.conditionText(h.condition), format.languageText(h.language),
                    h.finish == .nonfoil ? "" : h.finish.rawValue, tags, Dates.moxfield.string(from: h.addedAt), h.collectorNumber,
                    "False", "False", price]
        case .manabox:
            return [h.name, h.setCode.uppercased(), setName(h.setCode) ?? "", h.collectorNumber, h.finish == .nonfoil ? "normal" : h.finish.rawValue,
                    h.rarity ?? "", String(h.quantity), "", h.scryfallID, price, "false", "false", format.conditionText(h.condition),
                    h.language, price.isEmpty ? "" : "USD"]
        case .deckbox:
            return [String(h.quantity), "0", h.name, setName(h.setCode) ?? h.setCode.uppercased(), h.setCode.uppercased(), h.collectorNumber,
                    format.conditionText(h.condition), format.languageText(h.language), h.finish == .nonfoil ? "" : "foil",
                    "", "", "", "", "", "", "", h.finish == .etched ? "Etched" : "", tags, price, "", deckboxRarity(h.rarity), "", "", h.scryfallID]
        case .archidekt:
            return [String(h.quantity), h.name, h.finish.rawValue == "nonfoil" ? "Normal" : h.finish.rawValue.capitalized,
                    format.conditionText(h.condition), Dates.day.string(from: h.addedAt), format.languageText(h.language), price, tags,
                    setName(h.setCode) ?? "", h.setCode.lowercased(), "", h.scryfallID, h.collectorNumber]
        case .json:
            return []
        }
    }

    static func deckboxRarity(_ r: String?) -> String {
        guard let r, !r.isEmpty else { return "" }
        return r.lowercased() == "mythic" ? "MythicRare" : r.capitalized
    }

    // MARK: Reading

    /// Holdings read from a file's text. Rows that cannot be read are reported in `problems`
    /// ("line N: …") and skipped. `resolve` fills the Scryfall id and rarity when the file has none.
    public static func parse(_ text: String, format: CollectionFormat, file: String, pool: String = "",
                             resolve: Resolver? = nil) throws -> (holdings: [Holding], problems: [String]) {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if format == .json { return (try parseJSON(text, file: file, pool: pool), []) }
        let reader: CSVReader
        do { reader = try CSVReader(string: text, hasHeaderRow: true) } catch {
            throw CollectionError.invalid("\(file): cannot read the CSV header (\(error))")
        }
        let header = reader.headerRow ?? []
        let missing = format.requiredColumns.filter { !header.contains($0) }
        guard missing.isEmpty else {
            throw CollectionError.invalid("\(file): not a \(format.rawValue) CSV (missing column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); header is \(header.prefix(6).joined(separator: ","))…)")
        }
        var holdings: [Holding] = [], problems: [String] = []
        var line = 1
        while reader.next() != nil {
            line += 1
            func f(_ column: String) -> String { (reader[column] ?? "").trimmingCharacters(in: .whitespaces) }
            let countColumn = format == .moxfield || format == .deckbox ? "Count" : "Quantity"
            let name = f("Name")
            guard !name.isEmpty else { problems.append("\(file): line \(line): no card name; skipped"); continue }
            guard let quantity = Int(f(countColumn)), quantity > 0 else {
                problems.append("\(file): line \(line): \(name): bad \(countColumn) \"\(f(countColumn))\"; skipped"); continue
            }
            var set = "", number = "", finish = Finish.nonfoil, conditionText = "", languageText = "", tags = "", date: Date?
            var scryfallID = "", rarity: String?
            switch format {
            case .moxfield:
                set = f("Edition"); number = f("Collector Number"); conditionText = f("Condition"); languageText = f("Language")
                finish = Finish(rawValue: f("Foil").lowercased()) ?? .nonfoil; tags = f("Tags")
                date = Dates.moxfield.date(from: f("Last Modified")) ?? Dates.parseLoose(f("Last Modified"))
            case .manabox:
                set = f("Set code"); number = f("Collector number"); conditionText = f("Condition"); languageText = f("Language")
                finish = Finish(rawValue: f("Foil").lowercased()) ?? .nonfoil; scryfallID = f("Scryfall ID"); rarity = f("Rarity")
            case .deckbox:
                set = f("Edition Code"); number = f("Card Number"); conditionText = f("Condition"); languageText = f("Language")
                finish = f("Foil").isEmpty ? .nonfoil : f("Printing Note").lowercased().contains("etched") ? .etched : .foil
                tags = f("Tags"); scryfallID = f("Scryfall ID")
                let r = f("Rarity").lowercased(); rarity = r == "mythicrare" ? "mythic" : r
            case .archidekt:
                set = f("Edition Code"); number = f("Collector Number"); conditionText = f("Condition"); languageText = f("Language")
                let fin = f("Finish").lowercased(); finish = fin == "normal" || fin.isEmpty ? .nonfoil : Finish(rawValue: fin) ?? .foil
                tags = f("Tags"); scryfallID = f("Scryfall ID"); date = Dates.day.date(from: f("Date Added")) ?? Dates.parseLoose(f("Date Added"))
            case .json: break
            }
            guard let condition = format.condition(from: conditionText) else {
                problems.append("\(file): line \(line): \(name): unknown condition \"\(conditionText)\"; skipped"); continue
            }
            guard !set.isEmpty, !number.isEmpty else {
                problems.append("\(file): line \(line): \(name): no set code or collector number; skipped"); continue
            }
            let language = format.language(from: languageText)
            if scryfallID.isEmpty || (rarity ?? "").isEmpty, let p = resolve?(set.lowercased(), number, language) {
                if scryfallID.isEmpty { scryfallID = p.id }
                if (rarity ?? "").isEmpty { rarity = p.rarity }
            }
            if scryfallID.isEmpty { problems.append("\(file): line \(line): \(name) (\(set) \(number)): not in the catalog; kept without a Scryfall id") }
            holdings.append(Holding(scryfallID: scryfallID, name: name, setCode: set, collectorNumber: number, language: language,
                                    rarity: (rarity ?? "").isEmpty ? nil : rarity, quantity: quantity, finish: finish,
                                    condition: condition, pool: pool, tags: tags.split(separator: ",").map(String.init),
                                    addedAt: date ?? Date(), purchasePrice: f(format == .archidekt || format == .moxfield ? "Purchase Price" : format == .deckbox ? "My Price" : "Purchase price").nilIfEmpty))
        }
        if let error = reader.error { throw CollectionError.invalid("\(file): line \(line + 1): \(error)") }
        return (holdings, problems)
    }

    static func parseJSON(_ text: String, file: String, pool: String) throws -> [Holding] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { dec in
            let s = try dec.singleValueContainer().decode(String.self)
            guard let d = Dates.iso.date(from: s) ?? Dates.parseLoose(s) else {
                throw DecodingError.dataCorrupted(.init(codingPath: dec.codingPath, debugDescription: "bad date \(s)"))
            }
            return d
        }
        do {
            var holdings = try decoder.decode([Holding].self, from: Data(text.utf8))
            if !pool.isEmpty { for i in holdings.indices { holdings[i].pool = pool } }
            return holdings
        } catch {
            throw CollectionError.invalid("\(file): not a cardscan JSON collection (\(error))")
        }
    }
}

/// Date formats of the collection files (all UTC).
enum Dates {
    static func formatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = format
        return f
    }
    /// Whole milliseconds since 1970 (dates are kept at millisecond precision so files round-trip exactly).
    static func milliseconds(_ d: Date) -> Int64 { Int64((d.timeIntervalSince1970 * 1000).rounded()) }
    static func date(milliseconds ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    /// Moxfield "Last Modified": `2024-01-31 18:05:09.123000`.
    static let moxfield = Style(seconds: "yyyy-MM-dd HH:mm:ss", fraction: 6, suffix: "")
    /// Archidekt "Date Added": `2024-01-31`.
    static let day = Style(seconds: "yyyy-MM-dd", fraction: 0, suffix: "")
    /// cardscan JSON: `2024-01-31T18:05:09.123Z`.
    static let iso = Style(seconds: "yyyy-MM-dd'T'HH:mm:ss", fraction: 3, suffix: "Z")

    /// A date format with an exact (integer millisecond) fractional part.
    struct Style: Sendable {
        let seconds: String, fraction: Int, suffix: String

        func string(from d: Date) -> String {
            let ms = milliseconds(d)
            let whole = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
            let frac = Int(ms - whole * 1000)
            var s = formatter(seconds).string(from: Date(timeIntervalSince1970: Double(whole)))
            if fraction > 0 { s += "." + String(format: "%03d", frac) + String(repeating: "0", count: max(0, fraction - 3)) }
            return s + suffix
        }

        func date(from s: String) -> Date? {
            var text = s.trimmingCharacters(in: .whitespaces)
            if !suffix.isEmpty {
                guard text.hasSuffix(suffix) else { return nil }
                text.removeLast(suffix.count)
            }
            var ms: Int64 = 0
            if fraction > 0 {
                guard let dot = text.lastIndex(of: ".") else { return nil }
                let digits = String(text[text.index(after: dot)...])
                guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return nil }
                ms = Int64(String((digits + "000").prefix(3))) ?? 0
                text = String(text[..<dot])
            }
            guard let base = formatter(seconds).date(from: text) else { return nil }
            return Date(timeIntervalSince1970: Double(Int64(base.timeIntervalSince1970) * 1000 + ms) / 1000)
        }
    }

    static func parseLoose(_ s: String) -> Date? {
        for f in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd", "MM/dd/yyyy"] {
            if let d = formatter(f).date(from: s) { return d }
        }
        return nil
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
