import CardScanOCR

/// Picks the fields out of what was read, by position (card coordinates, bottom-left origin) and
/// by pattern: the title is the most text-like line of the title band; the collector lines are the
/// lines of the bottom band, left part first.
struct FieldExtractor {
    /// Snaps a misread set code to a known one (from the caller's catalog), if given.
    var resolveSetCode: (@Sendable (_ code: String, _ printedSize: Int?) -> String?)? = nil

    func extract(_ observations: [CardObservation]) -> ExtractedFields {
        var fields = ExtractedFields()
        fields.title = title(from: observations.filter { $0.region == "title" })
        let bottom = observations.filter { $0.region != "title" }
            .sorted { ($0.observation.boundingBox.midY, -$0.observation.boundingBox.x) > ($1.observation.boundingBox.midY, -$1.observation.boundingBox.x) }
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
            let resolved = resolveSetCode?(c, parsed.setSize) ?? c
            let confidence = resolved == c ? setConfidence : setConfidence * 0.8
            fields.setCode = ExtractedField(value: resolved, confidence: confidence, sources: setSources)
        }
        if let l = parsed.language { fields.language = ExtractedField(value: l, confidence: setConfidence, sources: setSources) }
        fields.frameEra = parsed.era
        return fields
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
        return ExtractedField(value: best.1, confidence: best.2.observation.confidence, sources: [best.2.observation.text])
    }
}

/// Cleans an OCR'd title line: trims frame and mana-symbol debris at both ends.
public enum TitleCleaner {
    /// Drops leading/trailing characters and short tokens that cannot belong to a card name.
    /// With per-character confidences (one per non-space character), trailing and leading words
    /// read less surely than the line's typical character are dropped too: mana symbols read as
    /// letters ("Tower Geist Be") score a few points below the title's own letters.
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
