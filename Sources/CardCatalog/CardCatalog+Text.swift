import Foundation
import GRDB

extension CardCatalog {
    /// True when the catalog keeps card texts and their word index (built by this cardscan or later).
    public var hasTextIndex: Bool { schemaVersion >= CatalogSchema.textVersion }

    /// Finds printings by the words printed on them: OCR'd lines of the type line, rules text,
    /// flavor text, artist credit, in any order and with misread words.
    ///
    /// Each word of `text` is looked up in the index vocabulary (or read as the index word it looks
    /// like: `rn`/`m`, `l`/`1`/`i`, one stray character; or split into the index words it glues
    /// together, `TextVocabulary.split`); words of no printing, words under three
    /// characters and words on more than `maxWordShare` of all printings are left out, and the
    /// rarest `maxWords` remaining words make the query. Its words on at most `searchShare` of the
    /// printings (the rarest `searchWords` of them) are searched together in the index (any may
    /// match: a misread word costs one word, not the search); the best `candidates` printings by
    /// bm25, at most `candidatesPerName` of one name (and, in a catalog holding translations, a
    /// fifth as many more holding most of those words' weight in their own texts) are then scored
    /// on all the query's words by the share of its word weight their own texts hold, or their
    /// translations, whichever is more; the best `limit` are returned. (Searching the common words
    /// too would score tens of thousands of printings for little gain.)
    ///
    /// Throws `CatalogError.needsImport` on a catalog built before card texts were kept.
    public func searchText(_ text: String, limit: Int = 20, candidates: Int = 100, maxWords: Int = 32,
                           maxWordShare: Double = 0.2, searchWords: Int = 12,
                           searchShare: Double = 0.03) throws -> TextSearchResult {
        try searchText(lines: [(text, 1)], limit: limit, candidates: candidates, maxWords: maxWords,
                       maxWordShare: maxWordShare, searchWords: searchWords, searchShare: searchShare)
    }

    /// Text search candidates of one name at most (`searchText`): enough for the printings whose
    /// flavor text or artist tells them apart to be among them (the matcher then looks up every
    /// printing of the name it settles on).
    static let candidatesPerName = 8
    /// Rows ranked by bm25 per candidate place: room for the rows skipped as a name's beyond
    /// `candidatesPerName`.
    static let rankedRowsPerCandidate = 4

    /// The fewest letters of a name that, read in a row in a card's text, say which card it is
    /// (`TextMatch.namesItself`): a short name is also a word of many other cards' texts.
    static let selfNamingLetters = 6

    /// `searchText(_:)` on lines read with a certainty each (0…1, the OCR engine's confidence): a
    /// word weighs its rarity times the certainty of the surest line it was read in. A line of
    /// noise (Tesseract's reading of art or a shadow, at 0.2–0.4) then dilutes the score of a
    /// card whose rules text was read surely (0.8–0.95) a little, not as much as that text.
    public func searchText(lines: [(text: String, certainty: Double)], limit: Int = 20, candidates: Int = 100, maxWords: Int = 32,
                           maxWordShare: Double = 0.2, searchWords: Int = 12,
                           searchShare: Double = 0.03) throws -> TextSearchResult {
        guard hasTextIndex else {
            throw CatalogError.needsImport(path: url.path, reason: "built before card texts were kept (catalog schema \(schemaVersion)), so it cannot search by rules or flavor text")
        }
        let vocabulary = try loadedTextVocabulary()

        // Resolve the query's words against the vocabulary.
        var used: [(word: String, weight: Double, rarity: Double)] = []
        var corrected: [String: String] = [:]
        var ignored: [String] = []
        var seen = Set<String>()
        let total = Double(max(vocabulary.documentCount, 1))
        // A word that is no index word nor like one may be several glued together (Tesseract loses
        // the narrow word gaps of some frames' type: `Ifaspelldestroysone`): its words instead.
        // They are a guess (noise splits too: `baricheld` into `bar`, `ich`, `eld`), so a word
        // known only from a split counts for the printings that hold it and against none.
        var split = Set<String>(), whole = Set<String>()
        var certainty: [String: Double] = [:]
        let read = lines.flatMap { line -> [String] in
            let sure = min(1, max(0, line.certainty))
            return TextIndex.words(in: line.text).flatMap { word -> [String] in
                guard vocabulary.resolve(word) == nil, let pieces = vocabulary.split(word) else {
                    whole.insert(word)
                    certainty[word] = max(certainty[word] ?? 0, sure)
                    return [word]
                }
                split.formUnion(pieces)
                for piece in pieces { certainty[piece] = max(certainty[piece] ?? 0, sure) }
                return pieces
            }
        }
        let guessed = split.subtracting(whole)
        for word in read where seen.insert(word).inserted {
            guard word.count >= 3, !TextIndex.frameWords.contains(word), word.contains(where: \.isLetter), let term = vocabulary.resolve(word),
                  let doc = vocabulary.count(term), Double(doc) <= total * maxWordShare else {
                ignored.append(word)
                continue
            }
            if term != word { corrected[word] = term }
            let sure = certainty[word] ?? 1
            if let known = used.firstIndex(where: { $0.word == term }) {
                used[known].weight = max(used[known].weight, used[known].rarity * sure)
                continue
            }
            let rarity = log(total / Double(doc))
            used.append((term, rarity * sure, rarity))
        }
        used.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.rarity > $1.rarity }
        if used.count > maxWords {
            ignored += used[maxWords...].map(\.word)
            used.removeLast(used.count - maxWords)
        }
        guard !used.isEmpty else { return TextSearchResult(words: [], corrected: corrected, ignored: ignored, matches: []) }

