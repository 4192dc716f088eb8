import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import CardScanner
import Foundation

/// Reads and matches one photo (`CardScanner`, the library's one way from a photo to cards) and
/// turns the result into records: the shared step of `identify`, `scan` and `import`. Owns one
/// scanner (one Tesseract engine); use one per thread.
final class Identifier {
    let scanner: CardScanner

    /// `readsEveryText`: read every card's text, also of cards the title and number identified.
    init(catalog: CardCatalog, readerOptions: CardReader.Options, readsEveryText: Bool = false) throws {
        var options = readerOptions
        options.ocrDeadlineMilliseconds = Self.ocrDeadline(base: options.ocrDeadlineMilliseconds)
        scanner = try CardScanner(catalog: catalog, options: options)
        scanner.readsTextAlways = readsEveryText
    }

    /// The OCR deadline stretched by the machine's load: with more runnable processes than cores
    /// (other programs, other cardscans) each recognition gets a smaller share of a core, and a
    /// fixed wall-clock deadline turned that into failed photos.
    static func ocrDeadline(base: Int) -> Int {
        var load = [Double](repeating: 0, count: 1)
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        guard getloadavg(&load, 1) == 1, load[0] > cores else { return base }
        return Int(Double(base) * min(load[0] / cores, 8))
    }

    /// Photos processed at once: `requested` (default: the number of cores), never more than the
    /// cores, saying so. More OCR engines than cores only share the cores, and each holds its
    /// photo in memory (`--jobs 64` on 2 cores took 1.4 GB).
    static func jobs(_ requested: Int?) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard let requested else { return cores }
        if requested > cores {
            Terminal.note("cardscan: --jobs \(requested) lowered to \(cores), the number of cores (more jobs would only share them)")
            return cores
        }
        return requested
    }

    /// Every card found in the photo, one record each (the main card first); never throws: a bad
    /// file becomes one `error` record naming the file and the cause.
    func identifyAll(_ path: String) -> [ScanRecord] {
        identifyEach(path).map(\.record)
    }

    /// Every card found in the photo with its reading and match (the main card first); a bad
    /// file gives one `error` record (naming the file and the cause) without either.
    func identifyEach(_ path: String) -> [(record: ScanRecord, reading: CardReading?, match: MatchResult?)] {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            return try scanner.scan(contentsOf: path).cards.map { card in
                (ScanRecord(file: path, reading: card.reading, match: card.match), card.reading, card.match)
            }
        } catch {
            return [(Self.errorRecord(path, error, since: start), nil, nil)]
        }
    }

    /// Writes `path` with every card of `cards` (its `identifyEach`) outlined and numbered, with
    /// its name or why it failed, into the folder `directory` (`scan --annotate`), named after the
    /// photo's path; returns the file written. Nothing for a photo that could not be read.
    /// - Throws: when the photo cannot be decoded in colour or the drawing cannot be written.
    func annotate(_ path: String, _ cards: [(record: ScanRecord, reading: CardReading?, match: MatchResult?)],
                  into directory: String) throws -> String? {
        let drawn = cards.compactMap { card in card.reading.map { (reading: $0, status: card.record.status, label: Self.label(card.record)) } }
        guard !drawn.isEmpty else { return nil }
        let name = path.split(separator: "/").filter { $0 != "." && $0 != ".." }.joined(separator: "_")
        let out = URL(fileURLWithPath: directory).appendingPathComponent(name + ".png").path
        try Annotator.write(cards: drawn, on: scanner.reader.photoInColour(contentsOf: path), to: out)
        return out
    }

    /// A card's line in an annotated photo: its name and printing, the names that fit, or why
    /// nothing was recognised.
    static func label(_ r: ScanRecord) -> String {
        if let card = IdentifyPrinter.identified(r) { return card }
        let names = r.candidates.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if r.status == "ambiguous", names.count == 1 { return "\(names[0]) (\(r.candidates.count) printings fit)" }
        if r.status == "ambiguous" { return "ambiguous: " + names.prefix(3).joined(separator: " / ") }
        if let title = r.extracted.title { return "\(r.status): title read as '\(title)'" }
        return "\(r.status): no title read"
    }

    /// The photo's main card. Never throws: a bad file becomes an `error` record naming the file
    /// and the cause. With `keepPhoto` the photo is also decoded in colour and handed back (for
    /// `--annotate`; what is read comes from the same luminance decode as without it).
    func identify(_ path: String, keepPhoto: Bool = false)
        -> (record: ScanRecord, reading: CardReading?, match: MatchResult?, photo: Image?) {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let (cards, gray) = try scanner.scan(contentsOf: path, limit: 1)
            let card = cards[0]
            let photo = keepPhoto ? scanner.reader.photoInColour(contentsOf: path, else: gray) : nil
            return (ScanRecord(file: path, reading: card.reading, match: card.match), card.reading, card.match, photo)
        } catch {
            return (Self.errorRecord(path, error, since: start), nil, nil, nil)
        }
    }

    /// The `error` record for a file: the message names the file (the OCR errors about the engine
    /// rather than the file do not) and the cause.
    private static func errorRecord(_ path: String, _ error: Error, since start: UInt64) -> ScanRecord {
        let cause = (error as? OCRError)?.description ?? "\(error)"
        let message = cause.contains(path) ? cause : "\(path): \(cause)"
        return ScanRecord(file: path, error: message, totalMilliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
}
