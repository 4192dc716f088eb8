import CardReader
import Foundation

/// Every figure of one benchmark run (written as JSON; the markdown report is rendered from it).
public struct BenchResults: Sendable, Codable {
    /// ISO 8601 start time.
    public var date: String
    /// The command line as typed.
    public var commandLine: [String]
    /// Machine, kernel, git commit, relevant environment.
    public var machine: MachineInfo
    /// Inputs of the run.
    public var input: InputSection
    /// Dimension (`kind`, `folder`, `style`, `variant`) → groups (first is `all`).
    public var accuracy: [String: [AccuracyGroup]]
    /// Name of the identification step (title-only stand-in or the matcher).
    public var identifier: String
    /// True when a real matcher produced the identifications.
    public var matcher: Bool
    /// Per-photo stage times on 1 job, ms: `decode`, `locate`, `ocr`, `match`, `total`, `harness`.
    public var stages: [String: SampleSummary]
    /// Total per-photo time by kind on 1 job, ms.
    public var totalByKind: [String: SampleSummary]
    /// Photos per second on 1 and N jobs.
    public var throughput: ThroughputSection
    /// The tesseract CLI and djpeg references (nil with `--no-references`).
    public var references: ReferencesSection?
    /// Issue 2's OpenMP micro-benchmark (nil when skipped).
    public var openMP: OpenMPSection?
    /// Peak resident memory.
    public var memory: MemorySection
    /// The catalog the matcher used (built once per run, or opened).
    public var matcherCatalog: MatcherCatalogSection
    /// HOOK: catalog import figures.
    public var catalogImport: CatalogImportSection
    /// Photos of many cards timed against single-card photos of their size (`SeveralCards`).
    public var severalCards: [SeveralCardsFigures]
    /// Project targets: measured value, target, met or not.
    public var targets: [TargetRow]
    /// Photos the reader failed on.
    public var errors: [ErrorRow]
    /// Wall time of each phase, s.
    public var phaseSeconds: [String: Double]
    /// Wall time of the whole run (until the report was written), s.
    public var durationSeconds: Double
    /// One row per photo.
    public var photos: [PhotoRow]
}

/// What was benchmarked.
public struct InputSection: Sendable, Codable {
    /// Photo folder as given.
    public var photoDirectory: String
    /// Labels file used (nil: none).
    public var labelsFile: String?
    /// Which format it had.
    public var labelFormat: LabelFormat
    /// Images benchmarked.
    public var photos: Int
    /// Label rows over those images.
    public var labelRows: Int
    /// Images with at least one labelled field.
    public var labelledPhotos: Int
    /// `--limit` when given.
    public var limit: Int?
    /// Images per container (from magic bytes).
    public var containers: [String: Int]
}

/// One pass over all photos.
public struct PassSummary: Sendable, Codable {
    /// Worker threads (each with its own reader).
    public var jobs: Int
    /// Photos in the pass.
    public var photos: Int
    /// Wall time after the readers were ready, s.
    public var wallSeconds: Double
    /// photos / wallSeconds.
    public var photosPerSecond: Double?
    /// Reader creation time per worker, ms.
    public var readerInitMs: SampleSummary
    /// Photos that failed.
    public var errors: Int

    init(_ run: PoolRun) {
        jobs = run.jobs
        photos = run.outcomes.count
        wallSeconds = run.wallSeconds
        photosPerSecond = run.photosPerSecond
        readerInitMs = SampleSummary(run.initMilliseconds)
        errors = run.outcomes.filter { $0.reading == nil }.count
    }
}

/// Throughput with 1 job and with N jobs.
public struct ThroughputSection: Sendable, Codable {
    /// The sequential pass (also the source of accuracy and stage times).
    public var singleJob: PassSummary
    /// The N-job pass (nil when N = 1).
    public var multiJob: PassSummary?
    /// multiJob / singleJob photos per second.
    public var speedup: Double?
    /// Photos whose fields were identical in both passes.
    public var identicalReadings: Int?
    /// Photos read successfully in both passes.
    public var comparedReadings: Int?
}

