import CardCatalog
import CardMatcher
import CardReader
import Foundation

// Property names are the documented snake_case JSON keys, encoded by name.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// One JSON Lines record of `scan --json` / `identify --json`: a contract for scripts, with exactly
/// the keys documented in the README.
struct ScanRecord: Encodable {
    struct Card: Encodable {
        let id, name, set, collector_number, lang: String
        let rarity: String?
    }
    struct Extracted: Encodable {
        let title, set_code, collector_number: String?
        let set_size: Int?
        let rarity, language: String?
    }
    struct Candidate: Encodable {
        let id, name, set, collector_number: String
        let score: Double
    }
    struct Timings: Encodable {
        let decode, locate, ocr, match, total: Double
    }
    /// What was read beyond the fields, and what decided.
    struct Evidence: Encodable {
        struct Text: Encodable {
            let lines: Int
            let words: [String]
            let score: Double
            let copyright_year: Int?
            let text_name: String?
            let lead: Double
            let read_on: String

            private enum CodingKeys: String, CodingKey { case lines, words, score, copyright_year, text_name, lead, read_on }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(lines, forKey: .lines)
                try c.encode(words, forKey: .words)
                try c.encode(score, forKey: .score)
                try c.encode(copyright_year, forKey: .copyright_year) // null when not read
                try c.encode(text_name, forKey: .text_name) // null when the text found no card
                try c.encode(lead, forKey: .lead)
                try c.encode(read_on, forKey: .read_on)
            }
        }
        /// The matcher's rule (`exact`, `title-only`, `title+text`, `text`, `text+name`, `type-line`, …; `+date` when the
        /// capture day ruled printings out).
        let method: String
        /// The border colour measured (`white`, `black`), when it decided.
        let border: String?
        /// The card's printed words, when they were read and searched (null otherwise).
        let text: Text?

        private enum CodingKeys: String, CodingKey { case method, border, text }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(method, forKey: .method)
            try c.encode(border, forKey: .border)
            try c.encode(text, forKey: .text)
        }
    }

    let file: String
    let status: String
    let card: Card?
    let confidence: Double
    let extracted: Extracted
    let candidates: [Candidate]
    let quad: [[Double]]
    let error: String?
    let timings_ms: Timings
    let evidence: Evidence?

    private enum CodingKeys: String, CodingKey {
        case file, status, card, confidence, extracted, candidates, quad, error, timings_ms, evidence
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(status, forKey: .status)
        if let card { try c.encode(card, forKey: .card) } else { try c.encodeNil(forKey: .card) }
        try c.encode(confidence, forKey: .confidence)
        try c.encode(extracted, forKey: .extracted)
        try c.encode(candidates, forKey: .candidates)
        try c.encode(quad, forKey: .quad)
        if let error { try c.encode(error, forKey: .error) }
        try c.encode(timings_ms, forKey: .timings_ms)
        if let evidence { try c.encode(evidence, forKey: .evidence) }
    }

    init(file: String, reading: CardReading, match: MatchResult) {
        self.file = file
        status = match.status.rawValue
        card = match.card.map(Self.card)
        confidence = (match.confidence * 1000).rounded() / 1000
        let f = reading.fields
        extracted = Extracted(title: f.title?.value, set_code: f.setCode?.value, collector_number: f.collectorNumber?.value,
                              set_size: f.setSize?.value, rarity: f.rarity?.value, language: f.language?.value)
        candidates = match.candidates.map {
            Candidate(id: $0.printing.id, name: $0.printing.name, set: $0.printing.setCode,
                      collector_number: $0.printing.collectorNumber, score: ($0.score * 1000).rounded() / 1000)
        }
        quad = reading.quad?.normalized(width: reading.imageWidth, height: reading.imageHeight) ?? []
        error = nil
        let t = reading.timings
        timings_ms = Timings(decode: t.decode.rounded2, locate: t.locate.rounded2, ocr: t.ocr.rounded2, match: t.match.rounded2, total: t.total.rounded2)
        evidence = Evidence(method: match.method, border: f.borderColor?.value, text: match.text.map {
            Evidence.Text(lines: $0.lines, words: $0.words, score: ($0.score * 1000).rounded() / 1000, copyright_year: $0.copyrightYear,
                               text_name: $0.bestName, lead: ($0.lead * 1000).rounded() / 1000, read_on: $0.fromPhoto ? "photo" : "card")
        })
    }

    init(file: String, error: String, totalMilliseconds: Double) {
        self.file = file
        status = MatchStatus.error.rawValue
        card = nil
        confidence = 0
        extracted = Extracted(title: nil, set_code: nil, collector_number: nil, set_size: nil, rarity: nil, language: nil)
        candidates = []
        quad = []
        self.error = error
        timings_ms = Timings(decode: 0, locate: 0, ocr: 0, match: 0, total: totalMilliseconds.rounded2)
        evidence = nil
    }

    static func card(_ p: Printing) -> Card {
        Card(id: p.id, name: p.name, set: p.setCode, collector_number: p.collectorNumber, lang: p.language, rarity: p.rarity)
    }
}

extension Double {
    fileprivate var rounded2: Double { (self * 100).rounded() / 100 }
}
