import Foundation

/// Monotonic clock in milliseconds.
enum BenchClock {
    /// Nanoseconds since an arbitrary start.
    static var nanos: UInt64 { DispatchTime.now().uptimeNanoseconds }
    /// Milliseconds between two `nanos` readings.
    static func ms(_ start: UInt64, _ end: UInt64) -> Double { Double(end &- start) / 1_000_000 }
}
