import CardReader
import Foundation

// MARK: - HOOK: matcher
//
// The benchmark scores "name" and "printing via matcher" from an `Identification`. Until
// `CardMatcher` exists, `IdentifierFactory.titleOnly` stands in: name = read title, printing = read
// set + number, no confidence, never sent to review. To wire the matcher in:
//   1. add `static func matcher(...) -> IdentifierFactory` below that builds a `CardMatcher` (with
//      its own catalog connection) inside `make` — it is called once per worker thread;
//   2. set `isMatcher: true` so the report shows "printing via matcher", "precision of identified"
//      and "share sent to review" (computed in `Accuracy.swift`, rendered in `MarkdownReport.swift`);
//   3. add a `--catalog PATH` option in `Sources/cardscan-bench/main.swift` that selects it.
// The harness times `identify` and stores it as the `match` stage unless the matcher filled it in.

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

    /// Creates one.
    public init(name: String?, setCode: String?, collectorNumber: String?, confidence: Double? = nil, sentToReview: Bool? = nil) {
        self.name = name
        self.setCode = setCode
        self.collectorNumber = collectorNumber
        self.confidence = confidence
        self.sentToReview = sentToReview
    }
}

/// Turns a reader's fields into an identification. One instance per worker thread (like
/// `CardReader`), so implementations need not be thread-safe.
public protocol CardIdentifier: AnyObject {
    /// Identifies the card of one reading.
    func identify(_ reading: CardReading) throws -> Identification
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

    /// Stand-in until `CardMatcher` lands: name = read title, printing = read set + number.
    public static let titleOnly = IdentifierFactory(name: "title-only (no matcher yet)", isMatcher: false) {
        TitleOnlyIdentifier()
    }
}

/// The stand-in identifier: passes the reader's fields through.
final class TitleOnlyIdentifier: CardIdentifier {
    func identify(_ reading: CardReading) throws -> Identification {
        Identification(name: reading.fields.title?.value, setCode: reading.fields.setCode?.value,
                       collectorNumber: reading.fields.collectorNumber?.value)
    }
}
