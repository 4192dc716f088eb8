import Foundation

/// One project target checked against this run's measurements.
public struct TargetRow: Sendable, Codable {
    /// Stable key (`printing_photo_single_with_number`, …).
    public var key: String
    /// What is measured.
    public var metric: String
    /// The measured value (a share 0…1, or a ratio); nil when not measured in this run.
    public var measured: Double?
    /// How it was counted (`29/31`, `2 jobs`, …).
    public var detail: String
    /// `>=` or `<=`.
    public var comparison: String
    /// The target value (same unit as `measured`).
    public var target: Double
    /// `share` or `ratio` (how to print the values).
    public var unit: String
    /// measured ⋈ target (nil when not measured).
    public var met: Bool?
}

/// Computes the targets from the run's sections.
enum Targets {
    static func compute(photos: [BenchPhoto], scores: [PhotoScore], accuracy: [String: [AccuracyGroup]],
                        throughput: ThroughputSection, references: ReferencesSection?, identifier: String,
                        textLookup: TextLookupFigures? = nil, severalCards: [SeveralCardsFigures] = []) -> [TargetRow] {
        var rows: [TargetRow] = []
        func add(_ key: String, _ metric: String, _ measured: Double?, _ detail: String, _ comparison: String, _ target: Double, _ unit: String) {
            let met = measured.map { comparison == ">=" ? $0 >= target : $0 <= target }
            rows.append(TargetRow(key: key, metric: metric, measured: measured, detail: detail, comparison: comparison,
                                  target: target, unit: unit, met: met))
        }
        func tallyText(_ correct: Int, _ total: Int) -> String { total > 0 ? "\(correct)/\(total)" : "no labelled images" }

        // Printing accuracy on photo_single images whose label has a collector number.
        var printing = FieldTally()
        for (i, p) in photos.enumerated() where p.kind == "photo_single" && p.labels.contains(where: { !$0.collectorNumber.isEmpty }) {
            guard let ok = scores[i].fields[AccuracyField.printing.rawValue] else { continue }
            printing.total += 1
            if ok { printing.correct += 1 }
        }
        add("printing_photo_single_with_number", "printing accuracy, photo_single with a number", printing.rate,
            tallyText(printing.correct, printing.total), ">=", 0.95, "share")

        let kinds = accuracy["kind"] ?? []
        for (kind, target) in [("photo_single", 0.97), ("scan", 0.85)] {
            let t = kinds.first { $0.group == kind }?.fields[AccuracyField.name.rawValue]
            add("name_\(kind)", "name accuracy, \(kind)", t?.rate, tallyText(t?.correct ?? 0, t?.total ?? 0), ">=", target, "share")
        }

        let all = kinds.first { $0.group == "all" } ?? accuracy.values.first?.first
        if let all, all.identified > 0 || all.sentToReview > 0 {
            add("precision_of_identified", "precision of identified (all images)", all.precisionOfIdentified,
                all.identifiedLabelled > 0 ? "\(all.identifiedCorrect)/\(all.identifiedLabelled)" : "nothing identified with a label",
                ">=", 0.99, "share")
        } else {
            add("precision_of_identified", "precision of identified (all images)", nil, "no matcher (\(identifier))", ">=", 0.99, "share")
        }

        let jobs = throughput.multiJob?.jobs
        add("speedup_2_jobs", "throughput speed-up, 2 jobs vs 1", jobs == 2 ? throughput.speedup : nil,
            jobs.map { $0 == 2 ? "2 jobs vs 1" : "measured with \($0) jobs, not 2" } ?? "no multi-job pass", ">=", 1.8, "ratio")

        let djpeg = references?.djpeg
        add("reader_median_vs_djpeg", "cardscan median per image / djpeg median (JPEG images)", djpeg?.ratioMedian,
            djpeg.map { "\(f0($0.cardscanMs.median)) ms / \(f0($0.ms.median)) ms over \($0.ms.count) JPEGs" } ?? "no djpeg reference",
            "<=", 3.0, "ratio")

        let tess = references?.tesseract
        let speed = tess?.ratioTotal.flatMap { $0 > 0 ? 1 / $0 : nil }
        add("tesseract_cli_total_vs_cardscan", "tesseract CLI total / cardscan total (how many times faster)", speed,
            tess.map { "\(f1($0.ms.sum / 1000)) s / \(f1($0.cardscanMs.sum / 1000)) s over \($0.ms.count) images" } ?? "no tesseract reference",
            ">=", 5.0, "ratio")
        // The same comparison as a user meets it: the CLI's OpenMP threads use every core, and so
        // does `cardscan scan` with one reader per core (its N-job pass).
        let multi = throughput.multiJob
        let parallel = tess.flatMap { t in multi.flatMap { $0.wallSeconds > 0 && $0.photos == t.ms.count ? t.ms.sum / 1000 / $0.wallSeconds : nil } }
        add("tesseract_cli_total_vs_cardscan_all_cores", "tesseract CLI total / cardscan N-job wall (both on every core)", parallel,
            tess.flatMap { t in multi.map { "\(f1(t.ms.sum / 1000)) s / \(f1($0.wallSeconds)) s, \($0.jobs) jobs" } } ?? "no tesseract reference or no N-job pass",
            ">=", 5.0, "ratio")

        // Issue 21: full-text lookup of a 10-line text box among all printings of the matcher catalog.
        let text = textLookup.flatMap { $0.status == nil ? $0 : nil }
        add("text_lookup_median_ms", "full-text lookup of a \(textLookup?.lines ?? 10)-line text box, median", text?.medianMs,
            text.map { "\($0.queries) damaged text boxes, p90 \(f1($0.p90Ms)) ms" } ?? "not measured (\(textLookup?.status ?? "no matcher catalog"))",
            "<=", 20, "ms")

        // Issue 23: a photo of many cards (the worst of those timed) against single-card photos of its size.
        let costly = severalCards.filter { $0.costRatio != nil }.max { $0.costRatio! < $1.costRatio! }
        add("several_cards_cost_vs_single", "a photo of \(SeveralCards.minimumCards)+ cards / a single-card photo of its size, 1 job",
            costly?.costRatio,
            costly.map { "\($0.file): \(f0($0.oneJobMs)) ms / \(f0($0.singleCardMs)) ms (median of \($0.singleCardPhotos.count) photos), \($0.rounds) rounds" }
                ?? "no photo of \(SeveralCards.minimumCards)+ cards with single-card photos of its size",
            "<=", 5, "ratio")
        let slowest = severalCards.filter { $0.speedup != nil }.min { $0.speedup! < $1.speedup! }
        add("several_cards_speedup_2_jobs", "a photo of \(SeveralCards.minimumCards)+ cards, 2 jobs vs 1", slowest?.speedup,
            slowest.map { "\($0.file): \(f0($0.oneJobMs)) ms / \(f0($0.twoJobsMs)) ms" } ?? "not timed",
            ">=", 1.7, "ratio")
        return rows
    }

    private static func f0(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "–" }
    private static func f1(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "–" }
}
