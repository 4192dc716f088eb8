import CardScanOCR
import CardScanTerminal
import Foundation

/// What one probe process measured (printed as JSON on its stdout).
public struct OpenMPProbeMeasurement: Sendable, Codable {
    /// False when the process was started with `CARDSCAN_OPENMP=1` (the project's fix disabled).
    public var fixEnabled: Bool
    /// Engine initialisation, ms.
    public var initMs: Double
    /// Source of the title region and the crop taken (`file x,y,w,h → WxH`).
    public var titleRegion: String
    /// Title region size fed to Tesseract.
    public var titleWidth: Int
    /// Title region size fed to Tesseract.
    public var titleHeight: Int
    /// Text read from the title region (to show it is a real title).
    public var titleText: String
    /// One time per recognition after the warm-up, ms (PSM 7, line level).
    public var titleMs: [Double]
    /// The whole photo.
    public var photo: String
    /// Whole photo size.
    public var photoWidth: Int
    /// Whole photo size.
    public var photoHeight: Int
    /// Lines read from the whole photo.
    public var photoLines: Int
    /// One time per recognition after the warm-up, ms (PSM 3, line level).
    public var photoMs: [Double]
}

/// Issue 2's micro-benchmark: one title-sized region and one whole photo through `TextRecognizer`,
/// with and without the OpenMP fix in `CardScanOCR/OpenMP.swift`. The fix is switched off by
/// `CARDSCAN_OPENMP=1` at process start, so the bench re-runs its own binary (hidden option
/// `--openmp-probe`) once per setting and reads the child's JSON.
public enum OpenMPProbe {
    /// Card-relative band holding the title on 2003+ frames: x 6…80 %, y 4.2…8.65 % of the card.
    static let titleBand = (x0: 0.06, x1: 0.80, y0: 0.042, y1: 0.0865)
    /// Width the title band is scaled to (≈ a title read from a 12 MP photo, upscaled).
    static let titleWidth = 1070

    // MARK: child side

    /// Runs the measurement in this process and returns it as JSON (called by the hidden
    /// `cardscan-bench --openmp-probe PHOTO` mode).
    /// - Parameters:
    ///   - photo: a whole photo (ideally ~8 MP) recognised with PSM 3.
    ///   - titleImage: a flat card image (scan or fixture) whose title band is cropped and scaled to
    ///     ~1070 px wide.
    ///   - repeats: timed recognitions per item, after one warm-up.
    public static func measureInProcess(photo: String, titleImage: String, repeats: Int) throws -> String {
        let t0 = BenchClock.nanos
        let recognizer = try TextRecognizer()
        let initMs = BenchClock.ms(t0, BenchClock.nanos)

        let card = try Image(contentsOf: titleImage, options: .init(grayscale: true)).grayPixels()
        let (title, crop) = titleCrop(card)
        let titleOptions = RecognitionOptions(level: .line, pageSegmentation: .singleLine)
        var titleText = ""
        var titleMs: [Double] = []
        for i in 0...repeats {
            let s = BenchClock.nanos
            let lines = try recognizer.recognize(title, options: titleOptions)
            if i == 0 { titleText = lines.map(\.text).joined(separator: " ") } else { titleMs.append(BenchClock.ms(s, BenchClock.nanos)) }
        }

        let whole = try Image(contentsOf: photo, options: .init(grayscale: true))
        var photoLines = 0
        var photoMs: [Double] = []
        for i in 0...repeats {
            let s = BenchClock.nanos
            let lines = try recognizer.recognize(whole, options: RecognitionOptions(level: .line, pageSegmentation: .auto))
            if i == 0 { photoLines = lines.count } else { photoMs.append(BenchClock.ms(s, BenchClock.nanos)) }
        }
        let m = OpenMPProbeMeasurement(
            fixEnabled: ProcessInfo.processInfo.environment["CARDSCAN_OPENMP"] != "1", initMs: initMs,
            titleRegion: "\(titleImage) \(crop.x),\(crop.y),\(crop.width)x\(crop.height) → \(title.width)x\(title.height)",
            titleWidth: title.width, titleHeight: title.height, titleText: titleText, titleMs: titleMs,
            photo: photo, photoWidth: whole.width, photoHeight: whole.height, photoLines: photoLines, photoMs: photoMs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(m), as: UTF8.self)
    }

