import ArgumentParser
import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import Foundation

/// `cardscan identify PHOTO`: the printing in one photo.
struct IdentifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identify",
        abstract: "Identify the card in one photo: name, set, collector number and confidence.",
        discussion: """
        Exit status: 0 when the card is identified, 1 when it is ambiguous, unidentified or unreadable. \
        When several printings fit (basic lands, reprints without a readable number), the candidates \
        are listed instead of a guess.
        Examples:
          cardscan identify photo.jpg
          cardscan identify photo.jpg --json
          cardscan identify photo.jpg --annotate why.png
        """
    )

    @Argument(help: ArgumentHelp("Photo or scan of one card.", valueName: "photo"))
    var photo: String

    @Flag(help: "Print the JSON record (the same keys as `scan --json`).")
    var json = false

    @Option(help: ArgumentHelp("Write the photo with the card outline, text boxes and values drawn on it.", valueName: "out.png"))
    var annotate: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let catalog = try CatalogProvider.open(global)
        let identifier: Identifier
        do { identifier = try Identifier(catalog: catalog, readerOptions: global.readerOptions) } catch let e as OCRError { throw CLIError(e.description) }
        let (record, reading, match, decoded) = identifier.identify(photo, keepPhoto: annotate != nil)
        if json {
            print(try JSONOutput.string(record))
        } else if record.status != MatchStatus.error.rawValue {
            // An error is told once, on stderr (below).
            IdentifyPrinter.print(record, match: match, captureDay: reading?.captureDay)
        }
        if let annotate, let reading, let decoded {
            try Annotator.write(reading, on: decoded, verdict: IdentifyPrinter.verdict(record), to: annotate)
            Terminal.note("wrote \(annotate)")
        }
        if let error = record.error { Terminal.note(error) }
        if record.status == MatchStatus.error.rawValue { throw ExitCode(ExitStatus.error) }
        if record.status != MatchStatus.identified.rawValue { throw ExitCode(ExitStatus.partial) }
    }
}

/// Human-readable identification.
enum IdentifyPrinter {
    /// One line for the annotated image: `identified: Name — SET #N (93%)`, `ambiguous: 4
    /// printings fit`, `unidentified`.
    static func verdict(_ r: ScanRecord) -> String {
        if let card = identified(r) { return "identified: \(card)" }
        if r.status == "ambiguous" { return "ambiguous: \(r.candidates.count) printing\(r.candidates.count == 1 ? "" : "s") fit" }
        return r.status
    }

    /// `Name - SET #N (93%)` for an identified card, else nil.
    static func identified(_ r: ScanRecord) -> String? {
        guard let c = r.card, r.status == "identified" else { return nil }
        return "\(c.name) - \(c.set.uppercased()) #\(c.collector_number) (\(Int(r.confidence * 100))%)"
    }

    /// `captureDay`: when the photo was taken (EXIF), told when it ruled printings out.
    static func print(_ r: ScanRecord, match: MatchResult?, captureDay: String? = nil) {
        switch r.status {
        case "identified":
            let c = r.card!
            Swift.print("\(c.name) — \(c.set.uppercased()) #\(c.collector_number) (\(c.lang)\(c.rarity.map { ", \($0)" } ?? ""))  confidence \(Int(r.confidence * 100))%")
            if let printed = match?.printedLanguage {
                Swift.print("  (printed in \(printed); the catalog holds this card in \(c.lang) only)")
            }
        case "ambiguous":
            let fit = r.candidates.count == 1 ? "1 printing fits" : "\(r.candidates.count) printings fit"
            if let name = match?.name, r.candidates.count == 1 {
                // (One printing, not identified: what was read disagreed, e.g. the title with the text.)
                Swift.print("\(name) — not certain: the reads disagree; \(fit) what was read")
            } else if let name = match?.name {
                Swift.print("\(name) — printing not certain: \(fit) what was read")
            } else {
                Swift.print("ambiguous: \(fit) what was read (title \"\(r.extracted.title ?? "?")\")")
            }
            for (i, c) in r.candidates.prefix(10).enumerated() {
                Swift.print("  \(i + 1). \(c.name) — \(c.set.uppercased()) #\(c.collector_number)  score \(Int(c.score * 100))%")
            }
        default:
            Swift.print("unidentified: read title \"\(r.extracted.title ?? "-")\", set \(r.extracted.set_code ?? "-"), number \(r.extracted.collector_number ?? "-")")
        }
        if let captureDay, match?.method.hasSuffix("+date") == true {
            Swift.print("  (photo taken \(captureDay): printings released later were set aside)")
        }
        if let match, r.status != "unidentified" { Swift.print("  decided by \(Self.decidedBy(match))") }
    }

    /// What decided, in words: `set + number and title`, `title and the card's text (12 words, © 2015)`.
    static func decidedBy(_ m: MatchResult) -> String {
        let byArtist = m.method.hasSuffix("+artist")
        let base = m.method.replacingOccurrences(of: "+date", with: "").replacingOccurrences(of: "+artist", with: "")
        var rule = ["exact": "set + number and title", "number-from-title": "title within the set read",
                    "set-from-number": "title and number", "set-from-size": byArtist ? "number and set size" : "number, set size and rarity",
                    "title-only": "title", "title+text": "title and the card's text",
                    "text": "the card's text", "text+name": "the card's text, naming it",
                    "type-line": "its type line, which no other card has"][base] ?? base
        if byArtist { rule += ", the printing by its artist" }
        guard let text = m.text, base.contains("text") else { return rule }
        return rule + " (\(text.words.count) words\(text.copyrightYear.map { ", © \($0)" } ?? ""))"
    }
}
