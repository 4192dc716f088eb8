import CardScanOCR

/// Picks the fields out of what was read, by position (card coordinates, bottom-left origin) and
/// by pattern: the title is the most text-like line of the title band; the collector lines are the
/// lines of the bottom band, left part first.
struct FieldExtractor {
    /// Snaps a misread set code to a known one (from the caller's catalog), if given.
    var resolveSetCode: (@Sendable (_ code: String, _ printedSize: Int?) -> String?)? = nil
    /// Snaps a damaged title to the card name it clearly is, if given.
    var resolveTitle: (@Sendable (_ title: String) -> String?)? = nil

    func extract(_ observations: [CardObservation]) -> ExtractedFields {
        var fields = ExtractedFields()
        fields.title = title(from: observations.filter { $0.region == .title })
        let bottom = Self.joinLines(observations.filter { $0.region == .collector || $0.region == .copyright })
        let parsed = CollectorLineParser.parse(lines: bottom.map(\.observation.text))
        func confidence(of source: String?) -> Double {
            bottom.first { $0.observation.text == source }?.observation.confidence ?? 0
        }
        let numberConfidence = confidence(of: parsed.numberSource)
        let setConfidence = confidence(of: parsed.setSource)
        let numberSources = parsed.numberSource.map { [$0] } ?? []
        let setSources = parsed.setSource.map { [$0] } ?? []
        if let n = parsed.number { fields.collectorNumber = ExtractedField(value: n, confidence: numberConfidence, sources: numberSources) }
        fields.printedNumber = parsed.printedNumber
        if let s = parsed.setSize { fields.setSize = ExtractedField(value: s, confidence: numberConfidence, sources: numberSources) }
        if let r = parsed.rarity { fields.rarity = ExtractedField(value: r, confidence: numberConfidence, sources: numberSources) }
        if let c = parsed.setCode {
            // A code as read is kept only when it is plausible on its own (3+ characters) or a
            // vocabulary completes it.
            // A two-character code needs the printed set size beside it to be completed.
            let resolvable = c.count >= 3 || parsed.setSize != nil
            let resolved = resolvable ? (resolveSetCode.map { $0(c, parsed.setSize) } ?? (c.count >= 3 ? c : nil)) : nil
            if let resolved {
                let confidence = resolved == c ? setConfidence : setConfidence * 0.8
                fields.setCode = ExtractedField(value: resolved, confidence: confidence, sources: setSources)
            }
        }
        // The language is read beside the set code: a code the vocabulary rejected was junk
        // ("ERTIES" gave "ES"), and so was its language.
        if let l = parsed.language, fields.setCode != nil {
            fields.language = ExtractedField(value: l, confidence: setConfidence, sources: setSources)
        }
        // The era stands on what was kept: a set code the vocabulary rejected says nothing.
        fields.frameEra = fields.collectorNumber == nil && fields.setCode == nil ? .unknown : parsed.era
        return fields
    }

    /// Observations on the same printed line (PSM 11 splits a line at wide gaps such as the lost
    /// bullet in `ORI • EN`) joined left to right, lines ordered top to bottom.
    static func joinLines(_ observations: [CardObservation]) -> [CardObservation] {
        var lines: [[CardObservation]] = []
        for o in observations.sorted(by: { $0.observation.boundingBox.midY > $1.observation.boundingBox.midY }) {
            let box = o.observation.boundingBox
            if let i = lines.firstIndex(where: { line in
                let ref = line[0].observation.boundingBox
                return abs(ref.midY - box.midY) < min(ref.height, box.height) * 0.5
            }) {
                lines[i].append(o)
            } else {
                lines.append([o])
            }
        }
        return lines.map { parts in
            let sorted = parts.sorted { $0.observation.boundingBox.x < $1.observation.boundingBox.x }
            guard sorted.count > 1 else { return sorted[0] }
            var joined = sorted[0]
            joined.observation.text = sorted.map(\.observation.text).joined(separator: " ")
            joined.observation.confidence = sorted.map(\.observation.confidence).min() ?? 0
            joined.observation.characterConfidences = sorted.flatMap(\.observation.characterConfidences)
            let minX = sorted.map(\.observation.boundingBox.x).min()!, maxX = sorted.map(\.observation.boundingBox.maxX).max()!
            joined.observation.boundingBox.x = minX
            joined.observation.boundingBox.width = maxX - minX
            return joined
        }
    }

    /// The title: the most confident, most letter-like, tallest line in the title band, cleaned.
    private func title(from observations: [CardObservation]) -> ExtractedField<String>? {
        let scored = observations.compactMap { o -> (Double, String, CardObservation)? in
            let cleaned = TitleCleaner.clean(o.observation.text, characterConfidences: o.observation.characterConfidences)
            guard cleaned.filter(\.isLetter).count >= 2 else { return nil }
            let letters = Double(cleaned.filter(\.isLetter).count) / Double(max(1, cleaned.count))
            let score = o.observation.confidence * letters * o.observation.boundingBox.height.squareRoot() * Double(cleaned.count).squareRoot()
            return (score, cleaned, o)
        }
        guard let best = scored.max(by: { $0.0 < $1.0 }) else { return nil }
        let named = resolveTitle.map { resolveTitle in Self.named(best.2.observation) { Self.resolve($0, with: resolveTitle) } }
        let (read, value) = named.map { ($0.read, $0.name) } ?? (best.1, nil)
        // sources[0]: the title as read (cleaned, before snapping); sources[1]: the raw line.
        return ExtractedField(value: value ?? read, confidence: best.2.observation.confidence, sources: [read, best.2.observation.text])
    }
}

