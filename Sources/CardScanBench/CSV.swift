import CSV
import Foundation

/// Labels files read with CSV.swift (quoted fields, doubled quotes, commas and newlines inside
/// quotes, CRLF or LF line ends, an optional UTF-8 BOM).
enum LabelsCSV {
    /// Parses `text` into rows of fields; blank lines are dropped.
    static func parse(_ text: String) -> [[String]] {
        var text = Substring(text)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        guard let reader = try? CSVReader(string: String(text), hasHeaderRow: false) else { return [] }
        var rows: [[String]] = []
        while let row = reader.next() {
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
        }
        return rows
    }

    /// Parses a file with a header row into dictionaries keyed by the (trimmed, lower-cased) header.
    static func records(_ text: String) -> (header: [String], records: [[String: String]]) {
        let rows = parse(text)
        guard let first = rows.first else { return ([], []) }
        let header = first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let records = rows.dropFirst().map { fields in
            var record: [String: String] = [:]
            for (i, name) in header.enumerated() where i < fields.count {
                record[name] = fields[i].trimmingCharacters(in: .whitespaces)
            }
            return record
        }
        return (header, records)
    }
}
