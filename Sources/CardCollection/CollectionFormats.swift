import CSV
import CardCatalog
import Foundation

/// Collection files of other apps, read and written the way each app does (header, column
/// order, quoting, line endings, vocabularies; see `Vocabulary` and the README's mapping table).
public enum CollectionFormat: String, CaseIterable, Sendable {
    case moxfield, manabox, deckbox, archidekt, dragonshield, sorted, tcgplayer, delverlens, arena, json

    /// The header row this format writes.
    public var header: [String] {
        switch self {
        case .moxfield:
            return ["Count", "Tradelist Count", "Name", "Edition", "Condition", "Language", "Foil", "Tags", "Last Modified",
                    "Collector Number", "Alter", "Proxy", "Purchase Price"]
        case .manabox:
            return ["Binder Name", "Binder Type", "Name", "Set code", "Set name", "Collector number", "Foil", "Rarity", "Quantity",
                    "ManaBox ID", "Scryfall ID", "Purchase price", "Misprint", "Altered", "Condition", "Language",
                    "Purchase price currency", "Added"]
        case .deckbox:
            return ["Count", "Tradelist Count", "Name", "Edition", "Edition Code", "Card Number", "Condition", "Language", "Foil",
                    "Signed", "Artist Proof", "Altered Art", "Misprint", "Promo", "Textless", "Printing Id", "Printing Note", "Tags",
                    "My Price", "Cost", "Rarity", "Price", "TcgPlayer ID", "Scryfall ID"]
        case .archidekt:
            return ["Quantity", "Name", "Finish", "Condition", "Date Added", "Language", "Purchase Price", "Tags", "Edition Name",
                    "Edition Code", "Multiverse Id", "Scryfall ID", "Collector Number"]
        case .dragonshield:
            return ["Folder Name", "Quantity", "Trade Quantity", "Card Name", "Set Code", "Set Name", "Card Number", "Condition",
                    "Printing", "Language", "Price Bought", "Date Bought"]
        case .sorted:
            return ["List Type", "List Name", "Collection", "Format", "Board", "Quantity", "Card Name", "Set Code", "Set Name",
                    "Card Number", "Condition", "Printing", "Rarity", "Language", "Price Bought", "Date Bought", "Parent List Type",
                    "Parent List Name", "Current Price (tcgplayer_marketsellprice)", "List Cover Image", "Parent List Cover Image"]
        case .tcgplayer:
            return ["Quantity", "Name", "Simple Name", "Set", "Card Number", "Set Code", "Printing", "Condition", "Language", "Rarity",
                    "Product ID", "SKU"]
        case .delverlens:
            return ["Tag", "Quantity", "Name", "Language", "Foil", "Edition CODE", "Edition", "Condition", "Collector's number",
                    "Acquired Price"]
        case .arena, .json:
            return []
        }
    }

    /// What a cell of a column holds, by the column's name with case, spaces and punctuation
    /// removed (`Card Name`, `CardName` and ` Name` of Dragon Shield's app export alike).
    enum Field: Int, CaseIterable { case quantity, foilQuantity, tradeQuantity, name, simpleName, setCode, setName, number, condition, language, finish,
                 tags, date, altered, proxy, signed, misprint, price, currency, scryfallID, rarity, binder, binderType, listType,
                 printingNote, note }

    func field(_ key: String, keys: Set<String>) -> Field? {
        let common: [String: Field] = ["name": .name, "quantity": .quantity, "count": .quantity, "condition": .condition,
                                       "language": .language, "rarity": .rarity, "scryfallid": .scryfallID]
        let own: [String: Field]
        switch self {
        case .moxfield:
            own = ["tradelistcount": .tradeQuantity, "edition": .setCode, "foil": .finish, "tags": .tags, "lastmodified": .date,
                   "collectornumber": .number, "alter": .altered, "proxy": .proxy, "purchaseprice": .price, "notes": .note]
        case .manabox:
            own = ["bindername": .binder, "bindertype": .binderType, "setcode": .setCode, "setname": .setName, "collectornumber": .number,
                   "foil": .finish, "purchaseprice": .price, "misprint": .misprint, "altered": .altered,
                   "purchasepricecurrency": .currency, "added": .date]
        case .deckbox:
            own = ["tradelistcount": .tradeQuantity, "edition": .setName, "editioncode": .setCode, "cardnumber": .number, "foil": .finish,
                   "signed": .signed, "alteredart": .altered, "misprint": .misprint, "printingnote": .printingNote, "tags": .tags,
                   "myprice": .price]
        case .archidekt:
            own = ["finish": .finish, "dateadded": .date, "purchaseprice": .price, "tags": .tags, "editionname": .setName,
                   "editioncode": .setCode, "collectornumber": .number]
        case .dragonshield, .sorted:
            own = ["foldername": .binder, "listname": .binder, "listtype": .listType, "tradequantity": .tradeQuantity, "cardname": .name,
                   "setcode": .setCode, "expansioncode": .setCode, "setname": .setName, "expansionname": .setName,
                   "cardnumber": .number, "printing": .finish, "foil": .finish, "pricebought": .price, "purchaseprice": .price,
                   "datebought": .date, "purchasedate": .date]
        case .tcgplayer:
            own = ["simplename": .simpleName, "set": .setName, "cardnumber": .number, "setcode": .setCode, "printing": .finish]
        case .delverlens:
            own = ["regqty": .quantity, "foilqty": .foilQuantity, "editioncode": .setCode, "setcode": .setCode,
                   // Delver's Moxfield preset writes set codes under "Edition"; its custom exports a name beside "Edition CODE".
                   "edition": keys.contains("editioncode") || keys.contains("setcode") ? .setName : .setCode, "set": .setName,
                   "collectornumber": .number, "collectorsnumber": .number, "number": .number, "foil": .finish, "tag": .tags,
                   "acquiredprice": .price, "acquired": .price]
        case .arena, .json:
            own = [:]
        }
        return own[key] ?? common[key]
    }

