import CardMatcher
import CardReader
import CardScanOCR
import CardScanTerminal
import Foundation

/// The benchmark behind `cardscan-bench`: accuracy, stage times, throughput, references, OpenMP,
/// memory. Every figure is measured in the run that reports it.
public enum Bench {
    /// Runs the whole benchmark, prints the markdown report on stdout, writes the JSON file and
    /// returns the results. Progress goes to stderr.
    /// - Throws: when the labels cannot be read or no reader can be created.
    @discardableResult
    public static func run(_ config: BenchConfiguration) throws -> BenchResults {
        let runStart = BenchClock.nanos
        let date = ISO8601DateFormatter().string(from: Date())
        let machine = Machine.info()
        var phases: [String: Double] = [:]

        // Inputs.
        let labelsFile = config.labelsFile ?? LabelLoader.defaultLabelsFile(in: config.photoDirectory)
        var format = LabelFormat.none
        var photos: [BenchPhoto]
        if let labelsFile {
            (format, photos) = try LabelLoader.load(labelsFile: labelsFile, photoFolder: config.photoDirectory)
        } else {
            photos = LabelLoader.scanFolder(config.photoDirectory)
        }
        if let limit = config.limit { photos = Array(photos.prefix(max(0, limit))) }
        let count = photos.count
        let jobs = max(1, config.jobs ?? machine.nproc)
        StandardError.line("cardscan-bench: \(photos.count) images from \(config.photoDirectory) (labels: \(labelsFile ?? "none")), \(jobs) jobs for throughput")

        // The matcher's catalog: built (or opened) once, shared by every worker's CardMatcher.
        var t = BenchClock.nanos
        let prepared = try MatcherCatalog.prepare(config.matcherCatalog)
        defer { prepared.cleanUp() }
        phases["matcherCatalog"] = BenchClock.ms(t, BenchClock.nanos) / 1000
        let identifier = prepared.catalog.map { catalog in
            IdentifierFactory.matcher(catalog: catalog, description: matcherDescription(prepared.section))
        } ?? config.identifier
        StandardError.line("cardscan-bench: identification by \(identifier.name)")
        // With a catalog the reader gets its vocabularies, as `cardscan identify` does.
        let readerOptions = prepared.catalog.map { config.readerOptions.withVocabularies(of: $0) } ?? config.readerOptions

        // Pass 1: one reader, sequential — accuracy and stage times come from here.
        let resetWorked = Machine.resetPeakRSS()
        t = BenchClock.nanos
        let single = try ReaderPool.run(photos: photos, jobs: 1, options: readerOptions, identifier: identifier) { photo, o, n in
            let what = o.reading.map { r in
                "\(MarkdownReport.ms(r.timings.total))  title=\(r.fields.title.map { "\"\($0.value)\"" } ?? "–") set=\(r.fields.setCode?.value ?? "–") number=\(r.fields.collectorNumber?.value ?? "–")"
            } ?? "ERROR \(o.error ?? "")"
            let verdict = o.identification.flatMap { id in
                id.status.map { status in "  → \(status)\(id.name.map { " \"\($0)\" \(id.setCode ?? "–") \(id.collectorNumber ?? "–")" } ?? "")" }
            } ?? ""
            StandardError.line("[1 job \(n)/\(count)] \(photo.file)  \(what)\(verdict)")
        }
        phases["readerSingleJob"] = BenchClock.ms(t, BenchClock.nanos) / 1000
        let singlePeak = Machine.peakRSSKiB()
        // The program's speed-up is a C hook a build can silently lose (a linker flag, a renamed
        // symbol): the figures of a run without it would not be the shipped program's.
        if config.requiresLineImageHook, single.outcomes.contains(where: { $0.reading != nil }), !TextRecognizer.storesLineImagesUncompressed {
            throw BenchError("the CPNGLevel hook is not active in this build (Tesseract's line images are deflated, ~7% slower); see Package.swift's exportPNGLevelHook")
        }

        // Pass 2: N readers over one queue — throughput.
        var multi: PoolRun?
        var multiPeak: Int?
        if jobs > 1 {
            Machine.resetPeakRSS()
            t = BenchClock.nanos
            multi = try ReaderPool.run(photos: photos, jobs: jobs, options: readerOptions, identifier: identifier) { photo, o, n in
                StandardError.line("[\(jobs) jobs \(n)/\(count)] \(photo.file)  \(o.reading.map { MarkdownReport.ms($0.timings.total) } ?? "ERROR")")
            }
            phases["readerMultiJob"] = BenchClock.ms(t, BenchClock.nanos) / 1000
            multiPeak = Machine.peakRSSKiB()
        }

        // A photo of many cards against single-card photos of its size, on one engine and two.
        var severalCards: [SeveralCardsFigures] = []
        if let catalog = prepared.catalog {
            t = BenchClock.nanos
            do {
                severalCards = try SeveralCards.run(photos, single.outcomes, catalog: catalog, options: readerOptions)
            } catch {
                StandardError.line("cardscan-bench: several cards not timed: \(error)")
            }
            if !severalCards.isEmpty { phases["severalCards"] = BenchClock.ms(t, BenchClock.nanos) / 1000 }
        }

        let outcomes = single.outcomes
        let scores = zip(photos, outcomes).map { PhotoScore.score($0, $1, matcher: identifier.isMatcher) }

        // References.
        var refRun: ReferenceRun?
        if config.references {
            t = BenchClock.nanos
            refRun = References.run(photos: photos)
            phases["references"] = BenchClock.ms(t, BenchClock.nanos) / 1000
        }

        // OpenMP micro-benchmark.
        var openMP: OpenMPSection?
        if config.openMP, let inputs = probeInputs(photos, outcomes) {
            t = BenchClock.nanos
            openMP = OpenMPProbe.run(photo: inputs.photo, titleImage: inputs.title, repeats: config.openMPRepeats)
            phases["openMP"] = BenchClock.ms(t, BenchClock.nanos) / 1000
        }

        // Catalog import (child processes).
        t = BenchClock.nanos
        let catalog = CatalogImportBench.run(dataFolder: config.catalogData)
        phases["catalogImport"] = BenchClock.ms(t, BenchClock.nanos) / 1000

        var throughput = ThroughputSection(singleJob: PassSummary(single), multiJob: multi.map(PassSummary.init))
        if let multi {
            throughput.speedup = Stats.ratio(multi.photosPerSecond, single.photosPerSecond)
            let pairs = zip(single.outcomes, multi.outcomes).compactMap { a, b -> Bool? in
                guard let x = a.reading, let y = b.reading else { return nil }
                return x.fields == y.fields
            }
            throughput.comparedReadings = pairs.count
            throughput.identicalReadings = pairs.filter { $0 }.count
        }
        var containers: [String: Int] = [:]
        for (i, p) in photos.enumerated() {
            containers[(refRun?.photos[i].container ?? ImageContainer.sniff(p.path)).rawValue, default: 0] += 1
        }

        let accuracy = Accuracy.tally(photos: photos, outcomes: outcomes, scores: scores, matcher: identifier.isMatcher)
        let references = refRun.map { Summaries.references($0, photos: photos, outcomes: outcomes, scores: scores) }
        let targets = Targets.compute(photos: photos, scores: scores, accuracy: accuracy, throughput: throughput,
                                      references: references, identifier: identifier.name,
                                      textLookup: prepared.section.textLookup, severalCards: severalCards)
        var results = BenchResults(
            date: date, commandLine: config.commandLine, machine: machine,
            input: InputSection(photoDirectory: config.photoDirectory, labelsFile: labelsFile, labelFormat: format,
                                photos: photos.count, labelRows: photos.reduce(0) { $0 + $1.labels.count },
                                labelledPhotos: scores.filter { !$0.fields.isEmpty }.count, limit: config.limit,
                                containers: containers),
            accuracy: accuracy,
            identifier: identifier.name, matcher: identifier.isMatcher,
            stages: Summaries.stages(outcomes), totalByKind: Summaries.totalByKind(photos, outcomes),
            throughput: throughput,
            references: references,
            openMP: openMP,
            memory: MemorySection(singleJobPeakKiB: singlePeak, multiJobPeakKiB: multiPeak, peakResetWorked: resetWorked,
                                  tesseractCLIPeakKiB: refRun?.childPeakRSSKiB, finalRSSKiB: Machine.currentRSSKiB()),
            matcherCatalog: prepared.section, catalogImport: catalog, severalCards: severalCards, targets: targets,
            errors: zip(photos, outcomes).compactMap { p, o in o.reading == nil ? ErrorRow(file: p.file, error: o.error ?? "unknown") : nil },
            phaseSeconds: phases, durationSeconds: 0,
            photos: Summaries.rows(photos, outcomes, scores, refRun))
        results.durationSeconds = BenchClock.ms(runStart, BenchClock.nanos) / 1000

        print(MarkdownReport.render(results))
        try write(results, to: config.jsonPath)
        StandardError.line("cardscan-bench: wrote \(config.jsonPath) (\(String(format: "%.1f", results.durationSeconds)) s)")
        return results
    }

    /// How the matcher's catalog is named in the report.
    static func matcherDescription(_ s: MatcherCatalogSection) -> String {
        switch s.mode {
        case "built": return "catalog built from " + s.files.map { ($0 as NSString).lastPathComponent }.joined(separator: " + ")
        default: return "catalog \(s.path ?? "?")"
        }
    }

    /// Writes the results as pretty JSON.
    static func write(_ results: BenchResults, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(results).write(to: url)
    }

    /// The OpenMP probe's inputs: the photo closest to 8 MP, and the largest flat card (kind `scan`,
    /// or a fixture with variant `flat`) for the title band. Sizes come from the readings; without any, the largest files.
    static func probeInputs(_ photos: [BenchPhoto], _ outcomes: [PhotoOutcome]) -> (photo: String, title: String)? {
        guard !photos.isEmpty else { return nil }
        func pixels(_ i: Int) -> Double? { outcomes[i].reading.map { Double($0.imageWidth * $0.imageHeight) } }
        func fileSize(_ i: Int) -> Double {
            Double((try? FileManager.default.attributesOfItem(atPath: photos[i].path)[.size] as? Int) ?? 0)
        }
        let indices = Array(photos.indices)
        let sized = indices.filter { pixels($0) != nil }
        let photo = sized.min { abs(log(pixels($0)! / 8e6)) < abs(log(pixels($1)! / 8e6)) }
            ?? indices.max { fileSize($0) < fileSize($1) }!
        let flat = indices.filter { photos[$0].kind == "scan" || photos[$0].labels.first?.attributes["variant"] == "flat" }
        let title = flat.max { (pixels($0) ?? fileSize($0)) < (pixels($1) ?? fileSize($1)) } ?? photo
        return (photos[photo].path, photos[title].path)
    }
}

/// A benchmark run that cannot give the shipped program's figures.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
