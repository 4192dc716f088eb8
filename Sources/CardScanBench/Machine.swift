import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine and build a run was made on.
public struct MachineInfo: Sendable, Codable {
    /// Logical processors available to this process.
    public var nproc: Int
    /// `model name` from /proc/cpuinfo.
    public var cpuModel: String?
    /// MemTotal from /proc/meminfo, MiB.
    public var memoryMiB: Int?
    /// Kernel release (`uname -r`).
    public var kernel: String?
    /// `git rev-parse --short HEAD` in the working directory (with `-dirty` when the tree differs).
    public var gitCommit: String?
    /// `OMP_THREAD_LIMIT` as the bench was started with it (nil: unset).
    public var ompThreadLimit: String?
    /// `CARDSCAN_OPENMP` as the bench was started with it (nil: unset).
    public var cardscanOpenMP: String?
}

/// Reads machine facts and memory counters from /proc.
enum Machine {
    static func info() -> MachineInfo {
        let env = ProcessInfo.processInfo.environment
        return MachineInfo(nproc: ProcessInfo.processInfo.activeProcessorCount,
                           cpuModel: procField("/proc/cpuinfo", "model name"),
                           memoryMiB: procField("/proc/meminfo", "MemTotal").flatMap(kib).map { $0 / 1024 },
                           kernel: uname(), gitCommit: gitCommit(),
                           ompThreadLimit: env["OMP_THREAD_LIMIT"], cardscanOpenMP: env["CARDSCAN_OPENMP"])
    }

    /// VmHWM (peak resident set) of this whole process, KiB. Process-wide: every thread counts.
    static func peakRSSKiB() -> Int? { procField("/proc/self/status", "VmHWM").flatMap(kib) }

    /// VmRSS (current resident set) of this process, KiB.
    static func currentRSSKiB() -> Int? { procField("/proc/self/status", "VmRSS").flatMap(kib) }

    /// Resets VmHWM to the current RSS (`echo 5 > /proc/self/clear_refs`), so the next reading is the
    /// peak of one phase. Returns false when the kernel refused.
    @discardableResult
    static func resetPeakRSS() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }

    /// Largest resident set of any waited-for child process so far, KiB.
    static func childrenPeakRSSKiB() -> Int? {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)
    }

    private static func procField(_ file: String, _ key: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    private static func kib(_ value: String) -> Int? { Int(value.split(separator: " ").first ?? "") }

    private static func uname() -> String? {
        try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func gitCommit() -> String? {
        guard let git = ProcessRunner.which("git"),
              let r = try? ProcessRunner.run(git, ["rev-parse", "--short", "HEAD"], captureStdout: true), r.exitCode == 0 else { return nil }
        let commit = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let d = try? ProcessRunner.run(git, ["status", "--porcelain", "--untracked-files=no"], captureStdout: true),
           d.exitCode == 0, !d.stdout.isEmpty {
            return commit + "-dirty"
        }
        return commit
    }
}
