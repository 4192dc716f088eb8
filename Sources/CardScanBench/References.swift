import CardScanTerminal
import Foundation

/// The image container, told from the first bytes (extensions lie: some `.jpg` files are PNG).
public enum ImageContainer: String, Sendable, Codable {
    case jpeg, png, webp, other

    /// Reads the magic bytes of a file.
    public static func sniff(_ path: String) -> ImageContainer {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .other }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 12))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.count >= 4, head[0] == 0x89, head[1] == 0x50, head[2] == 0x4E, head[3] == 0x47 { return .png }
        if head.count >= 12, head[0] == 0x52, head[1] == 0x49, head[8] == 0x57, head[9] == 0x45 { return .webp }
        return .other
    }
}

/// Reference tools run on one photo.
public struct ReferencePhoto: Sendable, Codable {
    /// Index into the photo list.
    public var index: Int
    /// Container from the magic bytes.
    public var container: ImageContainer
    /// `tesseract PHOTO -` with `OMP_THREAD_LIMIT` unset, ms (nil when it failed or was not run).
    public var tesseractMs: Double?
    /// The same with `OMP_THREAD_LIMIT=1`, ms.
    public var tesseractOneThreadMs: Double?
    /// Exit code of the default-environment run.
    public var tesseractExit: Int32?
    /// Characters the CLI printed (default run).
    public var tesseractChars: Int?
    /// Whether the CLI's output contained a labelled title (nil when the photo has no title label).
    public var tesseractTitleFound: Bool?
    /// `djpeg -outfile /dev/null PHOTO`, ms (JPEG only).
    public var djpegMs: Double?
}

/// The references pass: what a user would run today, timed in the same run as cardscan.
public struct ReferenceRun: Sendable, Codable {
    /// Path of the tesseract CLI (nil: not installed).
    public var tesseractPath: String?
    /// `tesseract --version` first lines.
    public var tesseractVersion: String?
    /// Path of djpeg (nil: not installed).
    public var djpegPath: String?
    /// Launch-to-exit time of `/bin/true` through the same spawning code (10 runs), ms.
    public var spawnOverheadMs: SampleSummary
    /// Per photo.
    public var photos: [ReferencePhoto]
    /// Largest resident set of any child so far (getrusage RUSAGE_CHILDREN), KiB.
    public var childPeakRSSKiB: Int?
    /// Wall time of the whole references pass, s.
    public var wallSeconds: Double
}

/// Runs the `tesseract` CLI (default environment and `OMP_THREAD_LIMIT=1`) and `djpeg` on every
/// photo, one process at a time, interleaved per photo so drifting machine load hits all alike.
enum References {
    static func run(photos: [BenchPhoto]) -> ReferenceRun {
        let start = BenchClock.nanos
        let tesseract = ProcessRunner.which("tesseract")
        let djpeg = ProcessRunner.which("djpeg")
        if tesseract == nil { StandardError.line("references: tesseract CLI not found (scripts/setup.sh installs tesseract-ocr)") }
        if djpeg == nil { StandardError.line("references: djpeg not found (scripts/setup.sh installs libjpeg-turbo-progs)") }
        var version: String?
        if let tesseract, let r = try? ProcessRunner.run(tesseract, ["--version"], captureStdout: true) {
            version = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").prefix(2).joined(separator: "; ")
        }
        var overhead: [Double] = []
        if let truePath = ProcessRunner.which("true") {
            for _ in 0..<10 { if let r = try? ProcessRunner.run(truePath, []) { overhead.append(r.wallMs) } }
        }
        let userEnv = ProcessRunner.environment(removing: ["OMP_THREAD_LIMIT", "CARDSCAN_OPENMP"])
        let oneThreadEnv = ProcessRunner.environment(removing: ["CARDSCAN_OPENMP"], setting: ["OMP_THREAD_LIMIT": "1"])

        var rows: [ReferencePhoto] = []
        for (i, photo) in photos.enumerated() {
            var row = ReferencePhoto(index: i, container: ImageContainer.sniff(photo.path))
            if let tesseract {
                if let r = try? ProcessRunner.run(tesseract, [photo.path, "-"], environment: userEnv, captureStdout: true) {
                    row.tesseractExit = r.exitCode
                    if r.exitCode == 0 {
                        row.tesseractMs = r.wallMs
                        let text = String(decoding: r.stdout, as: UTF8.self)
                        row.tesseractChars = text.count
                        let names = photo.labels.map(\.name).filter { !$0.isEmpty }
                        if !names.isEmpty { row.tesseractTitleFound = names.contains { FieldComparison.textContainsTitle(text, name: $0) } }
                    }
                }
                if let r = try? ProcessRunner.run(tesseract, [photo.path, "-"], environment: oneThreadEnv), r.exitCode == 0 {
                    row.tesseractOneThreadMs = r.wallMs
                }
            }
            if let djpeg, row.container == .jpeg,
               let r = try? ProcessRunner.run(djpeg, ["-outfile", "/dev/null", photo.path]), r.exitCode == 0 {
                row.djpegMs = r.wallMs
            }
            rows.append(row)
            StandardError.line(String(format: "[ref %d/%d] %@  tesseract %@ / %@ (OMP_THREAD_LIMIT=1)  djpeg %@%@", i + 1, photos.count,
                                      photo.file, MarkdownReport.ms(row.tesseractMs), MarkdownReport.ms(row.tesseractOneThreadMs),
                                      MarkdownReport.ms(row.djpegMs), row.tesseractTitleFound.map { $0 ? "  title found" : "  title not found" } ?? ""))
        }
        return ReferenceRun(tesseractPath: tesseract, tesseractVersion: version, djpegPath: djpeg,
                            spawnOverheadMs: SampleSummary(overhead), photos: rows,
                            childPeakRSSKiB: Machine.childrenPeakRSSKiB(),
                            wallSeconds: BenchClock.ms(start, BenchClock.nanos) / 1000)
    }
}

extension ReferencePhoto {
    init(index: Int, container: ImageContainer) {
        self.index = index
        self.container = container
    }
}