    /// Crops the title band of a flat card image and scales it (bilinear) to `titleWidth` wide.
    static func titleCrop(_ card: GrayImage) -> (GrayImage, PixelRect) {
        let b = titleBand
        let crop = PixelRect(x: Int(Double(card.width) * b.x0), y: Int(Double(card.height) * b.y0),
                             width: max(1, Int(Double(card.width) * (b.x1 - b.x0))),
                             height: max(1, Int(Double(card.height) * (b.y1 - b.y0))))
        let scale = Double(titleWidth) / Double(crop.width)
        let w = titleWidth, h = max(1, Int((Double(crop.height) * scale).rounded()))
        var out = [UInt8](repeating: 255, count: w * h)
        for y in 0..<h {
            let sy = min(Double(crop.height - 1), max(0, (Double(y) + 0.5) / scale - 0.5))
            let y0 = Int(sy), y1 = min(y0 + 1, crop.height - 1), fy = sy - Double(y0)
            for x in 0..<w {
                let sx = min(Double(crop.width - 1), max(0, (Double(x) + 0.5) / scale - 0.5))
                let x0 = Int(sx), x1 = min(x0 + 1, crop.width - 1), fx = sx - Double(x0)
                func px(_ xx: Int, _ yy: Int) -> Double { Double(card[crop.x + xx, crop.y + yy]) }
                let top = px(x0, y0) * (1 - fx) + px(x1, y0) * fx
                let bottom = px(x0, y1) * (1 - fx) + px(x1, y1) * fx
                out[y * w + x] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
            }
        }
        return (GrayImage(width: w, height: h, pixels: out), crop)
    }

    // MARK: parent side

    /// Runs the probe as a child process with the fix on and off.
    static func run(photo: String, titleImage: String, repeats: Int) -> OpenMPSection {
        var section = OpenMPSection(photo: photo, titleImage: titleImage, repeats: repeats)
        guard let exe = selfExecutable() else {
            section.error = "cannot find the bench's own executable"
            return section
        }
        for fixEnabled in [true, false] {
            let env = fixEnabled
                ? ProcessRunner.environment(removing: ["CARDSCAN_OPENMP", "OMP_THREAD_LIMIT"])
                : ProcessRunner.environment(removing: ["OMP_THREAD_LIMIT"], setting: ["CARDSCAN_OPENMP": "1"])
            StandardError.line("openmp: probing with the fix \(fixEnabled ? "on" : "off (CARDSCAN_OPENMP=1)") …")
            do {
                let r = try ProcessRunner.run(exe, ["--openmp-probe", photo, "--probe-title-image", titleImage,
                                                    "--openmp-repeats", String(repeats)], environment: env, captureStdout: true)
                guard r.exitCode == 0 else { throw ProbeFailed(code: r.exitCode) }
                let m = try JSONDecoder().decode(OpenMPProbeMeasurement.self, from: r.stdout)
                if fixEnabled { section.withFix = m } else { section.withoutFix = m }
            } catch {
                section.error = (section.error.map { $0 + "; " } ?? "") + "probe (fix \(fixEnabled ? "on" : "off")) failed: \(error)"
            }
        }
        section.summarise()
        return section
    }

    private struct ProbeFailed: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "exit code \(code)" }
    }

    /// This process's executable (for re-running the bench in a probe mode).
    static func selfExecutable() -> String? {
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        return Bundle.main.executablePath
    }
}

/// The OpenMP section of the report.
public struct OpenMPSection: Sendable, Codable {
    /// Whole photo used.
    public var photo: String
    /// Flat card image the title band came from.
    public var titleImage: String
    /// Timed recognitions per item.
    public var repeats: Int
    /// Measured with the project's fix (default).
    public var withFix: OpenMPProbeMeasurement?
    /// Measured with `CARDSCAN_OPENMP=1` (Tesseract's default OpenMP behaviour).
    public var withoutFix: OpenMPProbeMeasurement?
    /// Why a probe failed.
    public var error: String?
    /// Medians, ms, and slow-down without the fix (off / on).
    public var titleMedianWithFixMs: Double?
    public var titleMedianWithoutFixMs: Double?
    public var titleSlowdownWithoutFix: Double?
    public var photoMedianWithFixMs: Double?
    public var photoMedianWithoutFixMs: Double?
    public var photoSlowdownWithoutFix: Double?

    mutating func summarise() {
        titleMedianWithFixMs = withFix.flatMap { Stats.median($0.titleMs) }
        titleMedianWithoutFixMs = withoutFix.flatMap { Stats.median($0.titleMs) }
        titleSlowdownWithoutFix = Stats.ratio(titleMedianWithoutFixMs, titleMedianWithFixMs)
        photoMedianWithFixMs = withFix.flatMap { Stats.median($0.photoMs) }
        photoMedianWithoutFixMs = withoutFix.flatMap { Stats.median($0.photoMs) }
        photoSlowdownWithoutFix = Stats.ratio(photoMedianWithoutFixMs, photoMedianWithFixMs)
    }

    init(photo: String, titleImage: String, repeats: Int) {
        self.photo = photo
        self.titleImage = titleImage
        self.repeats = repeats
    }
}
