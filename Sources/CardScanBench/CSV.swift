import Foundation

/// A small RFC 4180 CSV reader: quoted fields, doubled quotes, commas and newlines inside quotes,
/// CRLF or LF line ends, an optional UTF-8 BOM.
enum CSV {
    /// Parses `text` into rows of fields; blank lines are dropped.
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var chars = Array(text.unicodeScalars)
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        var i = 0
        func endRow() {
            row.append(field)
            field = ""
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
            row = []
        }
        while i < chars.count {
            let c = chars[i]
            if inQuotes {
                if c == "\"" {
                    if i + 1 < chars.count, chars[i + 1] == "\"" { field.unicodeScalars.append("\""); i += 1 } else { inQuotes = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else {
                switch c {
                case "\"": inQuotes = true
                case ",": row.append(field); field = ""
                case "\r": if i + 1 < chars.count, chars[i + 1] == "\n" { i += 1 }; endRow()
                case "\n": endRow()
                default: field.unicodeScalars.append(c)
                }
            }
            i += 1
        }
        if !field.isEmpty || !row.isEmpty { endRow() }
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