    /// The column key: the name with case, spaces and punctuation removed.
    static func key(_ column: String) -> String { column.lowercased().filter { $0.isLetter || $0.isNumber } }

    /// The format of a file, told from its first line (a header, `[` for JSON, or an Arena deck list).
    public static func detect(_ text: Substring) -> CollectionFormat? {
        let body = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if body.first == "[" { return .json }
        // The first two non-empty lines (not a split of the whole file).
        var lines: [String] = []
        var rest = body[...]
        while lines.count < 2, !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            if end > rest.startIndex { lines.append(String(rest[..<end])) }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        if let first = lines.first, CollectionFiles.separatorLine(first) != nil { lines.removeFirst() }
        guard let first = lines.first else { return nil }
        if ArenaDeck.sections.contains(first.trimmingCharacters(in: .whitespaces).lowercased()) || ArenaDeck.card(first) != nil { return .arena }
        let keys = Set(first.split(separator: ",").map { key(String($0)) })
        if keys.contains("listtype") { return .sorted }
        if keys.contains("cardname") || keys.contains("expansioncode") || keys.contains("foldername") { return .dragonshield }
        if keys.contains("bindertype") || keys.contains("manaboxid") || keys.isSuperset(of: ["setcode", "collectornumber", "scryfallid"]) { return .manabox }
        if keys.contains("simplename") || keys.isSuperset(of: ["quantity", "printing"]) { return .tcgplayer }
        if keys.isSuperset(of: ["quantity", "finish"]) { return .archidekt }
        if !keys.isDisjoint(with: ["regqty", "tag", "collectorsnumber", "acquiredprice", "tcgplayerproductid"]) { return .delverlens }
        if keys.isSuperset(of: ["count", "lastmodified"]) { return .moxfield }
        if keys.isSuperset(of: ["count", "collectornumber"]) && !keys.contains("tradelistcount") { return .delverlens }
        if keys.isSuperset(of: ["count", "name", "edition"]) { return .deckbox }
        return nil
    }

    /// Whether the format writes a column for wish list rows (ManaBox `Binder Type` = list).
    public var keepsWishList: Bool { self == .manabox || self == .json }
}

/// One data row of an imported file that was not taken, or was taken with a remark.
public struct RowNote: Sendable, Codable, Equatable, CustomStringConvertible {
    public var line: Int
    public var name: String?
    public var reason: String
    public var description: String { "line \(line): \(name.map { $0 + ": " } ?? "")\(reason)" }
}

/// What reading a file gave: every data row is taken (owned or wanted) or skipped with a reason.
public struct CollectionFileReport: Sendable {
    public var format: CollectionFormat
    /// Rows taken, in file order (a Delver Lens row with regular and foil copies gives two);
    /// empty when `read` handed them to its `each` instead.
    public var holdings: [Holding] = []
    /// Cards (sum of quantities) in the rows taken as owned.
    public var cards = 0
    /// Data rows seen (blank lines are not rows).
    public var rows = 0
    /// Rows taken as owned cards, and as wish list rows (not owned).
    public var taken = 0, wanted = 0
    public var skipped: [RowNote] = []
    /// Remarks on rows that were taken (a printing the catalog does not know, kept as given).
    public var notes: [RowNote] = []

    /// Takes the holdings of one row: to `each` when given, else into `holdings`.
    mutating func take(_ rows: [Holding], _ each: ((Holding) throws -> Void)?) throws {
        for h in rows where !h.details.wanted { cards += h.quantity }
        if let each { for h in rows { try each(h) } } else { holdings += rows }
    }
}

/// Reading and writing collection files.
public enum CollectionFiles {
    /// Set name lookup for formats that write one (Deckbox "Edition", ManaBox "Set name", …).
    public typealias SetNamer = @Sendable (String) -> String?
    /// Printing lookup by (set, collector number, language) for rows without a Scryfall id.
    public typealias Resolver = (_ set: String, _ number: String, _ language: String) -> Printing?

    // MARK: Writing