        let rare = used.filter { log(total) - $0.rarity <= log(total * searchShare) }
        let searched = rare.isEmpty ? Array(used.prefix(4)) : Array(rare.prefix(searchWords))
        let expression = searched.map { "\"\($0.word)\"" }.joined(separator: " OR ")
        let weights = TextIndex.fields.map { $0 == .name ? "2.0" : "1.0" }.joined(separator: ", ")
        let weightOf = Dictionary(used.map { ($0.word, $0.weight) }, uniquingKeysWith: { a, _ in a })
        let totalWeight = used.reduce(0) { guessed.contains($1.word) ? $0 : $0 + $1.weight }

        let (found, printings, foreign) = try queue.read { db -> ([(Int64, Double)], [Int64: Printing], [String: [String]]) in
            // At most `candidatesPerName` printings of one name: reprints share their words, and
            // a name printed hundreds of times (a basic land, a staple) would fill every candidate
            // place, leaving out the other names that hold the same words, so that the best name
            // would seem to lead them all. The best rows by bm25 are ranked a few times over; only
            // when one name fills even those are all the rows ranked within each name (slower).
            let ranked = candidates * Self.rankedRowsPerCandidate
            let scored = """
                SELECT rowid AS hit, -bm25(\(TextIndex.table), \(weights)) AS relevance FROM \(TextIndex.table)
                WHERE \(TextIndex.table) MATCH ?
                """
            let ranking = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT hit, relevance, p.name FROM (\(scored) ORDER BY relevance DESC LIMIT ?)
                JOIN printing p ON p.rowid = hit ORDER BY relevance DESC
                """), arguments: [expression, ranked]).map { (row: Row) -> (Int64, Double, String) in (row[0], row[1], row[2]) }
            var perName: [String: Int] = [:]
            var hits = ranking.filter { hit in
                perName[hit.2, default: 0] += 1
                return perName[hit.2]! <= Self.candidatesPerName
            }.map { ($0.0, $0.1) }
            if hits.count < candidates && ranking.count == ranked {
                hits = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT hit, relevance FROM (
                        SELECT hit, relevance, row_number() OVER (PARTITION BY p.name ORDER BY relevance DESC) AS rank
                        FROM (\(scored)) JOIN printing p ON p.rowid = hit)
                    WHERE rank <= ? ORDER BY relevance DESC LIMIT ?
                    """), arguments: [expression, Self.candidatesPerName, candidates]).map { (row: Row) -> (Int64, Double) in (row[0], row[1]) }
            }
            hits = Array(hits.prefix(candidates))
            // bm25 weighs a text's length: a printing whose translations are indexed with it
            // (MTGJSON's `foreignData`) is ten times as long, and falls behind hundreds of shorter
            // texts holding fewer of the words. In a catalog holding translations, the printings
            // whose own texts hold most of the rare words' weight are candidates too (a fifth as
            // many: each costs its scoring; none when no word is rare, as common words would
            // fetch tens of thousands of rows).
            var held: [Int64: Double] = [:]
            if vocabulary.holdsTranslations && !rare.isEmpty {
                let lookup = try db.cachedStatement(sql: "SELECT rowid FROM \(TextIndex.table) WHERE \(TextIndex.table) MATCH ?")
                for word in searched {
                    for rowid in try Int64.fetchAll(lookup, arguments: ["\(TextIndex.ownColumns) : \"\(word.word)\""]) { held[rowid, default: 0] += word.weight }
                }
            }
            let picked = Set(hits.map(\.0))
            hits += held.filter { !picked.contains($0.key) }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(max(1, candidates / 5)).map { ($0.key, 0) }
            guard !hits.isEmpty else { return ([], [:], [:]) }
            let ids = hits.map { String($0.0) }.joined(separator: ",")
            var printings: [Int64: Printing] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rowid AS text_rowid, * FROM printing WHERE rowid IN (\(ids))") {
                printings[row["text_rowid"]] = Printing(row: row)
            }
            var foreign: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT printing_id, name, type_line, text, flavor_text FROM foreign_text
                WHERE printing_id IN (SELECT id FROM printing WHERE rowid IN (\(ids)))
                """) {
                let parts: [String?] = [row[1], row[2], row[3], row[4]]
                foreign[row[0], default: []].append(parts.compactMap { $0 }.joined(separator: " "))
            }
            return (hits, printings, foreign)
        }

        // Each text's words as the index spells them, in order (texts shared by reprints tokenized
        // once): which query words each candidate holds, and where; and names read in a row.
        var tokenCache: [String: (words: Set<String>, inRow: String)] = [:]
        func tokens(_ text: String) -> (words: Set<String>, inRow: String) {
            if let cached = tokenCache[text] { return cached }
            let words = TextIndex.words(in: text)
            let made = (Set(words).intersection(weightOf.keys), " " + words.joined(separator: " ") + " ")
            tokenCache[text] = made
            return made
        }
        func wordsOf(_ text: String?) -> Set<String> {
            guard let text, !text.isEmpty else { return [] }
            return tokens(text).words
        }
        // The lines' words in reading order, each read as the index word it looks like.
        let readInRow = " " + read.map { $0.count >= 4 ? vocabulary.resolve($0) ?? $0 : $0 }.joined(separator: " ") + " "
        func namesItself(_ p: Printing) -> Bool {
            p.name.components(separatedBy: " // ").contains { face in
                let name = tokens(face).inRow
                // (A name that is also one of the card's types is in texts as that type.)
                guard face.filter(\.isLetter).count >= Self.selfNamingLetters, readInRow.contains(name),
                      !tokens(p.typeLine ?? "").inRow.contains(name) else { return false }
                return [p.oracleText, p.printedText].contains { $0.map { tokens($0).inRow.contains(name) } ?? false }
            }
        }
        var matches: [TextMatch] = []
        for (rowid, relevance) in found {
            guard let p = printings[rowid] else { continue }
            let texts: [(TextField, [String?])] = [
                (.name, [p.name, p.printedName]), (.typeLine, [p.typeLine, p.printedTypeLine]),
                (.rules, [p.oracleText, p.printedText]), (.flavor, [p.flavorText]), (.artist, [p.artist]),
                (.foreign, foreign[p.id] ?? []),
            ]
            var all: [String: Set<TextField>] = [:]
            for (field, values) in texts {
                for value in values {
                    for word in wordsOf(value) { all[word, default: []].insert(field) }
                }
            }
            // A card is printed in one language: its words are those of its own texts, or those of
            // its translations (with the artist's name), whichever hold more of the query; not a
            // mix. (A word of a translation, `une`, read as noise beside English text is no evidence.)
            func score(_ matched: [String: Set<TextField>]) -> Double {
                // Summed in query order, so printings holding the same words get exactly the same score.
                let weight = used.reduce(0) { matched[$1.word] == nil ? $0 : $0 + $1.weight }
                let guessedHeld = used.reduce(0) { guessed.contains($1.word) && matched[$1.word] != nil ? $0 + $1.weight : $0 }
                let outOf = totalWeight + guessedHeld
                return outOf > 0 ? weight / outOf : 0
            }
            func only(_ keep: (Set<TextField>) -> Set<TextField>) -> [String: Set<TextField>] {
                all.compactMapValues { fields in
                    let kept = keep(fields)
                    return kept.isEmpty ? nil : kept
                }
            }
            let own = only { $0.subtracting([.foreign]) }, translated = only { $0.intersection([.foreign, .artist]) }
            let (ownScore, translatedScore) = (score(own), score(translated))
            let (matched, best) = translatedScore > ownScore ? (translated, translatedScore) : (own, ownScore)
            matches.append(TextMatch(printing: p, score: best, relevance: relevance, matchedWords: matched, namesItself: namesItself(p)))
        }
        matches.sort { ($0.score, $0.relevance) > ($1.score, $1.relevance) }
        return TextSearchResult(words: used.map { ($0.word, $0.weight) }, corrected: corrected, ignored: ignored, matches: Array(matches.prefix(limit)),
                                guessed: guessed)
    }
}

extension CardCatalog {
    /// The word index's vocabulary, read once.
    func loadedTextVocabulary() throws -> TextVocabulary {
        try textVocabulary.withLock { loaded in
            if let loaded { return loaded }
            let made = try queue.read { try TextVocabulary($0) }
            loaded = made
            return made
        }
    }

    /// The names printed with the type line a line was read as, word for word: one name for a
    /// type line no other card shares, many for a common one; each face of a double-faced card
    /// (`A // B`) is a type line of its own. The line's words of three letters or more are read
    /// as the index words they look like (as `searchText` reads them), but for the first, which
    /// may have lost its first letters at the band's edge (then the type line's first word must
    /// end as it was read). A line may have lost whole words at either end too, and what is left
    /// may be another card's whole type line: every name whose type line holds the words read, in
    /// that order, is among those returned, so that one name returned means no other card's type
    /// line reads so. Empty when no name is printed with the line whole; nil when a word is no
    /// word of the index (the line holds noise, or more than a type line), or when fewer than two
    /// whole words are left.
    public func names(printedWithTypeLine line: String) throws -> Set<String>? {
        guard hasTextIndex else { return nil }
        let vocabulary = try loadedTextVocabulary()
        let words = { (text: String) in TextIndex.words(in: text).filter { $0.count >= 3 } }
        var read = words(line)
        var cut: String?
        if let first = read.first, vocabulary.resolve(first) == nil {
            cut = first
            read.removeFirst()
        }
        var known: [String] = []
        for word in read {
            guard let resolved = vocabulary.resolve(word) else { return nil }
            known.append(resolved)
        }
        guard known.count >= 2 else { return nil }
        return try queue.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT DISTINCT p.name, p.type_line FROM \(TextIndex.table) JOIN printing p ON p.rowid = \(TextIndex.table).rowid
                WHERE \(TextIndex.table) MATCH ?
                """), arguments: ["type_line : \"\(known.joined(separator: " "))\""])
            var whole = Set<String>(), holding = Set<String>()
            for row in rows {
                let name: String = row[0]
                for face in ((row[1] as String?) ?? "").components(separatedBy: " // ") {
                    let printed = words(face)
                    for start in printed.indices where printed[start...].starts(with: known) {
                        // With the first word cut, the word before must end as it was read.
                        if let cut {
                            guard start > 0, printed[start - 1].count > cut.count, printed[start - 1].hasSuffix(cut) else { continue }
                        }
                        holding.insert(name)
                        if start == (cut == nil ? 0 : 1), start + known.count == printed.count { whole.insert(name) }
                    }
                }
            }
            return whole.isEmpty ? [] : holding
        }
    }

    /// The words of `text` (as the word index spells them) that are words of some printing's
    /// artist credit: what a card's credit line (`Illus. Dan Frazier`) can tell, without the
    /// scraps of art and frame a sparse read of that band also gives (`Seer`, `Bee`).
    public func artistWords(in text: String) throws -> [String] {
        let artists = try artistVocabulary.withLock { loaded in
            if let loaded { return loaded }
            let made = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT DISTINCT artist FROM printing WHERE artist IS NOT NULL")
                    .reduce(into: Set<String>()) { $0.formUnion(TextIndex.words(in: $1)) }
            }
            loaded = made
            return made
        }
        return TextIndex.words(in: text).filter { artists.contains($0) }
    }
}

extension CardCatalog {
    /// English paper printings with rules text, in rowid order (test and benchmark queries are drawn from them).
    public func printingsWithText() throws -> [Printing] {
        guard hasTextIndex else { return [] }
        return try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM printing WHERE oracle_text IS NOT NULL AND lang = 'en' AND coalesce(paper, 1) = 1
                ORDER BY rowid
                """).map(Printing.init(row:))
        }
    }
}
