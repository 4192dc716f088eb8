/// Summary statistics of a sample of measurements.
public struct SampleSummary: Sendable, Codable, Equatable {
    /// Number of values.
    public var count: Int
    /// Median (mean of the two middle values for an even count); nil when empty.
    public var median: Double?
    /// 90th percentile, nearest-rank (always an observed value); nil when empty.
    public var p90: Double?
    /// Smallest value.
    public var min: Double?
    /// Largest value.
    public var max: Double?
    /// Sum of all values.
    public var sum: Double
    /// Arithmetic mean.
    public var mean: Double?

    /// Summarises `values` (order does not matter).
    public init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        sum = sorted.reduce(0, +)
        median = Stats.median(sorted: sorted)
        p90 = Stats.percentile(sorted: sorted, 0.90)
        min = sorted.first
        max = sorted.last
        mean = sorted.isEmpty ? nil : sum / Double(sorted.count)
    }
}

/// Percentiles and ratios.
public enum Stats {
    /// Median of an ascending array.
    public static func median(sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Median of any array.
    public static func median(_ values: [Double]) -> Double? { median(sorted: values.sorted()) }

    /// Nearest-rank percentile (`p` in 0…1) of an ascending array: the smallest value with at least
    /// `p` of the sample at or below it.
    public static func percentile(sorted: [Double], _ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    /// `a / b`, nil when either is missing or `b` is not positive.
    public static func ratio(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b, b > 0 else { return nil }
        return a / b
    }
}