extension FieldExtractor {
    /// Letters a title line needs before its words the cleaning dropped are given back to it.
    static let wholeLineLetters = 8

    /// The title `line` reads (`TitleCleaner.clean` with its characters' confidences) and the
    /// card name `resolve` gives it. The cleaning drops end words read less surely than the
    /// line, and a title's own first or last word is often read less surely too (a pale or
    /// small title: a word's letters at 0.92–0.97 after the line's at 0.99): when what is left
    /// names no card, the line trimmed of debris alone may, if it is long enough to be a name
    /// rather than chance (`wholeLineLetters`); it is then the title read (`wholeLine`).
    static func named(_ line: TextObservation, by resolve: (String) -> String?) -> (read: String, name: String?, wholeLine: Bool) {
        let cleaned = TitleCleaner.clean(line.text, characterConfidences: line.characterConfidences)
        if let name = resolve(cleaned) { return (cleaned, name, false) }
        let whole = TitleCleaner.clean(line.text)
        if whole != cleaned, whole.filter(\.isLetter).count >= wholeLineLetters, let name = resolve(whole) { return (whole, name, true) }
        return (cleaned, nil, false)
    }

    /// The card name a title read stands for: the whole line, else the longest run of its words
    /// (up to three dropped at either end) that the vocabulary knows and that holds at least 60%
    /// of the line's letters (a name followed by mana symbols read as short words).
    static func resolve(_ title: String, with resolveTitle: (String) -> String?) -> String? {
        if let name = resolveTitle(title) { return name }
        let words = title.split(separator: " ").map(String.init)
        let letters = { (ws: ArraySlice<String>) in ws.reduce(0) { $0 + $1.filter(\.isLetter).count } }
        let total = letters(words[...])
        guard words.count > 1, total > 0 else { return nil }
        var spans: [Range<Int>] = []
        for start in 0...min(3, words.count - 1) {
            for end in stride(from: words.count, to: start, by: -1) where words.count - end <= 3 && end - start < words.count {
                spans.append(start..<end)
            }
        }
        for span in spans.sorted(by: { letters(words[$0]) > letters(words[$1]) }) {
            let kept = letters(words[span])
            guard Double(kept) >= 0.6 * Double(total), kept >= 4 else { break }
            if let name = resolveTitle(words[span].joined(separator: " ")) { return name }
        }
        return nil
    }
}

/// Cleans an OCR'd title line: trims frame and mana-symbol debris at both ends.
public enum TitleCleaner {
    /// Drops leading/trailing characters and short tokens that cannot belong to a card name.
    /// With per-character confidences (one per non-space character), trailing and leading words
    /// read less surely than the line's typical character are dropped too: mana symbols read as
    /// letters after a name score a few points below the title's own letters.
    public static func clean(_ raw: String, characterConfidences: [Double] = []) -> String {
        var words = raw.split(separator: " ").map(String.init)
        let letters = words.reduce(0) { $0 + $1.count }
        if letters == characterConfidences.count, words.count > 1 {
            var offset = 0
            var means: [Double] = []
            for w in words {
                let slice = characterConfidences[offset..<(offset + w.count)]
                means.append(slice.reduce(0, +) / Double(max(1, slice.count)))
                offset += w.count
            }
            let sorted = characterConfidences.sorted()
            let typical = sorted[sorted.count / 2]
            while words.count > 1, let last = means.last, last < typical - 0.03 { words.removeLast(); means.removeLast() }
            while words.count > 1, let first = means.first, first < typical - 0.03 { words.removeFirst(); means.removeFirst() }
        }
        func junk(_ w: String) -> Bool {
            let letters = w.filter(\.isLetter).count
            if letters == 0 { return true }
            // A mana symbol read as text at an end (`(2)f`, `{B}`, `2B`): a letter or two with
            // brackets or digits. (A bracket glued to a word, `(Sandstone`, is a frame edge.)
            if letters <= 2, w.contains(where: { "(){}[]".contains($0) || $0.isNumber }) { return true }
            // Single stray characters at the ends (frame edges read as "i", "l", "(") are dropped,
            // but real one-letter words inside a name are kept.
            return w.count <= 2 && letters <= 1 && !["a", "A", "of", "to", "in", "on", "Of", "In", "An", "an"].contains(w)
        }
        while let first = words.first, junk(first) { words.removeFirst() }
        while let last = words.last, junk(last) { words.removeLast() }
        let allowed: (Character) -> Bool = { $0.isLetter || $0.isNumber || "'’,-".contains($0) }
        let trimmed = words.joined(separator: " ")
            .replacingOccurrences(of: "’", with: "'")
        let inner = trimmed.drop { !$0.isLetter }.reversed().drop { !$0.isLetter }.reversed()
        return String(String(inner).filter { allowed($0) || $0 == " " })
    }
}
