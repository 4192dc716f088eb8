import Foundation

/// Renders `BenchResults` as the markdown tables printed on stdout.
public enum MarkdownReport {
    /// The whole report.
    public static func render(_ r: BenchResults) -> String {
        var out: [String] = []
        out.append("# cardscan benchmark — \(r.date)")
        out.append("")
        let m = r.machine
        out.append("Machine: \(m.nproc) cores, \(m.cpuModel ?? "unknown CPU"), \(m.memoryMiB.map { "\($0) MiB" } ?? "? MiB"), Linux \(m.kernel ?? "?"); commit \(m.gitCommit ?? "unknown"); OMP_THREAD_LIMIT \(m.ompThreadLimit ?? "unset").  ")
        out.append("Command: `\(r.commandLine.joined(separator: " "))`  ")
        let containers = r.input.containers.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        out.append("Input: \(r.input.photos) images (\(containers)) from `\(r.input.photoDirectory)`, labels `\(r.input.labelsFile ?? "none")` (\(r.input.labelFormat.rawValue), \(r.input.labelRows) rows, \(r.input.labelledPhotos) labelled images)\(r.input.limit.map { ", --limit \($0)" } ?? "").  ")
        out.append("Identification: \(r.identifier). Every card found in an image is read and identified, as `cardscan scan` does (stage times include them all). Accuracy counts images whose label has the field, on the first card read; a failed image counts as wrong; in a photo_multi image any card read may match any of its labels.")
        if r.matcher {
            out.append("")
            out.append("title / set / number / read set+number: the reader's fields. printing / name: the matcher's card, counted only when identified (ambiguous and unidentified count as wrong). identified and sent to review (ambiguous + unidentified): share of all images. Precision of identified: identified cards that are right / identified cards in images with a labelled name (every card of a photo_multi image); right = the name matches (front face of `A // B` accepted) and, when that label row has set and number, both match.")
        }
        out.append("")
        out += targets(r)
        for (dimension, title) in [("kind", "Accuracy by kind"), ("folder", "Accuracy by folder"), ("style", "Accuracy by style"), ("variant", "Accuracy by variant")] {
            guard let groups = r.accuracy[dimension] else { continue }
            out.append("## \(title)")
            out.append("")
            out += accuracyTable(dimension, groups, matcher: r.matcher)
            out.append("")
        }
        out += speed(r)
        out += throughput(r)
        out += severalCards(r)
        out += references(r)
        out += openMP(r)
        out += memory(r)
        out += catalog(r)
        out += errors(r)
        out.append("## Run")
        out.append("")
        let phases = r.phaseSeconds.sorted { $0.key < $1.key }.map { "\($0.key) \(f1($0.value)) s" }.joined(separator: ", ")
        out.append("Whole run \(f1(r.durationSeconds)) s (\(phases)).")
        return out.joined(separator: "\n")
    }

    // MARK: sections

