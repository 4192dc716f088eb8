import Foundation
import GRDB

/// The word index over everything a photo can show of a printing: name, type line, rules text,
/// flavor text, artist and the printed texts in other languages.
///
/// An SQLite FTS5 table without stored content (`printing_text`, rowid = the printing's rowid; the
/// texts themselves stay in `printing` and `foreign_text`), rebuilt whole at the end of each import,
/// plus an `fts5vocab` view of its vocabulary with each word's document count. Tokens are Unicode
/// letters and digits, lower-cased, accents removed (`unicode61 remove_diacritics 2`), which
/// `TextIndex.words(in:)` reproduces for the query side.
enum TextIndex {
    static let table = "printing_text"
    static let vocabulary = "printing_text_vocab"

    /// Words every card's frame prints around its texts (the artist credit, the copyright line),
    /// which tell no printing from another and would otherwise be read as look-alike card words.
    static let frameWords: Set<String> = ["illus", "wizards", "coast", "inc", "llc", "tm"]

    /// Indexed columns, in table order.
    static let fields: [TextField] = [.name, .typeLine, .rules, .flavor, .artist, .foreign]
    /// An FTS5 column filter: the columns of the printing's own texts, not its translations.
    static let ownColumns = "{name type_line rules flavor artist}"

    /// `Printing.isGamePiece` in SQL, for the rebuild.
    static let gamePiece = DatabaseFunction("cardscan_game_piece", argumentCount: 2, pure: true) { values in
        Printing.isGamePiece(typeLine: String.fromDatabaseValue(values[0]), layout: String.fromDatabaseValue(values[1]))
    }

    /// Drops and refills the index from `printing` and `foreign_text`, game pieces only (a
    /// printing left out is found by no text search).
    static func rebuild(_ db: Database) throws {
        // Installed on the import's own connection, which closes after it (removing it here is
        // refused while the session's statements are open); nothing stored refers to it.
        db.add(function: gamePiece)
        try db.execute(sql: """
            DROP TABLE IF EXISTS \(vocabulary);
            DROP TABLE IF EXISTS \(table);
            CREATE VIRTUAL TABLE \(table) USING fts5(name, type_line, rules, flavor, artist, translated,
                content='', tokenize='unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE \(vocabulary) USING fts5vocab(\(table), row);
            INSERT INTO \(table)(rowid, name, type_line, rules, flavor, artist, translated)
            SELECT p.rowid, p.name || coalesce(' ' || p.printed_name, ''),
                coalesce(p.type_line, '') || coalesce(' ' || p.printed_type_line, ''),
                coalesce(p.oracle_text, '') || coalesce(' ' || p.printed_text, ''),
                p.flavor_text, p.artist,
                (SELECT group_concat(coalesce(f.name, '') || ' ' || coalesce(f.type_line, '') || ' '
                    || coalesce(f.text, '') || ' ' || coalesce(f.flavor_text, ''), ' ')
                 FROM foreign_text f WHERE f.printing_id = p.id)
            FROM printing p WHERE cardscan_game_piece(p.type_line, p.layout);
            INSERT INTO \(table)(\(table)) VALUES ('optimize');
            """)
    }

    /// The words of `text` as the index tokenizes them: runs of letters and digits, lower-cased,
    /// accents removed.
    static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                // Most card text is ASCII: lower-case it without Foundation's folding.
                let v = scalar.value
                if (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) { current.append(scalar) }
                else if (0x41...0x5A).contains(v) { current.append(Unicode.Scalar(v + 32)!) }
                else { flush() }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                let folded = String(scalar).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
                for s in folded.unicodeScalars where s.properties.isAlphabetic || s.properties.numericType != nil {
                    current.append(s)
                }
            } else if !scalar.properties.isDiacritic {
                flush()
            }
        }
        flush()
        return words
    }
}

/// Where on a printing a word was found.
public enum TextField: String, Sendable, Hashable, Codable, CaseIterable {
    /// The card name (and the printed name of a non-English printing).
    case name
    /// The type line (Oracle and as printed).
    case typeLine = "type_line"
    /// The rules text (Oracle and as printed).
    case rules
    /// The flavor text.
    case flavor
    /// The artist credit.
    case artist
    /// The name, type line, rules and flavor text printed in another language.
    case foreign
}

/// One printing found by its words (`CardCatalog.searchText`).
public struct TextMatch: Sendable, Hashable {
    /// The printing.
    public var printing: Printing
    /// Share of the query's word weight found on this printing, 0…1: each query word weighs its
    /// rarity among all printings (inverse document frequency), so a rare word of the flavor text
    /// counts more than a common keyword. (A word known only from splitting a glued one,
    /// `TextVocabulary.split`, weighs in only where it is found.) Found in the printing's own
    /// texts, or in its translations with its artist, whichever holds more: not in a mix of both.
    public var score: Double
    /// FTS5 bm25 relevance (higher is better; it also weighs word frequency and text length; 0 for
    /// a printing found by the weight of the words its own texts hold); among equal scores, the
    /// higher first.
    public var relevance: Double
    /// The query words (as resolved against the index vocabulary) found on this printing, each with
    /// the fields it occurs in: those of the texts `score` counted (its own, or its translations
    /// with the artist).
    public var matchedWords: [String: Set<TextField>]
    /// The printing's name (a face's, of six letters or more) was read as words in a row among the
    /// query lines, and the printing's own rules text names it (`<name> becomes …`, as texts
    /// printed before 2024 refer to their card): the card named in its text. A card whose text
    /// only mentions another card's name (`If you control an <other name> …`) is not, nor one
    /// whose name is also one of its types.
    public var namesItself = false
}

