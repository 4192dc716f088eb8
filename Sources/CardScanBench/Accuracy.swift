import CardReader
import Foundation

/// Fields scored against labels.
public enum AccuracyField: String, Sendable, Codable, CaseIterable {
    /// Read title vs label name (front face of `A // B`), or the title printed when a fixture
    /// names it (`printed_name`).
    case title
    /// Read set code.
    case set
    /// Read collector number, without leading zeros.
    case number
    /// Read set + number together, against one label row (the reader alone).
    case readPrinting = "read_printing"
    /// Identified printing (set + number): the matcher's card when identified (nothing otherwise),
    /// or the read set + number for the title-only stand-in.
    case printing
    /// Name: the matcher's card when identified, or the one name all its candidates share (see
    /// `MatchResult.name`); the read title for the stand-in.
    case name
}

/// Per-photo verdicts: nil = the label has no such field (not counted).
public struct PhotoScore: Sendable, Codable, Equatable {
    /// Verdict per field (`AccuracyField.rawValue` → correct?).
    public var fields: [String: Bool]
    /// Matcher only, photos with a labelled name: one verdict per identified card read in the
    /// photo (the first card, and for `photo_multi` the others): right when the name matches a
    /// label row, and set + number match when that row has both. Empty otherwise.
    public var identifiedVerdicts: [Bool]

    /// Scores one photo. Errors count as wrong on every field the label has. For a photo of
    /// several cards (`photo_multi`, or several label rows) a value is right when it matches any
    /// row, in any card read in the photo; otherwise only the first card counts (a photo of one
    /// card has one answer).
    public static func score(_ photo: BenchPhoto, _ outcome: PhotoOutcome, matcher: Bool) -> PhotoScore {
        let several = photo.kind == "photo_multi" || photo.labels.count > 1
        let cards: [(CardReading?, Identification?)] = [(outcome.reading, outcome.identification)]
            + (several ? outcome.others.map { ($0.reading, $0.identification) } : [])
        let labels = photo.labels
        var out: [String: Bool] = [:]
        var verdicts: [Bool] = []
        for (reading, id) in cards {
            let card = score(labels, reading?.fields, id, matcher: matcher)
            for (field, right) in card.fields { out[field] = (out[field] ?? false) || right }
            verdicts += card.identifiedVerdicts
        }
        return PhotoScore(fields: out, identifiedVerdicts: verdicts)
    }

    /// Scores one card read in a photo against the photo's label rows.
    private static func score(_ labels: [BenchLabel], _ f: ExtractedFields?, _ id: Identification?, matcher: Bool) -> PhotoScore {
        var out: [String: Bool] = [:]
        let names = labels.map(\.name).filter { !$0.isEmpty }
        let sets = labels.map(\.set).filter { !$0.isEmpty }
        let numbers = labels.map(\.collectorNumber).filter { !$0.isEmpty }
        let printings = labels.filter { !$0.set.isEmpty && !$0.collectorNumber.isEmpty }
        func printingMatches(_ set: String?, _ number: String?, _ row: BenchLabel) -> Bool {
            FieldComparison.setMatches(set, label: row.set) && FieldComparison.numberMatches(number, label: row.collectorNumber)
        }
        if !names.isEmpty {
            out[AccuracyField.title.rawValue] = labels.contains { !$0.name.isEmpty && FieldComparison.titleMatches(f?.title?.value, name: $0.printedTitle) }
            out[AccuracyField.name.rawValue] = names.contains { FieldComparison.cardNameMatches(id?.name, name: $0) }
        }
        if !sets.isEmpty { out[AccuracyField.set.rawValue] = sets.contains { FieldComparison.setMatches(f?.setCode?.value, label: $0) } }
        if !numbers.isEmpty {
            out[AccuracyField.number.rawValue] = numbers.contains { FieldComparison.numberMatches(f?.collectorNumber?.value, label: $0) }
        }
        if !printings.isEmpty {
            out[AccuracyField.readPrinting.rawValue] = printings.contains { printingMatches(f?.setCode?.value, f?.collectorNumber?.value, $0) }
            out[AccuracyField.printing.rawValue] = printings.contains { printingMatches(id?.setCode, id?.collectorNumber, $0) }
        }
        var verdicts: [Bool] = []
        if matcher, let id, id.status == "identified", !names.isEmpty {
            verdicts.append(labels.contains { row in
                !row.name.isEmpty && FieldComparison.cardNameMatches(id.name, name: row.name)
                    && (row.set.isEmpty || row.collectorNumber.isEmpty || printingMatches(id.setCode, id.collectorNumber, row))
            })
        }
        return PhotoScore(fields: out, identifiedVerdicts: verdicts)
    }
}

