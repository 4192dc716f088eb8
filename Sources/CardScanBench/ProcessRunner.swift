import CardScanner
import Foundation

/// Spawns a program with Foundation `Process` and times it from launch to exit.
enum ProcessRunner {
    /// The outcome of one child process.
    struct Result: Sendable {
        /// Exit status (or terminating signal).
        var exitCode: Int32
        /// Launch-to-exit wall time, ms.
        var wallMs: Double
        /// Captured stdout (empty unless requested).
        var stdout: Data
    }

    /// Finds `name` in `$PATH`.
    static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The current environment with `remove` dropped and `set` applied.
    static func environment(removing remove: [String] = [], setting set: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in remove { env.removeValue(forKey: key) }
        for (k, v) in set { env[k] = v }
        return env
    }

    /// Runs `executable` with `arguments` and waits for it. Stdout is captured when asked, else
    /// discarded; stderr is always discarded. The clock starts just before launch and stops in the
    /// termination handler.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    captureStdout: Bool = false) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = captureStdout ? pipe : FileHandle.nullDevice
        let ended = LockedBox<UInt64>(0)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in
            ended.update { $0 = BenchClock.nanos }
            exited.signal()
        }
        let start = BenchClock.nanos
        try process.run()
        var output = Data()
        if captureStdout {
            output = pipe.fileHandleForReading.readDataToEndOfFile()
        }
        exited.wait()
        return Result(exitCode: process.terminationStatus, wallMs: BenchClock.ms(start, ended.get()), stdout: output)
    }
}