/// What `CardCatalog.searchText` searched for and found.
public struct TextSearchResult: Sendable {
    /// Query words used (index spellings), heaviest first, with their weight: their rarity (inverse
    /// document frequency) times the certainty of the surest line they were read in (1 for plain text).
    public var words: [(word: String, weight: Double)]
    /// Query words read as a different index word (OCR damage), `read → index word`.
    public var corrected: [String: String]
    /// Query words left out: not a word of any printing, too short, or too common to tell printings apart.
    public var ignored: [String]
    /// Candidate printings, best first.
    public var matches: [TextMatch]
    /// Query words known only from splitting a glued word (`CardCatalog.searchText`): a guess,
    /// which counts for the printings that hold it and against none.
    public var guessed: Set<String> = []
}

/// The index vocabulary with document counts, loaded on the first text search, and the look-alike
/// spellings OCR produces for its words.
final class TextVocabulary: Sendable {
    let documentCount: Int
    /// Whether any printing's translations are indexed with it (MTGJSON's `foreignData`).
    let holdsTranslations: Bool
    private let counts: [String: Int]
    /// OCR skeleton (`OCRText.foldChar` on each character, `rn`→`m`, `vv`→`w`) → the commonest word with it.
    private let skeletons: [String: String]

    init(_ db: Database) throws {
        documentCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM printing") ?? 0
        holdsTranslations = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM foreign_text)") ?? false
        var counts: [String: Int] = [:]
        var skeletons: [String: (String, Int)] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT term, doc FROM \(TextIndex.vocabulary)")
        while let row = try rows.next() {
            let term: String = row[0]
            let doc: Int = row[1]
            counts[term] = doc
            guard term.count >= 4 else { continue }
            let key = Self.skeleton(term)
            if let current = skeletons[key], current.1 >= doc { continue }
            skeletons[key] = (term, doc)
        }
        self.counts = counts
        self.skeletons = skeletons.mapValues(\.0)
    }

    func count(_ word: String) -> Int? { counts[word] }

    /// The index word an OCR'd word most likely is: itself, a look-alike spelling (`rn`/`m`,
    /// `l`/`1`/`i`, `0`/`o`, ...), or, from five characters, the commonest word one character away
    /// (a letter dropped, added or misread).
    func resolve(_ word: String) -> String? {
        if counts[word] != nil { return word }
        guard word.count >= 4 else { return nil }
        if let known = skeletons[Self.skeleton(word)] { return known }
        guard word.count >= 5 else { return nil }
        let chars = Array(word)
        var best: (word: String, doc: Int)?
        func consider(_ candidate: [Character]) {
            let text = String(candidate)
            if let doc = counts[text], doc > (best?.doc ?? 0) { best = (text, doc) }
        }
        for i in chars.indices {
            var shorter = chars
            shorter.remove(at: i)
            consider(shorter)
            var changed = chars
            for letter in Self.letters where letter != chars[i] {
                changed[i] = letter
                consider(changed)
            }
        }
        for i in 0...chars.count {
            var longer = chars
            longer.insert(" ", at: i)
            for letter in Self.letters {
                longer[i] = letter
                consider(longer)
            }
        }
        return best?.word
    }

    private static let letters = Array("abcdefghijklmnopqrstuvwxyz")

    /// Glued words are split from this many characters (shorter ones are rarely several words).
    static let shortestGlued = 7

    /// A word read with the gaps between words lost (`andisaffected`), split into index words
    /// (`and`, `is`, `affected`): the split into the fewest words, every piece a word of some
    /// printing of two letters or more (or `a`), the commoner pieces breaking ties. Nil for a word
    /// shorter than `shortestGlued`, or that no such split covers (noise rarely is a run of whole
    /// words).
    func split(_ word: String) -> [String]? {
        let chars = Array(word)
        guard chars.count >= Self.shortestGlued else { return nil }
        // The best split of chars[..<end]: its pieces, the sum of their log document counts, and
        // where its last piece starts.
        var best = [(pieces: Int, commonness: Double, start: Int)?](repeating: nil, count: chars.count + 1)
        best[0] = (0, 0, 0)
        for end in 1...chars.count {
            for start in 0..<end {
                guard let before = best[start] else { continue }
                let piece = String(chars[start..<end])
                guard piece.count >= 2 || piece == "a", let doc = counts[piece] else { continue }
                let split = (pieces: before.pieces + 1, commonness: before.commonness + log(Double(doc)), start: start)
                if let current = best[end], (current.pieces, -current.commonness) <= (split.pieces, -split.commonness) { continue }
                best[end] = split
            }
        }
        guard let whole = best[chars.count], whole.pieces >= 2 else { return nil }
        var pieces: [String] = []
        var end = chars.count
        while end > 0, let last = best[end] {
            pieces.append(String(chars[last.start..<end]))
            end = last.start
        }
        return pieces.reversed()
    }

    static func skeleton(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(word.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if i + 1 < scalars.count {
                let pair = (s, scalars[i + 1])
                if pair == ("r", "n") { out.append("m"); i += 2; continue }
                if pair == ("v", "v") { out.append("w"); i += 2; continue }
            }
            out.append(OCRText.foldChar(s))
            i += 1
        }
        return String(out)
    }
}