    /// The file text for `holdings` in `format`. Wish list rows are written only by formats with a
    /// column for them (`keepsWishList`).
    public static func export(_ holdings: [Holding], format: CollectionFormat, setName: SetNamer = { _ in nil }) throws -> String {
        let holdings = format.keepsWishList ? holdings : holdings.filter { !$0.details.wanted }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .custom { date, enc in
                var c = enc.singleValueContainer()
                try c.encode(Dates.iso.string(from: date))
            }
            return String(decoding: try encoder.encode(holdings), as: UTF8.self) + "\n"
        case .arena:
            return ArenaDeck.text(holdings)
        default:
            break
        }
        let stream = OutputStream(toMemory: ())
        stream.open()
        let crlf = format == .dragonshield || format == .sorted
        let csv = try CSVWriter(stream: stream, newline: crlf ? .crlf : .lf)
        let header = format.header
        let quoteAll = format == .moxfield || format == .delverlens
        let tagsColumn = format == .deckbox ? header.firstIndex(of: "Tags") : nil
        try csv.write(row: header, quotedAtIndex: { _ in quoteAll })
        for h in holdings {
            let cells = header.map { escapeFormula(cell($0, h, format: format, setName: setName)) }
            try csv.write(row: cells, quotedAtIndex: { quoteAll || $0 == tagsColumn })
        }
        csv.stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        var text = String(decoding: data, as: UTF8.self)
        if crlf { text = "\"sep=,\"\r\n" + text + "\r\n" } else if format != .manabox { text += "\n" } // ManaBox ends without a newline
        return text
    }

    /// OWASP's rule against spreadsheet formula injection: a cell starting with `=`, `+`, `-`, `@`,
    /// tab or carriage return is written with a leading `'` (taken off again on import).
    static func escapeFormula(_ cell: String) -> String {
        guard let c = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(c) else { return cell }
        return "'" + cell
    }

    static func unescapeFormula(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let c = cell.unicodeScalars.dropFirst().first, "=+-@\t\r".unicodeScalars.contains(c) else { return cell }
        return String(cell.dropFirst())
    }

    static func cell(_ column: String, _ h: Holding, format: CollectionFormat, setName: SetNamer) -> String {
        let d = h.details
        let setTitle = setName(h.setCode) ?? d.setName ?? ""
        let price = h.purchasePrice ?? ""
        func bool(_ b: Bool, _ t: String, _ f: String) -> String { b ? t : f }
        func language() -> String { Vocabulary.languageText(h.language, format) ?? Vocabulary.languageText("en", format)! }
        let condition = Vocabulary.conditionText(h.condition, format)
        let tags = h.tags.joined(separator: ",")
        switch (format, column) {
        case (_, "Count"), (_, "Quantity"): return String(h.quantity)
        case (_, "Name"), (_, "Card Name"), (_, "Simple Name"): return h.name
        case (_, "Tradelist Count"), (_, "Trade Quantity"): return String(d.tradeQuantity)
        case (.moxfield, "Edition"), (.archidekt, "Edition Code"): return h.setCode.lowercased()
        case (.deckbox, "Edition Code"): return Deckbox.cells(h).code
        case (.deckbox, "Card Number"): return Deckbox.cells(h).number
        case (.deckbox, "Edition"), (.archidekt, "Edition Name"), (.manabox, "Set name"), (_, "Set Name"), (.tcgplayer, "Set"),
             (.delverlens, "Edition"):
            return setTitle
        case (_, "Set code"), (_, "Set Code"), (_, "Edition Code"), (_, "Edition CODE"): return h.setCode.uppercased()
        case (_, "Collector Number"), (_, "Collector number"), (_, "Card Number"), (_, "Collector's number"): return h.collectorNumber
        case (.deckbox, "Condition"): return d.proxy ? "Proxy" : condition
        case (_, "Condition"): return condition
        case (_, "Language"): return language()
        case (.moxfield, "Foil"): return h.finish == .nonfoil ? "" : h.finish.rawValue
        case (.manabox, "Foil"): return h.finish == .nonfoil ? "normal" : h.finish.rawValue
        case (.deckbox, "Foil"): return h.finish == .nonfoil ? "" : "foil"
        case (.delverlens, "Foil"): return h.finish == .nonfoil ? "" : "Foil"
        case (.archidekt, "Finish"): return h.finish == .nonfoil ? "Normal" : h.finish.rawValue.capitalized
        case (.tcgplayer, "Printing"): return h.finish == .nonfoil ? "Normal" : "Foil"
        case (_, "Printing"): return d.foilKind?.rawValue ?? (h.finish == .nonfoil ? "Normal" : h.finish.rawValue.capitalized)
        case (.deckbox, "Printing Note"): return h.finish == .etched ? "Etched" : [Deckbox.cells(h).note, d.note ?? ""].first { !$0.isEmpty } ?? ""
        case (_, "Tags"), (_, "Tag"): return tags
        case (.moxfield, "Last Modified"): return Dates.moxfield.string(from: h.addedAt)
        case (.manabox, "Added"): return Dates.iso.string(from: h.addedAt)
        case (_, "Date Added"), (_, "Date Bought"): return Dates.day.string(from: h.addedAt)
        case (.moxfield, "Alter"): return bool(d.altered, "True", "False")
        case (.moxfield, "Proxy"): return bool(d.proxy, "True", "False")
        case (.manabox, "Altered"), (.manabox, "Misprint"): return bool(column == "Altered" ? d.altered : d.misprint, "true", "false")
        case (.deckbox, "Signed"): return bool(d.signed, "signed", "")
        case (.deckbox, "Altered Art"): return bool(d.altered, "altered", "")
        case (.deckbox, "Misprint"): return bool(d.misprint, "misprint", "")
        case (.deckbox, "My Price"):
            // Deckbox writes dollars: a price in another currency has no column there.
            guard !price.isEmpty, d.currency == nil || d.currency == "USD", let v = Double(price) else { return "" }
            return String(format: "$%.2f", v)
        case (.delverlens, "Acquired Price"):
            guard !price.isEmpty else { return "" }
            return (Vocabulary.currencySymbols.first { $0.1 == d.currency }?.0 ?? "") + price
        case (_, "Purchase Price"), (_, "Purchase price"), (_, "Price Bought"): return price
        case (.manabox, "Purchase price currency"): return price.isEmpty ? "" : d.currency ?? ""
        case (_, "Scryfall ID"): return h.scryfallID
        case (.deckbox, "Rarity"): return deckboxRarity(h.rarity)
        case (.tcgplayer, "Rarity"): return (h.rarity ?? "").capitalized
        case (_, "Rarity"): return h.rarity ?? ""
        case (.manabox, "Binder Name"), (_, "Folder Name"), (.sorted, "List Name"): return d.binder
        case (.manabox, "Binder Type"): return d.binderType.rawValue
        case (.sorted, "List Type"): return d.binderType == .deck ? "Deck" : "Folder"
        default: return ""
        }
    }

    static func deckboxRarity(_ r: String?) -> String {
        guard let r, !r.isEmpty else { return "" }
        return r.lowercased() == "mythic" ? "MythicRare" : r.capitalized
    }

    // MARK: Reading

    /// `sep=X` (quoted or not) as some services write on the first line: the separator.
    static func separatorLine(_ line: String) -> Character? {
        let t = line.trimmingCharacters(in: CharacterSet(charactersIn: "\" \r\n"))
        guard t.lowercased().hasPrefix("sep="), t.count == 5 else { return nil }
        return t.last
    }

    /// Holdings read from a file's text, for callers that only need rows and one-line problems.
    public static func parse(_ text: String, format: CollectionFormat, file: String, pool: String = "",
                             resolve: Resolver? = nil) throws -> (holdings: [Holding], problems: [String]) {
        let r = try read(text, format: format, file: file, pool: pool, resolve: resolve)
        return (r.holdings, r.skipped.map { "\(file): \($0); skipped" } + r.notes.map { "\(file): \($0)" })
    }

    /// Reads a file's text: every data row is taken or listed in `skipped` with its line number and
    /// the reason. Handles a `sep=,` first line, quoted and unquoted fields, CRLF/LF, no final
    /// newline, a leading BOM. A row whose quote never closes is skipped and reading goes on at the
    /// next line; a row with more cells than the header (an unquoted comma) is skipped. `resolve`
    /// fills the Scryfall id and rarity when the file has none; a printing it does not know is kept
    /// as given (with a note).
    public static func read(_ text: String, format: CollectionFormat, file: String, pool: String = "",
                            resolve: Resolver? = nil, each: ((Holding) throws -> Void)? = nil) throws -> CollectionFileReport {
        var text = Substring(text)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        switch format {
        case .json:
            var report = CollectionFileReport(format: .json)
            let rows = try parseJSON(String(text), file: file, pool: pool)
            report.rows = rows.count
            report.wanted = rows.filter(\.details.wanted).count
            report.taken = report.rows - report.wanted
            try report.take(rows, each)
            return report
        case .arena:
            return try ArenaDeck.read(text, pool: pool, each: each)
        default:
            return try readCSV(text, format: format, file: file, pool: pool, resolve: resolve, each: each)
        }
    }

    static func readCSV(_ text: Substring, format: CollectionFormat, file: String, pool: String, resolve: Resolver?,
                        each: ((Holding) throws -> Void)?) throws -> CollectionFileReport {
        var report = CollectionFileReport(format: format)
        var body = text
        var line = 1
        var delimiter: Character = ","
        let firstLine = String(body.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })
        if let sep = separatorLine(firstLine) {
            delimiter = sep
            body = body.dropFirst(firstLine.count).drop { $0.isNewline }
            line = 2
        }
        guard let delimiterScalar = delimiter.unicodeScalars.first, delimiter.unicodeScalars.count == 1 else {
            throw CollectionError.invalid("\(file): unsupported separator \"\(delimiter)\"")
        }
        var header: [String] = []
        var fields: [CollectionFormat.Field?] = []
        // Reads from `start` (a physical line `startLine`); a broken row restarts reading after it.
        var start = body
        var startLine = line
        var needHeader = true
        while true {
            let reader: CSVReader
            do { reader = try CSVReader(string: start.startIndex == start.base.startIndex && start.endIndex == start.base.endIndex ? start.base : String(start),
                                        hasHeaderRow: false, delimiter: delimiterScalar) } catch {
                throw CollectionError.invalid("\(file): cannot read the CSV (\(error))")
            }
            var lineNo = startLine
            var restartAt: Int?
            while let row = reader.next() {
                let breaks = row.reduce(0) { $0 + $1.reduce(0) { $1.isNewline ? $0 + 1 : $0 } }
                let thisLine = lineNo
                lineNo += 1 + breaks
                if needHeader {
                    guard breaks == 0, row.count > 1 else {
                        throw CollectionError.invalid("\(file): line \(thisLine): not a \(format.rawValue) header")
                    }
                    header = row.map(\.trimmedSpaces)
                    let keys = Set(header.map(CollectionFormat.key))
                    fields = header.map { format.field(CollectionFormat.key($0), keys: keys) }
                    guard fields.contains(.name) || fields.contains(.simpleName), fields.contains(.quantity) else {
                        throw CollectionError.invalid("\(file): not a \(format.rawValue) CSV (no name or quantity column; header is \(header.prefix(6).joined(separator: ","))…)")
                    }
                    needHeader = false
                    continue
                }
                if row.allSatisfy({ $0.trimmedSpaces.isEmpty }) && breaks == 0 { continue } // blank line
                report.rows += 1
                if breaks > 0 {
                    report.skipped.append(RowNote(line: thisLine, name: nil, reason: "a quote opened on this line is never closed (the cell runs over \(breaks + 1) lines)"))
                    restartAt = thisLine + 1
                    break
                }
                let extra = row.count > header.count ? row[header.count...] : []
                if extra.contains(where: { !$0.trimmedSpaces.isEmpty }) {
                    report.skipped.append(RowNote(line: thisLine, name: nil,
                                                  reason: "\(row.count) cells where the header has \(header.count) (a comma in an unquoted name?)"))
                    continue
                }
                if row.count < header.count {
                    report.skipped.append(RowNote(line: thisLine, name: nil, reason: "\(row.count) cells where the header has \(header.count)"))
                    continue
                }
                var cells = Cells()
                for (i, f) in fields.enumerated() {
                    guard let f else { continue }
                    let v = unescapeFormula(row[i].trimmedSpaces)
                    if cells[f] == nil || cells[f]!.isEmpty { cells[f] = v }
                }
                switch holdings(cells, format: format, pool: pool, resolve: resolve) {
                case .failure(let note):
                    report.skipped.append(RowNote(line: thisLine, name: note.name, reason: note.reason))
                case .success(let (taken, remark)):
                    try report.take(taken, each)
                    if taken.first?.details.wanted == true { report.wanted += 1 } else { report.taken += 1 }
                    if let remark { report.notes.append(RowNote(line: thisLine, name: taken.first?.name, reason: remark)) }
                }
            }
            if needHeader { throw CollectionError.invalid("\(file): empty file (no header)") }
            guard let restart = restartAt else { break }
            // Physical line `restart` of the file: skip (restart - startLine) lines of `start`.
            var rest = start[...]
            for _ in 0..<(restart - startLine) {
                guard let nl = rest.firstIndex(where: \.isNewline) else { rest = rest[rest.endIndex...]; break }
                rest = rest[rest.index(after: nl)...]
            }
            start = rest
            startLine = restart
            if start.isEmpty { break }
        }
        return report
    }

    /// The rows of a CSV text as cells (no header handling).
    static func rawRows(_ text: String) throws -> [[String]] {
        let reader = try CSVReader(string: text, hasHeaderRow: false)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        return rows
    }

    struct RowFailure: Error { let name: String?; let reason: String }

    /// The holdings of one data row (two for a Delver Lens row with regular and foil copies).
    /// One row's cells by what they hold (an array, not a dictionary: one per row of a large file).
    struct Cells {
        var values = [String?](repeating: nil, count: CollectionFormat.Field.allCases.count)
        subscript(_ f: CollectionFormat.Field) -> String? {
            get { values[f.rawValue] }
            set { values[f.rawValue] = newValue }
        }
    }

    static func holdings(_ c: Cells, format: CollectionFormat, pool: String,
                         resolve: Resolver?) -> Result<([Holding], String?), RowFailure> {
        typealias Field = CollectionFormat.Field
        let name = (c[.simpleName].flatMap { $0.isEmpty ? nil : $0 } ?? c[.name]) ?? ""
        func fail(_ reason: String) -> Result<([Holding], String?), RowFailure> { .failure(RowFailure(name: name.isEmpty ? nil : name, reason: reason)) }
        guard !name.isEmpty else { return fail("no card name") }
        func count(_ f: Field, _ label: String) -> Int?? {
            guard let t = c[f] else { return .some(nil) }
            if t.isEmpty && f != .quantity { return .some(0) }
            guard let n = Int(t), n >= 0 else { return nil }
            return .some(n)
        }
        guard let quantityCell = count(.quantity, "quantity"), let foilQuantity = count(.foilQuantity, "foil quantity") else {
            return fail("quantity \"\(c[.quantity] ?? "")\(c[.foilQuantity].map { "/" + $0 } ?? "")\" is not a whole number")
        }
        let quantity = quantityCell ?? 0
        guard let trade = count(.tradeQuantity, "trade quantity") else { return fail("trade quantity \"\(c[.tradeQuantity] ?? "")\" is not a whole number") }
        guard quantity + (foilQuantity ?? 0) > 0 else { return fail("quantity is 0") }
        var details = CardDetails(tradeQuantity: trade ?? 0)
        var conditionText = c[.condition] ?? ""
        if format == .deckbox, conditionText.caseInsensitiveCompare("Proxy") == .orderedSame {
            details.proxy = true
            conditionText = ""
        }
        guard let condition = Vocabulary.condition(conditionText, format) else { return fail("unknown condition \"\(conditionText)\"") }
        guard let language = Vocabulary.language(c[.language] ?? "", format) else { return fail("unknown language \"\(c[.language]!)\"") }
        guard let finishRead = Vocabulary.finish(c[.finish] ?? "") else { return fail("unknown finish \"\(c[.finish]!)\"") }
        var finish = finishRead.0
        let foilKind = finishRead.1
        // Named foils are Dragon Shield's and Sorted's words; no other service writes them.
        if foilKind != nil && format != .dragonshield && format != .sorted { return fail("unknown finish \"\(c[.finish]!)\"") }
        details.foilKind = foilKind
        var number = c[.number] ?? ""
        // Dragon Shield marks an etched printing with an `etc` suffix on the number (`389etc`).
        if format == .dragonshield || format == .sorted, number.hasSuffix("etc"), number.count > 3 {
            number.removeLast(3)
            finish = .etched
        }
        if format == .deckbox, (c[.printingNote] ?? "").caseInsensitiveCompare("Etched") == .orderedSame, finish == .foil { finish = .etched }
        var set = (c[.setCode] ?? "").lowercased()
        if format == .deckbox { (set, number) = Deckbox.printing(set: set, number: number, note: c[.printingNote] ?? "") }
        for (f, label) in [(Field.altered, "altered"), (.proxy, "proxy"), (.signed, "signed"), (.misprint, "misprint")] {
            guard let t = c[f] else { continue }
            // Deckbox writes any word (or nothing) in its flag columns.
            guard let b = format == .deckbox ? !t.isEmpty : Vocabulary.flag(t) else { return fail("\(label) \"\(t)\" is not true or false") }
            switch f {
            case .altered: details.altered = b
            case .proxy: details.proxy = details.proxy || b
            case .signed: details.signed = b
            default: details.misprint = b
            }
        }
        var price: String?
        if let t = c[.price], !t.isEmpty {
            guard let p = Vocabulary.price(t) else { return fail("purchase price \"\(t)\" is not a number") }
            price = p.value
            details.currency = p.currency
        }
        if let t = c[.currency], !t.isEmpty {
            guard t.count == 3, t.allSatisfy({ $0.isASCII && $0.isLetter }) else { return fail("currency \"\(t)\" is not an ISO 4217 code") }
            details.currency = t.uppercased()
        }
        if price == nil { details.currency = nil }
        var date: Date?
        if let t = c[.date], !t.isEmpty {
            guard let d = Dates.parse(t) else { return fail("date \"\(t)\" is not a date this format writes") }
            date = d
        }
        details.binder = c[.binder] ?? ""
        if let t = c[.binderType], !t.isEmpty {
            guard let b = BinderType(rawValue: t.lowercased()) else { return fail("unknown binder type \"\(t)\"") }
            details.binderType = b
        }
        if let t = c[.listType], !t.isEmpty {
            switch t.lowercased() {
            case "folder": details.binderType = .binder
            case "deck": details.binderType = .deck
            default: return fail("unknown list type \"\(t)\"")
            }
        }
        let setName = c[.setName] ?? ""
        details.setName = setName.isEmpty ? nil : setName
        // Deckbox's Printing Note holds Etched or The List's set code (read above) or free text, kept.
        let noteText = format == .deckbox ? c[.printingNote] ?? "" : c[.note] ?? ""
        if !noteText.isEmpty, !(format == .deckbox && (noteText.caseInsensitiveCompare("Etched") == .orderedSame || number.hasPrefix(noteText + "-"))) {
            details.note = noteText
        }
        var scryfallID = c[.scryfallID] ?? ""
        var rarity = (c[.rarity] ?? "").lowercased()
        if rarity == "mythicrare" { rarity = "mythic" }
        var remark: String?
        if scryfallID.isEmpty || rarity.isEmpty, !set.isEmpty, !number.isEmpty, let resolve {
            if let p = resolve(set, number, language) {
                if scryfallID.isEmpty { scryfallID = p.id }
                if rarity.isEmpty { rarity = p.rarity ?? "" }
            }
        }
        if scryfallID.isEmpty {
            remark = set.isEmpty || number.isEmpty ? "no \(set.isEmpty ? "set code" : "collector number"); kept as given"
                : resolve == nil ? nil : "\(set) \(number) is not in the catalog; kept as given"
        }
        let base = Holding(scryfallID: scryfallID, name: name, setCode: set, collectorNumber: number, language: language,
                           rarity: rarity.isEmpty ? nil : rarity, quantity: quantity, finish: finish, condition: condition, pool: pool,
                           tags: (c[.tags] ?? "").split(separator: ",").map(String.init), addedAt: date ?? Date(),
                           purchasePrice: price, details: details)
        var out: [Holding] = quantity > 0 ? [base] : []
        if let foils = foilQuantity, foils > 0 {
            var foil = base
            foil.quantity = foils
            foil.finish = .foil
            out.append(foil)
        }
        return .success((out, remark))
    }

    static func parseJSON(_ text: String, file: String, pool: String) throws -> [Holding] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { dec in
            let s = try dec.singleValueContainer().decode(String.self)
            guard let d = Dates.parse(s) else {
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

/// Deckbox's shapes of two collector-number forms: The List is edition `plist` with the original
/// set's code in Printing Note (`49` + `DDC` for Scryfall's plst `DDC-49`), and Ultimate Box
/// Toppers drop the `U` (`8` for puma `U8`). Read into Scryfall's form, written back in Deckbox's.
enum Deckbox {
    static func printing(set: String, number: String, note: String) -> (set: String, number: String) {
        let digits = !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
        if set == "plist" || set == "plst", digits, !note.isEmpty, note.count <= 5,
           note.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
            return ("plst", note + "-" + number)
        }
        if set == "puma", digits { return (set, "U" + number) }
        return (set, number)
    }

    static func cells(_ h: Holding) -> (code: String, number: String, note: String) {
        let n = h.collectorNumber
        if h.setCode == "plst", let dash = n.lastIndex(of: "-"), n[n.index(after: dash)...].allSatisfy(\.isNumber) {
            return ("PLIST", String(n[n.index(after: dash)...]), String(n[..<dash]))
        }
        if h.setCode == "puma", n.hasPrefix("U"), n.dropFirst().allSatisfy(\.isNumber) { return ("PUMA", String(n.dropFirst()), "") }
        return (h.setCode.uppercased(), n, "")
    }
}

/// MTG Arena deck text: section lines (`Deck`, `Sideboard`, `Commander`, `Companion`) and card
/// lines `N Name (SET) NUMBER`. Sections are kept as the rows' binder (type deck).
enum ArenaDeck {
    static let sections: Set<String> = ["deck", "sideboard", "commander", "companion", "maybeboard", "about"]

    /// `4 Name (SET) 149`, `1 Name`, `2x Name (SET) 65`: count, name, set, number.
    static func card(_ line: String) -> (Int, String, String, String)? {
        let t = line.trimmedSpaces
        guard let space = t.firstIndex(of: " ") else { return nil }
        var countText = t[..<space]
        if countText.hasSuffix("x") { countText = countText.dropLast() }
        guard let n = Int(countText), n > 0 else { return nil }
        var rest = String(t[t.index(after: space)...]).trimmedSpaces
        var set = "", number = ""
        if let open = rest.lastIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            set = String(rest[rest.index(after: open)..<close])
            number = String(rest[rest.index(after: close)...]).trimmedSpaces
            rest = String(rest[..<open]).trimmedSpaces
            guard !set.isEmpty, !set.contains(" "), !number.contains(" ") else { return nil }
        }
        return rest.isEmpty ? nil : (n, rest, set, number)
    }

    static func read(_ text: Substring, pool: String, each: ((Holding) throws -> Void)?) throws -> CollectionFileReport {
        var report = CollectionFileReport(format: .arena)
        var section = "Deck"
        var line = 0
        var aboutBlock = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            line += 1
            let t = String(raw).trimmedSpaces
            if t.isEmpty { aboutBlock = false; continue }
            if sections.contains(t.lowercased()) {
                section = t.prefix(1).uppercased() + t.dropFirst().lowercased()
                aboutBlock = t.lowercased() == "about"
                continue
            }
            if aboutBlock { continue } // `Name <deck name>` lines
            report.rows += 1
            guard let (n, name, set, number) = card(t) else {
                report.skipped.append(RowNote(line: line, name: nil, reason: "not a deck line (\"N Name (SET) NUMBER\")"))
                continue
            }
            try report.take([Holding(scryfallID: "", name: name, setCode: set, collectorNumber: number, language: "en", rarity: nil,
                                     quantity: n, finish: .nonfoil, condition: .nm, pool: pool, tags: [], addedAt: Date(),
                                     details: CardDetails(binder: section, binderType: .deck))], each)
            report.taken += 1
        }
        return report
    }

    static func text(_ holdings: [Holding]) -> String {
        let order = ["Commander", "Companion", "Deck", "Sideboard", "Maybeboard"]
        let grouped = Dictionary(grouping: holdings) { h in order.contains(h.details.binder) ? h.details.binder : "Deck" }
        var blocks: [String] = []
        for section in order {
            guard let rows = grouped[section], !rows.isEmpty else { continue }
            var counts: [String: Int] = [:], keys: [String] = []
            for h in rows {
                let key = h.setCode.isEmpty ? h.name : "\(h.name) (\(h.setCode.uppercased())) \(h.collectorNumber)"
                if counts[key] == nil { keys.append(key) }
                counts[key, default: 0] += h.quantity
            }
            blocks.append(([section] + keys.map { "\(counts[$0]!) \($0)" }).joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}

/// Date formats of the collection files (all UTC), read and written without `DateFormatter`
/// (a 100,000-row import reads one date per row).
enum Dates {
    /// Whole milliseconds since 1970 (dates are kept at millisecond precision so files round-trip exactly).
    static func milliseconds(_ d: Date) -> Int64 { Int64((d.timeIntervalSince1970 * 1000).rounded()) }
    static func date(milliseconds ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    /// Moxfield "Last Modified": `2024-01-31 18:05:09.123000`.
    static let moxfield = Style(separator: " ", time: true, fraction: 6, suffix: "")
    /// Archidekt "Date Added", Dragon Shield "Date Bought": `2024-01-31`.
    static let day = Style(separator: "", time: false, fraction: 0, suffix: "")
    /// cardscan JSON, ManaBox "Added": `2024-01-31T18:05:09.123Z`.
    static let iso = Style(separator: "T", time: true, fraction: 3, suffix: "Z")

    struct Style: Sendable {
        let separator: String, time: Bool, fraction: Int, suffix: String

        func string(from d: Date) -> String {
            let ms = milliseconds(d)
            let whole = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
            let frac = Int(ms - whole * 1000)
            let days = Int(whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400)
            let secs = Int(whole - Int64(days) * 86_400)
            let (y, m, dd) = civil(days)
            var s = String(format: "%04d-%02d-%02d", y, m, dd)
            if time { s += separator + String(format: "%02d:%02d:%02d", secs / 3600, secs / 60 % 60, secs % 60) }
            if fraction > 0 { s += "." + String(format: "%03d", frac) + String(repeating: "0", count: max(0, fraction - 3)) }
            return s + suffix
        }

        func date(from s: String) -> Date? { Dates.parse(s) }
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y - 1 : y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(_ z: Int) -> (Int, Int, Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The dates the services write: `2024-01-31`, `2024-01-31 18:05:09[.123456]`,
    /// `2024-01-31T18:05:09[.123]Z`, `1/31/2024`, `20240131`. nil for anything else.
    static func parse(_ text: String) -> Date? {
        let s = Array(text.trimmedSpaces.utf8)
        func num(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= s.count, !r.isEmpty else { return nil }
            var v = 0
            for i in r { guard s[i] >= 48 && s[i] <= 57 else { return nil }; v = v * 10 + Int(s[i] - 48) }
            return v
        }
        var y = 0, m = 0, d = 0, rest = 0
        if s.count == 8, let all = num(0..<8) {
            (y, m, d, rest) = (all / 10_000, all / 100 % 100, all % 100, 8)
        } else if s.count >= 10, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"), let yy = num(0..<4), let mm = num(5..<7), let dd = num(8..<10) {
            (y, m, d, rest) = (yy, mm, dd, 10)
        } else {
            let parts = text.trimmedSpaces.split(separator: "/")
            guard parts.count == 3, let mm = Int(parts[0]), let dd = Int(parts[1]), let yy = Int(parts[2]), parts[2].count == 4 else { return nil }
            (y, m, d, rest) = (yy, mm, dd, s.count)
        }
        guard (1...12).contains(m), (1...31).contains(d), y >= 1900, y < 3000 else { return nil }
        var ms = Int64(days(y, m, d)) * 86_400_000
        if rest < s.count {
            guard s[rest] == UInt8(ascii: " ") || s[rest] == UInt8(ascii: "T"), let h = num(rest + 1..<rest + 3),
                  s.count >= rest + 9, s[rest + 3] == UInt8(ascii: ":"), let mi = num(rest + 4..<rest + 6),
                  s[rest + 6] == UInt8(ascii: ":"), let se = num(rest + 7..<rest + 9), h < 24, mi < 60, se < 61 else { return nil }
            ms += Int64(h * 3600 + mi * 60 + se) * 1000
            var i = rest + 9
            if i < s.count, s[i] == UInt8(ascii: ".") {
                var digits = 0, frac = 0
                i += 1
                while i < s.count, s[i] >= 48, s[i] <= 57 {
                    if digits < 3 { frac = frac * 10 + Int(s[i] - 48) }
                    digits += 1; i += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 3)..<3 { frac *= 10 }
                ms += Int64(frac)
            }
            if i < s.count, s[i] == UInt8(ascii: "Z") { i += 1 }
            guard i == s.count else { return nil }
        }
        return date(milliseconds: ms)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }

    /// Without leading and trailing spaces and tabs (Foundation's trimming bridges through
    /// NSString, a seventh of a 100,000-row import).
    var trimmedSpaces: String {
        let u = utf8
        guard let first = u.first, let last = u.last, first == 32 || first == 9 || last == 32 || last == 9 else { return self }
        guard let start = u.firstIndex(where: { $0 != 32 && $0 != 9 }) else { return "" }
        let end = u.lastIndex(where: { $0 != 32 && $0 != 9 })!
        return String(self[start...end])
    }
}
