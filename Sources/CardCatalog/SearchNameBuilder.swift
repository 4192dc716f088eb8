import GRDB

/// Rebuilds `search_name`: every text a card can be recognised by (its name, each face name, each
/// printed non-English name) with the card name it leads to and how many printings carry it. Only
/// game pieces are searchable (`Printing.isGamePiece`).
enum SearchNameBuilder {
    /// Kinds of searchable text.
    enum Kind: Int {
        case name = 0
        case face = 1
        case printed = 2
    }

    private struct Key: Hashable {
        let text: String
        let card: String
    }

    /// Leaves out printings that are no game piece (`Printing.isGamePiece`); returns how many.
    @discardableResult
    static func rebuild(_ db: Database) throws -> Int {
        var nonGame = 0
        var entries: [Key: (kind: Kind, lang: String, count: Int)] = [:]
        func add(_ text: String, _ card: String, _ kind: Kind, _ lang: String) {
            let key = Key(text: text, card: card)
            if let old = entries[key] {
                entries[key] = (old.kind.rawValue <= kind.rawValue ? old.kind : kind, old.lang, old.count + 1)
            } else {
                entries[key] = (kind, lang, 1)
            }
        }
        let cursor = try Row.fetchCursor(db, sql: "SELECT name, face_names, printed_name, lang, type_line, layout FROM printing")
        while let row = try cursor.next() {
            guard Printing.isGamePiece(typeLine: row[4], layout: row[5]) else {
                nonGame += 1
                continue
            }
            let name: String = row[0]
            let faces: String? = row[1]
            let printed: String? = row[2]
            let lang: String = row[3]
            add(name, name, .name, "en")
            if let faces {
                for face in faces.components(separatedBy: " // ") where !face.isEmpty && face != name { add(face, name, .face, "en") }
            }
            if let printed, printed != name, !printed.isEmpty {
                add(printed, name, .printed, lang)
                if printed.contains(" // ") {
                    for face in printed.components(separatedBy: " // ") where !face.isEmpty { add(face, name, .printed, lang) }
                }
            }
        }
        try db.execute(sql: "DELETE FROM search_name")
        let insert = try db.makeStatement(sql: "INSERT INTO search_name(text, card_name, kind, lang, printings) VALUES (?, ?, ?, ?, ?)")
        for (key, value) in entries {
            try insert.execute(arguments: [key.text, key.card, value.kind.rawValue, value.lang, value.count])
        }
        return nonGame
    }
}
