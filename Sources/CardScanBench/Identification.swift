import CardCatalog
import CardMatcher
import CardReader
import CardScanOCR
import CardScanner
import Foundation

// MARK: - HOOK: matcher
//
// The benchmark scores "name" and "printing" from an `Identification`. Two identifiers exist:
// - `IdentifierFactory.matcher(catalog:description:)`: one `CardMatcher` per worker thread over one
//   shared `CardCatalog` (Sendable); name and printing come from the matcher's card when (and only
//   when) it is `identified`; ambiguous and unidentified results are "sent to review". The catalog
//   is chosen in `MatcherCatalog.swift` (`--catalog PATH`, `--catalog-json FILE`, or built from the
//   shared bulk files).
// - `IdentifierFactory.titleOnly` (`--no-matcher`): name = read title, printing = read set + number,
//   no confidence, never sent to review.
// `isMatcher: true` makes the report show "identified", "precision of identified" and "sent to
// review" (computed in `Accuracy.swift`, rendered in `MarkdownReport.swift`). The harness times
// `identify` and stores it as the `match` stage unless the identifier filled it in.

/// What the identification step decided for one photo.
public struct Identification: Sendable, Codable, Equatable {
    /// Card name chosen (full `Front // Back` name or front face).
    public var name: String?
    /// Set code of the chosen printing.
    public var setCode: String?
    /// Collector number of the chosen printing.
    public var collectorNumber: String?
    /// Calibrated confidence 0…1 (nil for the stand-in).
    public var confidence: Double?
    /// True when the photo would go to the review queue instead of being accepted (nil: unknown).
    public var sentToReview: Bool?
    /// Matcher only: `identified`, `ambiguous` or `unidentified` (nil for the stand-in).
    public var status: String?
    /// Matcher only: the rule that decided (`exact`, `title-only`, …).
    public var method: String?
    /// Matcher only: the first few candidates as `name|set|number` (the card first when identified).
    public var candidates: [String]?

    /// Creates one.
    public init(name: String?, setCode: String?, collectorNumber: String?, confidence: Double? = nil, sentToReview: Bool? = nil) {
        self.name = name
        self.setCode = setCode
        self.collectorNumber = collectorNumber
        self.confidence = confidence
        self.sentToReview = sentToReview
    }

    /// The identification of a matcher result: the printing only when identified; the name also when
    /// every candidate shares it (the card is known, its printing is not).
    public init(_ m: MatchResult) {
        self.init(name: m.name, setCode: m.card?.setCode, collectorNumber: m.card?.collectorNumber,
                  confidence: m.confidence, sentToReview: m.status != .identified)
        status = m.status.rawValue
        method = m.method
        candidates = m.candidates.prefix(3).map { "\($0.printing.name)|\($0.printing.setCode)|\($0.printing.collectorNumber)" }
    }
}

/// Turns a reader's fields into an identification. One instance per worker thread (like
/// `CardReader`), so implementations need not be thread-safe.
public protocol CardIdentifier: AnyObject {
    /// Identifies the card of one reading.
    func identify(_ reading: CardReading) throws -> Identification
    /// Identifies the card of one reading of `image` by `reader`, which may read more of the card
    /// first (the reading comes back with it). By default, `identify(_:)` of the reading as is.
    func identify(_ reading: CardReading, in image: Image, reader: CardReader) throws -> (reading: CardReading, identification: Identification)
    /// Every card in the photo at `path` read by `reader` and identified, when this identifier
    /// finds a photo's cards itself; nil to have each reading of the photo identified in turn.
    func scan(_ path: String, reader: CardReader) throws -> [(reading: CardReading, identification: Identification)]?
}

extension CardIdentifier {
    public func identify(_ reading: CardReading, in image: Image, reader: CardReader) throws -> (reading: CardReading, identification: Identification) {
        (reading, try identify(reading))
    }

    public func scan(_ path: String, reader: CardReader) throws -> [(reading: CardReading, identification: Identification)]? {
        nil
    }
}

/// Makes one identifier per worker thread.
public struct IdentifierFactory: Sendable {
    /// Shown in the report.
    public var name: String
    /// True for the real matcher (enables the matcher columns in the report).
    public var isMatcher: Bool
    /// Builds an identifier; called on the worker thread that will use it.
    public var make: @Sendable () throws -> any CardIdentifier

    /// Creates a factory.
    public init(name: String, isMatcher: Bool, make: @escaping @Sendable () throws -> any CardIdentifier) {
        self.name = name
        self.isMatcher = isMatcher
        self.make = make
    }

    /// Stand-in without a catalog: name = read title, printing = read set + number.
    public static let titleOnly = IdentifierFactory(name: "title-only stand-in (no matcher)", isMatcher: false) {
        TitleOnlyIdentifier()
    }

    /// The real matcher: one `CardMatcher` per worker thread over the shared `catalog`.
    public static func matcher(catalog: CardCatalog, description: String) -> IdentifierFactory {
        IdentifierFactory(name: "CardMatcher (\(description))", isMatcher: true) {
            MatcherIdentifier(matcher: CardMatcher(catalog: catalog))
        }
    }
}

/// `CardMatcher` behind the `CardIdentifier` protocol; the match time is recorded as the `match` stage.
final class MatcherIdentifier: CardIdentifier {
    let matcher: CardMatcher

    init(matcher: CardMatcher) { self.matcher = matcher }

    func identify(_ reading: CardReading) throws -> Identification {
        Identification(try matcher.match(reading))
    }

    /// As `cardscan scan` identifies (`CardScanner.identify`): the text box and credits are read
    /// when the title and collector lines leave the card unidentified.
    func identify(_ reading: CardReading, in image: Image, reader: CardReader) throws -> (reading: CardReading, identification: Identification) {
        let card = try CardScanner(reader: reader, matcher: matcher).identify(reading, in: image)
        return (card.reading, Identification(card.match))
    }

    /// As `cardscan scan` finds a photo's cards (`CardScanner.scan`): a region is also a card when
    /// its text names one, and the photo's text is read when no card was recognised.
    func scan(_ path: String, reader: CardReader) throws -> [(reading: CardReading, identification: Identification)]? {
        try CardScanner(reader: reader, matcher: matcher).scan(contentsOf: path).cards.map { ($0.reading, Identification($0.match)) }
    }
}

/// The stand-in identifier: passes the reader's fields through.
final class TitleOnlyIdentifier: CardIdentifier {
    func identify(_ reading: CardReading) throws -> Identification {
        Identification(name: reading.fields.title?.value, setCode: reading.fields.setCode?.value,
                       collectorNumber: reading.fields.collectorNumber?.value)
    }
}
