import Foundation
import TestSupport
import Testing
@testable import CardCollection

/// The real exports of eight services in `../shared/interop/` (see its SOURCES.md and FORMATS.md).
@Suite("Collection files: every real export in ../shared/interop", .tags(.sharedData), .needsSharedData)
struct InteropFilesTests {
    static let folder = SharedCardData.root.appendingPathComponent("interop")

    /// Every export file (CSV, and the TCGplayer/Arena `.txt` exports), by path.
    static var files: [String] {
        let fm = FileManager.default
        let dirs = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        return dirs.sorted().flatMap { dir -> [String] in
            let names = (try? fm.contentsOfDirectory(atPath: folder.appendingPathComponent(dir).path)) ?? []
            return names.filter { $0.hasSuffix(".csv") || $0.hasSuffix(".txt") }.sorted().map { "\(dir)/\($0)" }
        }
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    }

    /// The data lines of a file counted without a CSV reader: non-blank lines after the `sep=`
    /// line and the header (Arena: lines starting with a count). No real file has a line break
    /// inside a cell, so this is the number of rows a reader must account for.
    static func dataLines(_ text: String, arena: Bool) -> Int {
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.allSatisfy { $0 == "," } }
        if arena { return lines.filter { $0.first?.isNumber == true }.count }
        return lines.count - 1 - (lines.first.map { CollectionFiles.separatorLine($0) != nil } == true ? 1 : 0)
    }

    @Test("the folder holds the files this suite reads")
    func present() {
        #expect(Self.files.count >= 66, "../shared/interop missing or changed: \(Self.files.count) files")
    }

    @Test("every row of every file is taken, wanted or skipped with its line and a reason", arguments: files)
    func noRowLost(file: String) throws {
        let text = try Self.text(file)
        let format = try #require(CollectionFormat.detect(Substring(text)), "\(file): format not detected")
        let expectedFormat = file.hasPrefix("manabox/Kerakis_omenpath__cards") ? "moxfield" // ManaBox's Moxfield-format export
            : file.contains("sorted") ? "sorted" : String(file.split(separator: "/")[0])
        #expect(format.rawValue == expectedFormat, "\(file)")
        let r = try CollectionFiles.read(text, format: format, file: file)
        let lines = Self.dataLines(text, arena: format == .arena)
        #expect(r.rows == lines, "\(file): \(r.rows) rows read, \(lines) data lines")
        #expect(r.taken + r.wanted + r.skipped.count == r.rows, "\(file)")
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        for s in r.skipped { #expect((1...lineCount).contains(s.line) && !s.reason.isEmpty, "\(file): \(s)") }
        #expect(r.holdings.allSatisfy { $0.quantity > 0 && !$0.name.isEmpty })
    }

    /// The fields a format's columns carry; the date only where the format has a date column.
    static func essentials(_ h: Holding, format: CollectionFormat) -> String {
        // The date at the precision of the format's date column (none: the import's time).
        let date = [.moxfield, .manabox, .json].contains(format) ? "\(Dates.milliseconds(h.addedAt))"
            : [.archidekt, .dragonshield, .sorted].contains(format) ? Dates.day.string(from: h.addedAt) : ""
        // Rarity comes from the catalog where the format has no column for it.
        let rarity = format.header.contains(where: { CollectionFormat.key($0) == "rarity" }) || format == .json ? h.rarity ?? "" : ""
        return "\(h.name)|\(h.setCode)|\(h.collectorNumber)|\(h.language)|\(h.quantity)|\(h.finish)|\(h.condition)|\(h.tags)|\(h.purchasePrice ?? "")|\(h.scryfallID)|\(rarity)|\(h.details)|\(date)"
    }

    @Test("import → export in the same format → import gives the same collection", arguments: files)
    func roundTrip(file: String) throws {
        let text = try Self.text(file)
        let format = try #require(CollectionFormat.detect(Substring(text)))
        let first = try CollectionFiles.read(text, format: format, file: file)
        let exported = try CollectionFiles.export(first.holdings, format: format)
        let second = try CollectionFiles.read(exported, format: format, file: "re-export of \(file)")
        #expect(second.skipped.isEmpty, "\(file): \(second.skipped.prefix(3))")
        var a = first.holdings, b = second.holdings
        if !format.keepsWishList { a = a.filter { !$0.details.wanted } }
        if format == .arena { // deck text writes one line per printing and section
            a = Self.merged(a); b = Self.merged(b)
        }
        let x = a.map { Self.essentials($0, format: format) }, y = b.map { Self.essentials($0, format: format) }
        #expect(x.count == y.count, "\(file)")
        for (u, v) in zip(x, y) where u != v {
            Issue.record("\(file): \(u)\n  came back as \(v)")
            break
        }
    }

    @Test("collector-number forms: Deckbox's The List and box-topper numbers read as Scryfall's, written back as Deckbox's")
    func numberForms() throws {
        let file = "deckbox/StepKie_MtgCsvHelper__deckbox-real-export.csv"
        let r = try CollectionFiles.read(try Self.text(file), format: .deckbox, file: file)
        let tutors = r.holdings.filter { $0.name == "Demonic Tutor" }.map { "\($0.setCode) \($0.collectorNumber)" }
        #expect(tutors.contains("plst DDC-49") && tutors.contains("puma U8"), "\(tutors)")
        let out = try CollectionFiles.export(r.holdings, format: .deckbox)
        #expect(out.contains("Demonic Tutor,The List,PLIST,49,Near Mint,English,,,,,,,,,DDC,") && out.contains("Demonic Tutor,Ultimate Masters: Box Toppers,PUMA,8,"), "\(out)")
        // Free text in Printing Note is kept and written back.
        #expect(r.holdings.contains { $0.details.note == "Showcase" } && out.contains(",Showcase,"))
        // Every other service's own forms are kept as written (★, p, U31, 2022-3, DDC-49).
        let mox = try CollectionFiles.read(try Self.text("moxfield/Kerakis_omenpath__moxfield_haves_2025-06-13-0246Z.csv"), format: .moxfield, file: "m")
        #expect(mox.holdings.contains { $0.setCode == "puma" && $0.collectorNumber == "U31" })
    }

    static func merged(_ rows: [Holding]) -> [Holding] {
        var out: [Holding] = []
        for h in rows {
            if let i = out.firstIndex(where: { $0.name == h.name && $0.setCode == h.setCode && $0.collectorNumber == h.collectorNumber && $0.details.binder == h.details.binder }) {
                out[i].quantity += h.quantity
            } else { out.append(h) }
        }
        return out
    }

    /// A real export per service whose header the export must reproduce.
    static let reference: [(CollectionFormat, String)] = [
        (.moxfield, "moxfield/Kerakis_omenpath__moxfield_haves_2025-06-13-0246Z.csv"),
        (.manabox, "manabox/OSmall_tomekin__manabox-collection-real-slice.csv"),
        (.deckbox, "deckbox/StepKie_MtgCsvHelper__deckbox-real-export.csv"),
        (.archidekt, "archidekt/StepKie_MtgCsvHelper__archidekt-real-export.csv"),
        (.dragonshield, "dragonshield/StepKie_MtgCsvHelper__dragonshield-sample-official.csv"),
        (.sorted, "dragonshield/StepKie_MtgCsvHelper__sorted-real-export.csv"),
        (.tcgplayer, "tcgplayer/StepKie_MtgCsvHelper__tcgplayer-real-export.csv"),
    ]

    @Test("an export holding every kind of value has the service's real header and only words its real exports use")
    func matchesService() throws {
        // Every condition, the languages all services name, every finish, prices, flags, a wish list row.
        var rows: [Holding] = []
        for (i, condition) in Condition.allCases.enumerated() {
            for (j, language) in ["en", "de", "ja", "zhs", "zht"].enumerated() {
                let finish = Finish.allCases[(i + j) % 3]
                rows.append(Holding(scryfallID: "", name: "Card \(i)\(j)", setCode: "ltr", collectorNumber: "\(i * 10 + j)", language: language,
                                    rarity: "rare", quantity: 1 + j, finish: finish, condition: condition, pool: "", tags: j == 0 ? [] : ["t\(j)"],
                                    addedAt: Date(timeIntervalSince1970: 1_700_000_000), purchasePrice: j == 1 ? "1.50" : nil,
                                    details: CardDetails(tradeQuantity: j % 2, proxy: j == 2, altered: j == 3, signed: j == 4,
                                                         currency: j == 1 ? "USD" : nil, binder: "Box")))
            }
        }
        for (format, file) in Self.reference {
            let real = try Self.text(file)
            let realLines = real.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            let realHeader = realLines.first { CollectionFiles.separatorLine(String($0)) == nil }.map(String.init) ?? ""
            let exported = try CollectionFiles.export(rows, format: format)
            let lines = exported.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
            let header = lines.first { CollectionFiles.separatorLine($0) == nil } ?? ""
            #expect(header == realHeader, "\(format): header\n  \(header)\n  real \(realHeader)")
            // Dragon Shield's web export is CRLF (FORMATS.md); some copies here were normalised to LF.
            #expect(exported.contains("\r\n") == real.contains("\r\n") || format == .dragonshield || format == .sorted, "\(format): line endings")
            // The words written in the condition, language and finish columns all occur in the
            // service's real exports (all files of that service, FORMATS.md's vocabulary).
            let words = { (text: String, f: CollectionFormat) -> [String: Set<String>] in
                let r = try? CSVCells.columns(text)
                var out: [String: Set<String>] = [:]
                for (column, values) in r ?? [:] where ["condition", "language", "foil", "finish", "printing"].contains(CollectionFormat.key(column)) {
                    out[CollectionFormat.key(column)] = Set(values.filter { !$0.isEmpty })
                }
                return out
            }
            // Words documented beside the real files (FORMATS.md): Deckbox's official Proxy condition,
            // Archidekt's LP (SB), Dragon Shield's Excellent and Etched, which Sorted shares.
            let documented: [CollectionFormat: [String: Set<String>]] = [
                .deckbox: ["condition": ["Proxy"]], .archidekt: ["condition": ["LP"]],
                .sorted: ["condition": ["Excellent"], "printing": ["Etched"]],
            ]
            var seen: [String: Set<String>] = documented[format] ?? [:]
            for other in Self.files where CollectionFormat.detect(Substring(try Self.text(other))) == format {
                for (k, v) in words(try Self.text(other), format) { seen[k, default: []].formUnion(v) }
            }
            for (k, v) in words(exported, format) {
                let unknown = v.subtracting(seen[k] ?? [])
                #expect(unknown.isEmpty, "\(format) \(k): \(unknown.sorted()) not in any real export (seen \((seen[k] ?? []).sorted()))")
            }
        }
    }
}

/// The cells of a CSV text by column (for checking exports; reads with the same CSV library).
enum CSVCells {
    static func columns(_ text: String) throws -> [String: [String]] {
        var body = Substring(text)
        if let first = body.split(whereSeparator: \.isNewline).first, CollectionFiles.separatorLine(String(first)) != nil {
            body = body.dropFirst(first.count).drop { $0.isNewline }
        }
        var out: [String: [String]] = [:]
        let report = try CollectionFiles.rawRows(String(body))
        guard let header = report.first else { return [:] }
        for row in report.dropFirst() { for (i, c) in header.enumerated() where i < row.count { out[c, default: []].append(row[i]) } }
        return out
    }
}
