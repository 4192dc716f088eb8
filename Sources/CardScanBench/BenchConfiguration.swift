import CardReader
import Foundation

/// Everything a benchmark run needs; `cardscan-bench`'s options map onto it.
public struct BenchConfiguration: Sendable {
    /// Folder with the photos (and, by default, their `labels.csv` or `truth.csv`).
    public var photoDirectory: String
    /// Labels file; nil = `labels.csv` or `truth.csv` in the folder, else every image unlabelled.
    public var labelsFile: String?
    /// Worker threads for the throughput pass; nil = number of cores.
    public var jobs: Int?
    /// Where the JSON results go.
    public var jsonPath: String
    /// Only the first N photos (in labels order).
    public var limit: Int?
    /// Run the `tesseract` CLI and `djpeg` references.
    public var references: Bool
    /// Run the OpenMP micro-benchmark.
    public var openMP: Bool
    /// Timed recognitions per item in the OpenMP probe.
    public var openMPRepeats: Int
    /// Folder with the catalog bulk files for the catalog import section (nil: skipped).
    public var catalogData: String?
    /// Reader settings.
    public var readerOptions: CardReader.Options
    /// Where the matcher's catalog comes from (`.none`: `identifier` is used instead).
    public var matcherCatalog: MatcherCatalogSource
    /// How readings become identifications when there is no matcher catalog.
    public var identifier: IdentifierFactory
    /// The command line, recorded in the JSON.
    public var commandLine: [String]
    /// Stop with an error when the `CPNGLevel` hook is not active after the first pass (the
    /// `cardscan-bench` program sets it; a library caller may not carry the hook).
    public var requiresLineImageHook = false

    /// Creates a configuration with the documented defaults.
    public init(photoDirectory: String = "../shared/photos", labelsFile: String? = nil, jobs: Int? = nil,
                jsonPath: String = "bench-results.json", limit: Int? = nil, references: Bool = true,
                openMP: Bool = true, openMPRepeats: Int = 10,
                catalogData: String? = "../shared/carddata", readerOptions: CardReader.Options = .init(),
                matcherCatalog: MatcherCatalogSource = .sharedBulk(folder: "../shared/carddata"),
                identifier: IdentifierFactory = .titleOnly, commandLine: [String] = CommandLine.arguments) {
        self.photoDirectory = photoDirectory
        self.labelsFile = labelsFile
        self.jobs = jobs
        self.jsonPath = jsonPath
        self.limit = limit
        self.references = references
        self.openMP = openMP
        self.openMPRepeats = openMPRepeats
        self.catalogData = catalogData
        self.readerOptions = readerOptions
        self.matcherCatalog = matcherCatalog
        self.identifier = identifier
        self.commandLine = commandLine
    }
}