/// One reference tool compared with cardscan on the same photos.
public struct ReferenceComparison: Sendable, Codable {
    /// What ran.
    public var command: String
    /// Photos it ran on successfully.
    public var photos: Int
    /// Photos it failed on (non-zero exit).
    public var failures: Int
    /// Per-photo time, ms.
    public var ms: SampleSummary
    /// cardscan's total per photo on the same photos (those both handled), ms.
    public var cardscanMs: SampleSummary
    /// Median cardscan / median reference.
    public var ratioMedian: Double?
    /// Sum cardscan / sum reference.
    public var ratioTotal: Double?
}

/// The references section.
public struct ReferencesSection: Sendable, Codable {
    /// tesseract CLI version.
    public var tesseractVersion: String?
    /// `tesseract PHOTO -`, OMP_THREAD_LIMIT unset.
    public var tesseract: ReferenceComparison?
    /// The same with OMP_THREAD_LIMIT=1.
    public var tesseractOneThread: ReferenceComparison?
    /// Labelled photos whose CLI output contained the title.
    public var tesseractTitleFound: FieldTally
    /// cardscan's title accuracy on the same photos.
    public var cardscanTitleOnSamePhotos: FieldTally
    /// `djpeg -outfile /dev/null PHOTO` on JPEG photos.
    public var djpeg: ReferenceComparison?
    /// cardscan decode-stage median / djpeg median (same photos).
    public var decodeRatioMedian: Double?
    /// Photos left out of the djpeg ratio, per container.
    public var djpegExcluded: [String: Int]
    /// Launch-to-exit time of `/bin/true` through the same code, ms.
    public var spawnOverheadMs: SampleSummary
    /// Largest child resident set (the tesseract CLI), KiB.
    public var childPeakRSSKiB: Int?
    /// Wall time of the references pass, s.
    public var wallSeconds: Double
}

/// Peak resident memory (VmHWM is process-wide; it was reset before each pass when possible).
public struct MemorySection: Sendable, Codable {
    /// Peak during the 1-job pass, KiB.
    public var singleJobPeakKiB: Int?
    /// Peak during the N-job pass, KiB.
    public var multiJobPeakKiB: Int?
    /// Whether VmHWM could be reset between passes (else the figures are cumulative).
    public var peakResetWorked: Bool
    /// Largest child process (the tesseract CLI), KiB.
    public var tesseractCLIPeakKiB: Int?
    /// Resident set when the report was written, KiB.
    public var finalRSSKiB: Int?
}

/// A photo the reader failed on.
public struct ErrorRow: Sendable, Codable {
    /// File relative to the photo folder.
    public var file: String
    /// The error.
    public var error: String
}

/// Everything measured for one photo.
public struct PhotoRow: Sendable, Codable {
    public var file: String
    public var kind: String
    public var folder: String
    public var container: ImageContainer
    /// Label rows (name|set|number).
    public var labels: [String]
    public var readTitle: String?
    public var readSet: String?
    public var readNumber: String?
    public var identification: Identification?
    /// Field verdicts (absent = not labelled).
    public var correct: [String: Bool]
    /// Stage timings on 1 job, ms.
    public var timings: StageTimings?
    public var imageWidth: Int?
    public var imageHeight: Int?
    public var error: String?
    public var tesseractMs: Double?
    public var tesseractOneThreadMs: Double?
    public var tesseractTitleFound: Bool?
    public var djpegMs: Double?
}

/// Builds the summary sections from the raw passes.
enum Summaries {
    static func stages(_ outcomes: [PhotoOutcome]) -> [String: SampleSummary] {
        let t = outcomes.compactMap { $0.reading?.timings }
        return [
            "decode": SampleSummary(t.map(\.decode)), "locate": SampleSummary(t.map(\.locate)),
            "ocr": SampleSummary(t.map(\.ocr)), "match": SampleSummary(t.map(\.match)),
            "total": SampleSummary(t.map(\.total)),
            "harness": SampleSummary(outcomes.filter { $0.reading != nil }.map(\.wallMs)),
        ]
    }

    static func totalByKind(_ photos: [BenchPhoto], _ outcomes: [PhotoOutcome]) -> [String: SampleSummary] {
        var byKind: [String: [Double]] = [:]
        for (i, o) in outcomes.enumerated() { if let t = o.reading?.timings.total { byKind[photos[i].kind, default: []].append(t) } }
        return byKind.mapValues { SampleSummary($0) }
    }

