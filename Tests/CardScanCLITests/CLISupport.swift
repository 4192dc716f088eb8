import Foundation

/// Runs the built `cardscan` binary the way a script would. Every CLI test suite goes through it.
enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `cardscan` built with these tests: next to the test executable first (whatever the
    /// scratch path), then the default debug build folder.
    static let binary: URL = {
        let dirs = [Bundle.main.executableURL?.deletingLastPathComponent(),
                    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                    Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()].compactMap { $0 }
        let candidates = dirs.map { $0.appendingPathComponent("cardscan") } + [root.appendingPathComponent(".build/debug/cardscan")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// A configured, not yet started process: cwd = package root, environment + `environment`.
    static func process(_ args: [String], environment: [String: String] = [:]) -> Process {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        p.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        return p
    }

    /// Runs cardscan to completion; returns exit status, stdout and stderr (both pipes are drained
    /// at once so a chatty child cannot block on a full pipe).
    @discardableResult
    static func run(_ args: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = process(args, environment: environment)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !errData.done { usleep(1000) }
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: errData.get(), as: UTF8.self))
    }

    /// Starts a thread that reads `pipe` until end of file and calls `line` for each complete
    /// line as it arrives (tests that act while a child is still running), then `end`.
    @discardableResult
    static func readLines(_ pipe: Pipe, line: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void = {}) -> Thread {
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
