// `cardscan-bench`: option parsing only; the benchmark lives in CardScanBench (`Bench.run`).
// The command is declared here, not in CardScanBench, because only this target depends on
// ArgumentParser (Package.swift).
import ArgumentParser
import CardReader
import CardScanBench
import CardScanTerminal
import Foundation

/// Accuracy, speed, memory and reference figures for the card reader, measured in one run.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardscan-bench",
        abstract: "Benchmark the card reader: accuracy, stage times, throughput, references (tesseract CLI, djpeg), OpenMP, memory.",
        discussion: "Markdown report on stdout, progress on stderr, every figure in the JSON file.")

    @Argument(help: "Folder with the photos and their labels.csv (or fixtures with truth.csv).")
    var photoDir: String = "../shared/photos"
    @Option(help: "Labels file (default: labels.csv or truth.csv in PHOTO_DIR).")
    var labels: String?
    @Option(help: "Worker threads for the throughput pass (default: number of cores).")
    var jobs: Int?
    @Option(help: "Where to write the JSON results.")
    var json: String = "bench-results.json"
    @Option(help: "Only the first N images.")
    var limit: Int?
    @Flag(help: "Skip the tesseract CLI and djpeg references.")
    var noReferences = false
    @Flag(help: "Skip the OpenMP micro-benchmark.")
    var noOpenmp = false
    @Option(help: "Folder with the catalog bulk files for the catalog import section.")
    var catalogData: String = "../shared/carddata"
    @Flag(help: "Skip the catalog import section (the matcher's catalog is still built).")
    var noCatalog = false
    @Option(help: "Catalog for the matcher (default: built once per run, in a temporary file, from both shared bulk files and the MTGJSON set files under --catalog-data).")
    var catalog: String?
    @Option(help: ArgumentHelp("Scryfall/MTGJSON file to build the matcher's catalog from instead (repeatable; e.g. Fixtures/catalog/sample-cards.json).", valueName: "file"))
    var catalogJson: [String] = []
    @Flag(help: "No matcher: the title-only stand-in (name = read title, printing = read set + number).")
    var noMatcher = false
    @Option(help: ArgumentHelp("Set a reader tuning parameter for this run (repeatable; see --list-tuning).", valueName: "name=value"))
    var tune: [String] = []
    @Flag(help: "Print every reader tuning parameter with its default value, and exit.")
    var listTuning = false
    @Option(help: ArgumentHelp("Timed recognitions per item in the OpenMP probe.", visibility: .hidden))
    var openmpRepeats: Int = 10
    // Hidden probe mode: the bench re-runs itself as
    // `cardscan-bench --openmp-probe PHOTO --probe-title-image CARD` with and without CARDSCAN_OPENMP=1.
    @Option(help: ArgumentHelp("Run only the OpenMP probe on this photo and print JSON.", visibility: .private))
    var openmpProbe: String?
    @Option(help: ArgumentHelp("Flat card image for the probe's title region.", visibility: .private))
    var probeTitleImage: String?
    @Option(help: ArgumentHelp("Run only a catalog import of this file and print JSON.", visibility: .private))
    var catalogImportProbe: String?

    mutating func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if [catalog != nil, !catalogJson.isEmpty, noMatcher].filter({ $0 }).count > 1 {
            throw ValidationError("--catalog, --catalog-json and --no-matcher exclude each other")
        }
        do { _ = try Tuning().setting(tune) } catch { throw ValidationError("--tune: \(error)") }
    }

    func run() throws {
        if let openmpProbe {
            print(try OpenMPProbe.measureInProcess(photo: openmpProbe, titleImage: probeTitleImage ?? openmpProbe, repeats: openmpRepeats))
            return
        }
        if let catalogImportProbe {
            print(try CatalogImportBench.measureInProcess(file: catalogImportProbe))
            return
        }
        if listTuning {
            for assignment in Tuning().assignments { print(assignment) }
            return
        }
        let tuning = try Tuning().setting(tune)
        if !tune.isEmpty { StandardError.line("bench: reader tuning \(tune.joined(separator: " "))") }
        var configuration = BenchConfiguration(photoDirectory: photoDir, labelsFile: labels, jobs: jobs, jsonPath: json, limit: limit,
                                               references: !noReferences, openMP: !noOpenmp, openMPRepeats: openmpRepeats,
                                               catalogData: noCatalog ? nil : catalogData, readerOptions: CardReader.Options(tuning: tuning),
                                               matcherCatalog: matcherCatalog)
        configuration.requiresLineImageHook = true
        try Bench.run(configuration)
    }

    /// `--catalog`, else `--catalog-json`, else the shared bulk files (`--no-matcher`: none).
    var matcherCatalog: MatcherCatalogSource {
        if noMatcher { return .none }
        if let catalog { return .existing(path: catalog) }
        if !catalogJson.isEmpty { return .files(catalogJson) }
        return .sharedBulk(folder: catalogData)
    }
}

BenchCommand.main()
