import Foundation
import Synchronization

/// Runs the built `cardscan` binary the way a script would. Every test of the real binary goes
/// through it.
public enum CLI {
    /// The package root (Tests/TestSupport/CLI.swift → ../..).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `cardscan` built with these tests: next to the test executable first (whatever the
    /// scratch path), then the default debug build folder. Printed once, so a log shows which ran.
    public static let binary: URL = {
        let dirs = [Bundle.main.executableURL?.deletingLastPathComponent(),
                    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                    Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()].compactMap { $0 }
        let candidates = dirs.map { $0.appendingPathComponent("cardscan") } + [root.appendingPathComponent(".build/debug/cardscan")]
        let binary = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
        print("CLI tests run \(binary.path)")
        return binary
    }()

    /// A finished run.
    public struct Run: Sendable {
        public let status: Int32
        public let out: String
        public let err: String
        /// Wall time from start to exit.
        public let seconds: Double
        /// The run was killed for outliving its `timeout`.
        public let timedOut: Bool
        public var errLines: [String] { err.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
        public var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// A configured, not yet started process: cwd = package root, this process's environment
    /// (less `CARDSCAN_DECODER_MESSAGES`, which would add lines to stderr) + `environment`, and
    /// `CARDSCAN_HOME` = `home` when given. `prefix` runs the binary under another program
    /// (`prefix[0]`, with the rest of `prefix` as its first arguments).
    public static func process(_ args: [String], environment: [String: String] = [:], home: URL? = nil,
                               executable: URL = binary, prefix: [String] = []) -> Process {
        let p = Process()
        if let launcher = prefix.first {
            p.executableURL = URL(fileURLWithPath: launcher)
            p.arguments = Array(prefix.dropFirst()) + [executable.path] + args
        } else {
            p.executableURL = executable
            p.arguments = args
        }
        p.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        env["CARDSCAN_DECODER_MESSAGES"] = nil
        if let home { env["CARDSCAN_HOME"] = home.path }
        for (k, v) in environment { env[k] = v }
        p.environment = env
        return p
    }

    /// Runs cardscan to completion (see `process`) and returns its exit status, stdout and stderr;
    /// both pipes are drained at once, so a chatty child cannot block on a full pipe. With a
    /// `timeout` (seconds) a run that outlives it is killed (SIGKILL) and marked `timedOut`: a
    /// hang fails the test instead of stalling the suite.
    @discardableResult
    public static func run(_ args: [String], environment: [String: String] = [:], home: URL? = nil, timeout: Double? = nil,
                           executable: URL = binary, prefix: [String] = []) throws -> Run {
        let p = process(args, environment: environment, home: home, executable: executable, prefix: prefix)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let start = Date()
        try p.run()
        let outData = PipeContents(out), errData = PipeContents(err)
        var timedOut = false
        if let timeout {
            let exited = DispatchSemaphore(value: 0)
            Thread { p.waitUntilExit(); exited.signal() }.start()
            if exited.wait(timeout: .now() + timeout) == .timedOut {
                timedOut = true
                kill(p.processIdentifier, SIGKILL)
                exited.wait()
            }
        } else {
            p.waitUntilExit()
        }
        return Run(status: p.terminationStatus, out: String(decoding: outData.wait(), as: UTF8.self),
                   err: String(decoding: errData.wait(), as: UTF8.self), seconds: Date().timeIntervalSince(start), timedOut: timedOut)
    }

    /// Starts a thread that reads `pipe` until end of file and calls `line` for each complete
    /// line as it arrives (tests that act while a child is still running), then `end`.
    @discardableResult
    public static func readLines(_ pipe: Pipe, line: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void = {}) -> Thread {
        let thread = Thread {
            var pending = ""
            while true {
                let data = pipe.fileHandleForReading.availableData
                if data.isEmpty { break }
                pending += String(decoding: data, as: UTF8.self)
                while let nl = pending.firstIndex(of: "\n") {
                    line(String(pending[..<nl]))
                    pending.removeSubrange(...nl)
                }
            }
            end()
        }
        thread.start()
        return thread
    }
}

/// Everything written to a pipe, read to its end on a thread of its own.
private final class PipeContents: Sendable {
    private let data = Mutex<Data?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread { [self] in
            let all = pipe.fileHandleForReading.readDataToEndOfFile()
            data.withLock { $0 = all }
            done.signal()
        }.start()
    }

    /// The contents, once the writer closed the pipe.
    func wait() -> Data {
        done.wait()
        return data.withLock { $0 ?? Data() }
    }
}
