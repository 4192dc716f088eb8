import Foundation

/// Process memory figures from `/proc/self/status` (Linux). Nil elsewhere.
public enum ProcessMemory {
    /// Peak resident set size (`VmHWM`) in bytes. Process-wide and monotonic.
    public static var peakResidentBytes: Int? { field("VmHWM:") }
    /// Current resident set size (`VmRSS`) in bytes.
    public static var residentBytes: Int? { field("VmRSS:") }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
        }
        return nil
    }
}