    static func references(_ run: ReferenceRun, photos: [BenchPhoto], outcomes: [PhotoOutcome], scores: [PhotoScore]) -> ReferencesSection {
        func compare(_ command: String, _ value: (ReferencePhoto) -> Double?, attempted: (ReferencePhoto) -> Bool) -> ReferenceComparison? {
            let tried = run.photos.filter(attempted)
            guard !tried.isEmpty else { return nil }
            let ok = tried.filter { value($0) != nil }
            let both = ok.filter { outcomes[$0.index].reading != nil }
            let cardscan = SampleSummary(both.compactMap { outcomes[$0.index].reading?.timings.total })
            let refBoth = SampleSummary(both.compactMap(value))
            return ReferenceComparison(command: command, photos: ok.count, failures: tried.count - ok.count,
                                       ms: SampleSummary(ok.compactMap(value)), cardscanMs: cardscan,
                                       ratioMedian: Stats.ratio(cardscan.median, refBoth.median),
                                       ratioTotal: Stats.ratio(cardscan.sum, refBoth.sum))
        }
        let hasTesseract = run.tesseractPath != nil
        let tesseract = compare("tesseract PHOTO - (OMP_THREAD_LIMIT unset)", { $0.tesseractMs }, attempted: { _ in hasTesseract })
        let oneThread = compare("OMP_THREAD_LIMIT=1 tesseract PHOTO -", { $0.tesseractOneThreadMs }, attempted: { _ in hasTesseract })
        let djpeg = compare("djpeg -outfile /dev/null PHOTO", { $0.djpegMs }, attempted: { run.djpegPath != nil && $0.container == .jpeg })
        var found = FieldTally(), cardscanTitle = FieldTally()
        for r in run.photos {
            guard let f = r.tesseractTitleFound else { continue }
            found.total += 1
            if f { found.correct += 1 }
            if let ok = scores[r.index].fields[AccuracyField.title.rawValue] {
                cardscanTitle.total += 1
                if ok { cardscanTitle.correct += 1 }
            }
        }
        var excluded: [String: Int] = [:]
        for r in run.photos where r.container != .jpeg { excluded[r.container.rawValue, default: 0] += 1 }
        let djpegBoth = run.photos.filter { $0.djpegMs != nil && outcomes[$0.index].reading != nil }
        let decode = Stats.median(djpegBoth.compactMap { outcomes[$0.index].reading?.timings.decode })
        return ReferencesSection(tesseractVersion: run.tesseractVersion, tesseract: tesseract, tesseractOneThread: oneThread,
                                 tesseractTitleFound: found, cardscanTitleOnSamePhotos: cardscanTitle, djpeg: djpeg,
                                 decodeRatioMedian: Stats.ratio(decode, Stats.median(djpegBoth.compactMap(\.djpegMs))),
                                 djpegExcluded: excluded, spawnOverheadMs: run.spawnOverheadMs,
                                 childPeakRSSKiB: run.childPeakRSSKiB, wallSeconds: run.wallSeconds)
    }

    static func rows(_ photos: [BenchPhoto], _ outcomes: [PhotoOutcome], _ scores: [PhotoScore], _ refs: ReferenceRun?) -> [PhotoRow] {
        photos.enumerated().map { i, p in
            let o = outcomes[i], r = o.reading, ref = refs?.photos[i]
            return PhotoRow(file: p.file, kind: p.kind, folder: p.folder, container: ref?.container ?? ImageContainer.sniff(p.path),
                            labels: p.labels.map { "\($0.name)|\($0.set)|\($0.collectorNumber)" },
                            readTitle: r?.fields.title?.value, readSet: r?.fields.setCode?.value,
                            readNumber: r?.fields.collectorNumber?.value, identification: o.identification,
                            correct: scores[i].fields, timings: r?.timings, imageWidth: r?.imageWidth, imageHeight: r?.imageHeight,
                            error: o.error, tesseractMs: ref?.tesseractMs, tesseractOneThreadMs: ref?.tesseractOneThreadMs,
                            tesseractTitleFound: ref?.tesseractTitleFound, djpegMs: ref?.djpegMs)
        }
    }
}