    static func accuracyTable(_ dimension: String, _ groups: [AccuracyGroup], matcher: Bool) -> [String] {
        let fields: [AccuracyField] = [.title, .set, .number, .readPrinting, .printing, .name]
        var header = "| \(dimension) | images | errors | title | set | number | read set+number | printing | name"
        if matcher { header += " | identified | precision of identified | sent to review" }
        var lines = [header + " |", "|" + String(repeating: "---|", count: header.filter { $0 == "|" }.count)]
        for g in groups {
            var cells = ["\(g.group == "all" ? "**all**" : g.group)", "\(g.photos)", "\(g.errors)"]
            cells += fields.map { tally(g.fields[$0.rawValue]) }
            if matcher {
                cells.append(g.identifiedShare.map { "\(g.identified)/\(g.photos) (\(pct($0)))" } ?? "–")
                cells.append(g.precisionOfIdentified.map { "\(g.identifiedCorrect)/\(g.identifiedLabelled) (\(pct($0)))" } ?? "–")
                cells.append(g.shareSentToReview.map { "\(g.sentToReview)/\(g.photos) (\(pct($0)))" } ?? "–")
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines
    }

    static func targets(_ r: BenchResults) -> [String] {
        var lines = ["## Targets", "", "Measured in this run (\(r.identifier)).", "",
                     "| target | measured | how counted | target | met |", "|---|---|---|---|---|"]
        for t in r.targets {
            func value(_ v: Double) -> String {
                switch t.unit {
                case "share": return String(format: "%.1f%%", v * 100)
                case "ms": return String(format: "%.1f ms", v)
                default: return String(format: "%.2fx", v)
                }
            }
            let met = t.met.map { $0 ? "met" : "**not met**" } ?? "not measured"
            lines.append("| \(t.metric) | \(t.measured.map(value) ?? "–") | \(t.detail) | \(t.comparison == ">=" ? "≥" : "≤") \(value(t.target)) | \(met) |")
        }
        return lines + [""]
    }

    static func speed(_ r: BenchResults) -> [String] {
        let n = r.stages["total"]?.count ?? 0
        var lines = ["## Speed by stage", "", "Per image on 1 job, ms (\(n) images read; p90 is nearest-rank).", "",
                     "| stage | median | p90 | max |", "|---|---|---|---|"]
        for (key, label) in [("decode", "decode"), ("locate", "locate"), ("ocr", "OCR"), ("match", "match"), ("total", "**total**"),
                             ("harness", "harness wall (read + identify)")] {
            let s = r.stages[key]
            lines.append("| \(label) | \(f1(s?.median)) | \(f1(s?.p90)) | \(f1(s?.max)) |")
        }
        lines += ["", "| kind | images | total median | total p90 |", "|---|---|---|---|"]
        for (kind, s) in r.totalByKind.sorted(by: { $0.key < $1.key }) {
            lines.append("| \(kind) | \(s.count) | \(f0(s.median)) | \(f0(s.p90)) |")
        }
        return lines + [""]
    }

    static func throughput(_ r: BenchResults) -> [String] {
        var lines = ["## Throughput", "", "Each worker thread owns one CardReader; all take photos from one queue. Wall time starts once every reader is initialised.", "",
                     "| jobs | images | errors | wall s | images/s | reader init median ms |", "|---|---|---|---|---|---|"]
        for p in [r.throughput.singleJob] + (r.throughput.multiJob.map { [$0] } ?? []) {
            lines.append("| \(p.jobs) | \(p.photos) | \(p.errors) | \(f1(p.wallSeconds)) | \(f2(p.photosPerSecond)) | \(f0(p.readerInitMs.median)) |")
        }
        lines.append("")
        if let s = r.throughput.speedup { lines.append("Speed-up \(r.throughput.multiJob?.jobs ?? 0) jobs vs 1: \(f2(s))x.  ") }
        if let same = r.throughput.identicalReadings, let n = r.throughput.comparedReadings {
            lines.append("Readings identical in both passes: \(same)/\(n).")
        }
        return lines + [""]
    }

    static func severalCards(_ r: BenchResults) -> [String] {
        guard !r.severalCards.isEmpty else { return [] }
        var lines = ["## Several cards in one photo", "",
                     "Each photo of \(SeveralCards.minimumCards)+ labelled cards scanned as `cardscan scan` does, on one engine and on two sharing its cards (`--jobs 2`), and the single-card photos of its size on one engine, in alternating rounds; medians.", "",
                     "| photo | cards | size | 1 job ms | 2 jobs ms | speed-up | jobs run by the lent engine | single-card ms (photos) | cost in single-card photos | failed scans |",
                     "|---|---|---|---|---|---|---|---|---|---|"]
        for s in r.severalCards {
            lines.append("| \(s.file) | \(s.cards) | \(s.size) | \(f0(s.oneJobMs)) | \(f0(s.twoJobsMs)) | \(f2(s.speedup))x | \(s.lentJobs) | \(f0(s.singleCardMs)) (\(s.singleCardPhotos.count)) | \(f2(s.costRatio))x | \(s.failures)\(s.firstFailure.map { ": \($0)" } ?? "") |")
        }
        return lines + [""]
    }

    static func references(_ r: BenchResults) -> [String] {
        var lines = ["## References", ""]
        guard let refs = r.references else { return lines + ["Skipped (--no-references).", ""] }
        lines.append("Same images, same run, one process at a time. Ratio = cardscan / reference (below 1: cardscan is faster); cardscan figures are its 1-job total per image over the images both handled.")
        lines.append("")
        lines.append("| reference | images | failed | median ms | p90 ms | total s | cardscan median ms | ratio (medians) | ratio (totals) |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for c in [refs.tesseract, refs.tesseractOneThread, refs.djpeg].compactMap({ $0 }) {
            lines.append("| `\(c.command)` | \(c.ms.count) | \(c.failures) | \(f0(c.ms.median)) | \(f0(c.ms.p90)) | \(f1(c.ms.sum / 1000)) | \(f0(c.cardscanMs.median)) | \(f3(c.ratioMedian)) | \(f3(c.ratioTotal)) |")
        }
        lines.append("")
        lines.append("- Title in the tesseract CLI's output (case-insensitive substring): \(tally(refs.tesseractTitleFound)); cardscan's title on the same images: \(tally(refs.cardscanTitleOnSamePhotos)).")
        let excluded = refs.djpegExcluded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        lines.append("- djpeg ratio on JPEG images only (by magic bytes); excluded: \(excluded.isEmpty ? "none" : excluded). cardscan decode stage / djpeg (medians): \(f3(refs.decodeRatioMedian)).")
        lines.append("- Process spawn overhead (`true` through the same code): median \(f1(refs.spawnOverheadMs.median)) ms. \(refs.tesseractVersion ?? "tesseract not installed").")
        lines.append("- References pass took \(f1(refs.wallSeconds)) s.")
        return lines + [""]
    }

    static func openMP(_ r: BenchResults) -> [String] {
        var lines = ["## OpenMP", ""]
        guard let o = r.openMP else { return lines + ["Skipped.", ""] }
        lines.append("`TextRecognizer` in a child process, \(o.repeats) timed recognitions after one warm-up; fix on = default, fix off = `CARDSCAN_OPENMP=1`; OMP_THREAD_LIMIT unset in both.")
        lines.append("")
        lines.append("| work | size | fix on median ms | fix on p90 | fix off median ms | fix off p90 | off / on |")
        lines.append("|---|---|---|---|---|---|---|")
        let on = o.withFix, off = o.withoutFix
        func row(_ name: String, _ size: String, _ a: [Double]?, _ b: [Double]?) {
            let sa = a.map { SampleSummary($0) }, sb = b.map { SampleSummary($0) }
            lines.append("| \(name) | \(size) | \(f0(sa?.median)) | \(f0(sa?.p90)) | \(f0(sb?.median)) | \(f0(sb?.p90)) | \(f2(Stats.ratio(sb?.median, sa?.median))) |")
        }
        let m = on ?? off
        row("title region, PSM 7", m.map { "\($0.titleWidth)x\($0.titleHeight)" } ?? "?", on?.titleMs, off?.titleMs)
        row("whole photo, PSM 3", m.map { "\($0.photoWidth)x\($0.photoHeight) (\(f1(Double($0.photoWidth * $0.photoHeight) / 1e6)) MP)" } ?? "?", on?.photoMs, off?.photoMs)
        lines.append("")
        if let m {
            lines.append("- Title region: \(m.titleRegion); read \"\(m.titleText)\".  ")
            lines.append("- Photo: \(m.photo) (\(m.photoLines) lines read).")
        }
        if let e = o.error { lines.append("- Error: \(e)") }
        return lines + [""]
    }

    static func memory(_ r: BenchResults) -> [String] {
        let m = r.memory
        var lines = ["## Memory", "", "VmHWM from /proc/self/status is process-wide (all threads, all readers)\(m.peakResetWorked ? "; it was reset before each pass (clear_refs)" : "; it could not be reset, so figures are cumulative").", "",
                     "| what | peak resident MiB |", "|---|---|"]
        lines.append("| bench process, 1-job pass (1 reader) | \(mib(m.singleJobPeakKiB)) |")
        if let n = r.throughput.multiJob?.jobs { lines.append("| bench process, \(n)-job pass (\(n) readers) | \(mib(m.multiJobPeakKiB)) |") }
        if m.tesseractCLIPeakKiB != nil { lines.append("| largest tesseract CLI process | \(mib(m.tesseractCLIPeakKiB)) |") }
        lines.append("| bench process at the end (current RSS) | \(mib(m.finalRSSKiB)) |")
        return lines + [""]
    }

    static func catalog(_ r: BenchResults) -> [String] {
        var lines = ["## Catalog import", ""]
        let mc = r.matcherCatalog
        switch mc.mode {
        case "built":
            lines.append("Matcher catalog: built once for this run by one `CatalogImporter.importFiles` call over \(mc.files.map { "`\($0)`" }.joined(separator: " + ")) into a temporary file (removed afterwards), in the bench process before the reader passes: import \(f2(mc.importSeconds)) s, open \(f0(mc.openMs)) ms; \(mc.printings.map(String.init) ?? "?") printings, \(mc.sets.map(String.init) ?? "?") sets, \(mc.names.map(String.init) ?? "?") searchable names, \(mc.databaseBytes.map { f1(Double($0) / 1_048_576) } ?? "–") MiB database.")
        case "existing":
            lines.append("Matcher catalog: `\(mc.path ?? "?")` (--catalog), opened in \(f0(mc.openMs)) ms; \(mc.printings.map(String.init) ?? "?") printings, \(mc.sets.map(String.init) ?? "?") sets, \(mc.names.map(String.init) ?? "?") searchable names.")
        default:
            lines.append("Matcher catalog: none — \(mc.status ?? "title-only stand-in").")
        }
        lines.append("")
        if let t = mc.textLookup {
            if let status = t.status {
                lines += ["Full-text lookup: not measured (\(status)).", ""]
            } else {
                lines.append("Full-text lookup (`CardCatalog.searchText`) in the matcher catalog: \(t.queries) text boxes of \(t.lines) lines (type line, rules and flavor text of seeded random printings, each line with one or two OCR-like errors): median \(f1(t.medianMs)) ms, p90 \(f1(t.p90Ms)) ms, max \(f1(t.maxMs)) ms (target: median < 20 ms); the first search, loading the vocabulary, \(f0(t.firstMs)) ms. Right card first: \(pct(t.cardFirstRate)); the printing among the best-scored: \(pct(t.printingAmongBestRate)).")
                lines.append("")
            }
        }
        if let status = r.catalogImport.status { lines += ["Per-file import measurements: " + status + ".", ""] }
        guard !r.catalogImport.rows.isEmpty else { return lines }
        lines.append("`CatalogBenchmark.measureImport` into a fresh temporary catalog, one child process per file (clean peak memory).")
        lines.append("")
        lines += ["| source | records | printings | sets | names | import s | records/s | peak RSS MiB | database MiB | process s |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for row in r.catalogImport.rows {
            guard let m = row.measurement else {
                lines.append("| \(row.source) | failed: \(row.error ?? "?") | | | | | | | | \(f1(row.processSeconds)) |")
                continue
            }
            lines.append("| \(row.source) | \(m.records) | \(m.printings) | \(m.sets) | \(m.names) | \(f1(m.seconds)) | \(f0(m.recordsPerSecond)) | \(m.peakRSSBytes.map { f0(Double($0) / 1_048_576) } ?? "–") | \(m.databaseBytes.map { f1(Double($0) / 1_048_576) } ?? "–") | \(f1(row.processSeconds)) |")
        }
        return lines + [""]
    }

    static func errors(_ r: BenchResults) -> [String] {
        guard !r.errors.isEmpty else { return ["## Errors", "", "None.", ""] }
        var lines = ["## Errors", "", "\(r.errors.count) images could not be read (counted as wrong in accuracy):", ""]
        for e in r.errors { lines.append("- `\(e.file)`: \(e.error.replacingOccurrences(of: "\n", with: " "))") }
        return lines + [""]
    }

    // MARK: formatting

    static func tally(_ t: FieldTally?) -> String {
        guard let t, let rate = t.rate else { return "–" }
        return "\(t.correct)/\(t.total) (\(pct(rate)))"
    }
    static func pct(_ v: Double) -> String { String(format: "%.0f%%", v * 100) }
    static func ms(_ v: Double?) -> String { v.map { String(format: "%.0f ms", $0) } ?? "–" }
    static func f0(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "–" }
    static func f1(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "–" }
    static func f2(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
    static func f3(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "–" }
    static func mib(_ kib: Int?) -> String { kib.map { String(format: "%.0f", Double($0) / 1024) } ?? "–" }
}
