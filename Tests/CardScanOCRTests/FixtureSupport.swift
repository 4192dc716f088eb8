import Foundation

/// Paths to the project's fixtures and the shared data, resolved from this file's location.
enum FixturePaths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let synthetic = packageRoot.appendingPathComponent("Fixtures/synthetic")
    static let sharedPhotos = packageRoot.appendingPathComponent("../shared/photos").standardizedFileURL

    /// Rows of `Fixtures/synthetic/truth.csv` as dictionaries (simple CSV: no quoted commas in used columns).
    static func truthRows() throws -> [[String: String]] {
        let text = try String(contentsOf: synthetic.appendingPathComponent("truth.csv"), encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = parseCSVLine(lines.removeFirst())
        return lines.map { line in
            let cells = parseCSVLine(line)
            var row: [String: String] = [:]
            for (i, key) in header.enumerated() { row[key] = i < cells.count ? cells[i] : "" }
            return row
        }
    }

    /// Splits one CSV line, honouring double quotes.
    static func parseCSVLine(_ line: String) -> [String] {
        var cells: [String] = [], cell = "", quoted = false
        var iterator = line.makeIterator()
        while let c = iterator.next() {
            if c == "\"" { quoted.toggle() } else if c == ",", !quoted { cells.append(cell); cell = "" } else { cell.append(c) }
        }
        cells.append(cell)
        return cells
    }

    /// A scratch directory removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Resident memory of this process in bytes (Linux /proc).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kb * 1024
        }
        return 0
    }
}
