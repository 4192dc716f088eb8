import Foundation

/// A value guarded by a lock, shareable between threads.
///
/// `Mutex` from Synchronization would do on Linux, but needs macOS 15 on Apple platforms while the
/// package targets macOS 13; an `NSLock` box works everywhere.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var snapshot: Value { withLock { $0 } }
}

/// Monotonic clock in milliseconds.
enum BenchClock {
    /// Nanoseconds since an arbitrary start.
    static var nanos: UInt64 { DispatchTime.now().uptimeNanoseconds }
    /// Milliseconds between two `nanos` readings.
    static func ms(_ start: UInt64, _ end: UInt64) -> Double { Double(end &- start) / 1_000_000 }
}
