import CardReader
import Foundation

/// Fields scored against labels.
public enum AccuracyField: String, Sendable, Codable, CaseIterable {
    /// Read title vs label name (front face of `A // B`).
    case title
    /// Read set code.
    case set
    /// Read collector number, without leading zeros.
    case number
    /// Read set + number together, against one label row.
    case printing
    /// Identified name (title-only stand-in today; the matcher's name later).
    case name
    /// The matcher's printing (only scored when a real matcher is plugged in).
    case matcherPrinting = "matcher_printing"
}

/// Per-photo verdicts: nil = the label has no such field (not counted).
public struct PhotoScore: Sendable, Codable, Equatable {
    /// Verdict per field (`AccuracyField.rawValue` → correct?).
    public var fields: [String: Bool]

    /// Scores one photo. Errors count as wrong on every field the label has. For `photo_multi`
    /// (several label rows) a value is right when it matches any row.
    public static func score(_ photo: BenchPhoto, _ outcome: PhotoOutcome, matcher: Bool) -> PhotoScore {
        let labels = photo.labels
        let f = outcome.reading?.fields
        let id = outcome.identification
        var out: [String: Bool] = [:]
        let names = labels.map(\.name).filter { !$0.isEmpty }
        let sets = labels.map(\.set).filter { !$0.isEmpty }
        let numbers = labels.map(\.collectorNumber).filter { !$0.isEmpty }
        let printings = labels.filter { !$0.set.isEmpty && !$0.collectorNumber.isEmpty }
        func printingMatches(_ set: String?, _ number: String?) -> Bool {
            printings.contains { FieldComparison.setMatches(set, label: $0.set) && FieldComparison.numberMatches(number, label: $0.collectorNumber) }
        }
        if !names.isEmpty {
            out[AccuracyField.title.rawValue] = names.contains { FieldComparison.titleMatches(f?.title?.value, name: $0) }
            out[AccuracyField.name.rawValue] = names.contains { FieldComparison.titleMatches(id?.name, name: $0) }
        }
        if !sets.isEmpty { out[AccuracyField.set.rawValue] = sets.contains { FieldComparison.setMatches(f?.setCode?.value, label: $0) } }
        if !numbers.isEmpty {
            out[AccuracyField.number.rawValue] = numbers.contains { FieldComparison.numberMatches(f?.collectorNumber?.value, label: $0) }
        }
        if !printings.isEmpty {
            out[AccuracyField.printing.rawValue] = printingMatches(f?.setCode?.value, f?.collectorNumber?.value)
            if matcher { out[AccuracyField.matcherPrinting.rawValue] = printingMatches(id?.setCode, id?.collectorNumber) }
        }
        return PhotoScore(fields: out)
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
    /// Matcher only: photos accepted without review that have a printing label.
    public var identified = 0
    /// Matcher only: of those, printing right (precision of identified = this / identified).
    public var identifiedCorrect = 0
    /// Matcher only: photos sent to review.
    public var sentToReview = 0
    /// Matcher only: photos with a review decision.
    public var decided = 0

    /// Precision of identified: identifiedCorrect / identified (matcher only).
    public var precisionOfIdentified: Double?
    /// Share sent to review: sentToReview / decided (matcher only).
    public var shareSentToReview: Double?

    init(group: String) { self.group = group }

    mutating func add(_ outcome: PhotoOutcome, score: PhotoScore) {
        photos += 1
        if outcome.reading == nil { errors += 1 }
        for (field, ok) in score.fields {
            fields[field, default: FieldTally()].total += 1
            if ok { fields[field, default: FieldTally()].correct += 1 }
        }
        if let review = outcome.identification?.sentToReview {
            decided += 1
            if review { sentToReview += 1 } else if let ok = score.fields[AccuracyField.matcherPrinting.rawValue] {
                identified += 1
                if ok { identifiedCorrect += 1 }
            }
        }
        precisionOfIdentified = identified > 0 ? Double(identifiedCorrect) / Double(identified) : nil
        shareSentToReview = decided > 0 ? Double(sentToReview) / Double(decided) : nil
    }
}

/// Groups per-photo scores by kind, by folder and (fixtures) by style / variant.
enum Accuracy {
    /// Dimension name → groups, each list starting with `all`.
    static func tally(photos: [BenchPhoto], outcomes: [PhotoOutcome], scores: [PhotoScore]) -> [String: [AccuracyGroup]] {
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
                groups[k]!.add(outcomes[i], score: scores[i])
                all.add(outcomes[i], score: scores[i])
            }
            if !order.isEmpty { result[dimension] = [all] + order.map { groups[$0]! } }
        }
        return result
    }
}