/// Right / counted for one field in one group.
public struct FieldTally: Sendable, Codable, Equatable {
    /// Photos where the value was right.
    public var correct = 0
    /// Photos whose label has the field.
    public var total = 0
    /// correct / total (nil when nothing was counted).
    public var rate: Double? { total > 0 ? Double(correct) / Double(total) : nil }

    /// Empty tally.
    public init() {}

    enum CodingKeys: String, CodingKey { case correct, total, rate }
    /// Decodes `correct` and `total` (the rate is derived).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        correct = try c.decode(Int.self, forKey: .correct)
        total = try c.decode(Int.self, forKey: .total)
    }
    /// Encodes with the rate included.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(correct, forKey: .correct)
        try c.encode(total, forKey: .total)
        try c.encodeIfPresent(rate, forKey: .rate)
    }
}

/// Accuracy of one group of photos (one kind, one folder, or all).
public struct AccuracyGroup: Sendable, Codable {
    /// Group name (`photo_single`, `alexandrearpin/photos`, `all`).
    public var group: String
    /// Photos in the group (labelled or not).
    public var photos = 0
    /// Photos the reader failed on.
    public var errors = 0
    /// Tally per `AccuracyField.rawValue`.
    public var fields: [String: FieldTally] = [:]
    /// Matcher only: photos the matcher identified (accepted without review).
    public var identified = 0
    /// Matcher only: identified cards in photos whose label names the card (the precision
    /// denominator; a several-card photo counts each identified card).
    public var identifiedLabelled = 0
    /// Matcher only: of those, the card was right (precision of identified = this / identifiedLabelled).
    public var identifiedCorrect = 0
    /// Matcher only: ambiguous results (sent to review).
    public var ambiguous = 0
    /// Matcher only: unidentified results (sent to review).
    public var unidentified = 0
    /// Matcher only: ambiguous + unidentified.
    public var sentToReview = 0

    /// Matcher only: identified / photos (reader or matcher errors count in the denominator).
    public var identifiedShare: Double?
    /// Matcher only: identifiedCorrect / identifiedLabelled.
    public var precisionOfIdentified: Double?
    /// Matcher only: sentToReview / photos.
    public var shareSentToReview: Double?

    init(group: String) { self.group = group }

    mutating func add(_ outcome: PhotoOutcome, score: PhotoScore, matcher: Bool) {
        photos += 1
        if outcome.reading == nil { errors += 1 }
        for (field, ok) in score.fields {
            fields[field, default: FieldTally()].total += 1
            if ok { fields[field, default: FieldTally()].correct += 1 }
        }
        guard matcher else { return }
        for right in score.identifiedVerdicts {
            identifiedLabelled += 1
            if right { identifiedCorrect += 1 }
        }
        switch outcome.identification?.status {
        case "identified":
            identified += 1
        case "ambiguous": ambiguous += 1; sentToReview += 1
        case "unidentified": unidentified += 1; sentToReview += 1
        default: break // reader or matcher error
        }
        identifiedShare = Double(identified) / Double(photos)
        shareSentToReview = Double(sentToReview) / Double(photos)
        precisionOfIdentified = identifiedLabelled > 0 ? Double(identifiedCorrect) / Double(identifiedLabelled) : nil
    }
}

/// Groups per-photo scores by kind, by folder and (fixtures) by style / variant.
enum Accuracy {
    /// Dimension name → groups, each list starting with `all`.
    static func tally(photos: [BenchPhoto], outcomes: [PhotoOutcome], scores: [PhotoScore], matcher: Bool) -> [String: [AccuracyGroup]] {
        var result: [String: [AccuracyGroup]] = [:]
        let dimensions: [(String, (BenchPhoto) -> String?)] = [
            ("kind", { $0.kind }),
            ("folder", { $0.folder }),
            ("style", { $0.labels.first?.attributes["style"] }),
            ("variant", { $0.labels.first?.attributes["variant"] }),
        ]
        for (dimension, key) in dimensions {
            var order: [String] = []
            var groups: [String: AccuracyGroup] = [:]
            var all = AccuracyGroup(group: "all")
            for (i, photo) in photos.enumerated() {
                guard let k = key(photo) else { continue }
                if groups[k] == nil { order.append(k); groups[k] = AccuracyGroup(group: k) }
                groups[k]!.add(outcomes[i], score: scores[i], matcher: matcher)
                all.add(outcomes[i], score: scores[i], matcher: matcher)
            }
            if !order.isEmpty { result[dimension] = [all] + order.map { groups[$0]! } }
        }
        return result
    }
}
