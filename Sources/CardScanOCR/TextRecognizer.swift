import CTesseract
import Foundation

/// One Tesseract engine. Create one per worker and use it from one thread at a time; it is
/// initialised once (50–100 ms) and reused for any number of images and regions.
///
/// OpenMP inside Tesseract is kept single-threaded (see `OpenMPControl`): on small regions its
/// threads make recognition 5–10x slower on two cores; parallelism comes from several engines.
public final class TextRecognizer {
    /// Engine set-up.
    public struct Configuration: Sendable {
        /// Folder with `*.traineddata`; nil searches `$TESSDATA_PREFIX` and the Debian locations.
        public var tessdataPath: String?
        /// Languages, e.g. `["eng"]`.
        public var languages: [String]
        /// Variables that Tesseract reads only at initialisation (e.g. `load_system_dawg`,
        /// `user_patterns_file`).
        public var initVariables: [String: String]

        /// Defaults: English, models found automatically.
        public init(tessdataPath: String? = nil, languages: [String] = ["eng"], initVariables: [String: String] = [:]) {
            self.tessdataPath = tessdataPath
            self.languages = languages
            self.initVariables = initVariables
        }
    }

    private let api: OpaquePointer
    /// The folder the models were loaded from.
    public let tessdataPath: String
    private var currentWhitelist: String?
    private var currentRetryInverted = true // Tesseract's default for tessedit_do_invert
    private var currentBinarization = Binarization.global

    /// Whether this program keeps Tesseract's in-memory line images uncompressed (it carries the
    /// `CPNGLevel` hook and libpng has called it; known after the first recognition). Without it
    /// recognition gives the same text, about 7% slower (`LineImageHook`).
    public static var storesLineImagesUncompressed: Bool { LineImageHook.isActive }

    /// Creates and initialises an engine (`TessBaseAPICreate`, `TessBaseAPIInit4` with the LSTM
    /// engine and `initVariables`); ended and freed with the instance (`TessBaseAPIEnd`,
    /// `TessBaseAPIDelete`).
    /// - Throws: ``OCRError/missingLanguageModel(language:searched:)`` with an install hint, or
    ///   ``OCRError/engineInitFailed(_:)``.
    public init(configuration: Configuration = Configuration()) throws {
        LeptonicaSetup.once()
        let path = try Tessdata.locate(explicit: configuration.tessdataPath, languages: configuration.languages)
        guard let api = TessBaseAPICreate() else { throw OCRError.engineInitFailed("TessBaseAPICreate returned NULL") }
        let names = configuration.initVariables.keys.sorted()
        let values = names.map { configuration.initVariables[$0]! }
        let status = Self.withCStrings(names) { namePtrs in
            Self.withCStrings(values) { valuePtrs in
                TessBaseAPIInit4(api, path, configuration.languages.joined(separator: "+"), OEM_LSTM_ONLY,
                                 nil, 0, namePtrs, valuePtrs, names.count, 0)
            }
        }
        guard status == 0 else {
            TessBaseAPIDelete(api)
            throw OCRError.engineInitFailed("TessBaseAPIInit4 failed for \(configuration.languages) in \(path)")
        }
        // Tesseract's own debug chatter goes nowhere.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        self.api = api
        self.tessdataPath = path
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Recognises text in a decoded image, or in `region` of it (pixels, top-left origin).
    /// Boxes are normalised to the region when one is given, else to the whole image. The engine
    /// takes its own copy of the pixels (`TessBaseAPISetImage2`).
    public func recognize(_ image: Image, region: PixelRect? = nil, options: RecognitionOptions = RecognitionOptions()) throws -> [TextObservation] {
        TessBaseAPISetImage2(api, image.pix) // copies the pixels
        return try run(width: image.width, height: image.height, region: region, options: options)
    }

    /// Recognises text in a greyscale buffer, or in `region` of it (the engine copies the buffer:
    /// `TessBaseAPISetImage`).
    public func recognize(_ image: GrayImage, region: PixelRect? = nil, options: RecognitionOptions = RecognitionOptions()) throws -> [TextObservation] {
        guard image.width > 0, image.height > 0 else { return [] }
        image.pixels.withUnsafeBufferPointer { buf in
            TessBaseAPISetImage(api, buf.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        return try run(width: image.width, height: image.height, region: region, options: options)
    }

    /// Recognises the image set on the engine: `TessBaseAPIRecognize` with a monitor
    /// (`TessMonitorCreate`) carrying the deadline and the word limit, the results read through a
    /// result iterator (`collect`), and the engine cleared (`TessBaseAPIClear`).
    private func run(width: Int, height: Int, region: PixelRect?, options: RecognitionOptions) throws -> [TextObservation] {
        defer { TessBaseAPIClear(api) }
        let frame = (region ?? PixelRect(x: 0, y: 0, width: width, height: height)).clipped(width: width, height: height)
        guard frame.width > 0, frame.height > 0 else { return [] }
        TessBaseAPISetSourceResolution(api, Int32(options.sourceResolution))
        TessBaseAPISetPageSegMode(api, TessPageSegMode(rawValue: UInt32(options.pageSegmentation.rawValue)))
        if options.characterWhitelist != currentWhitelist {
            _ = TessBaseAPISetVariable(api, "tessedit_char_whitelist", options.characterWhitelist ?? "")
            currentWhitelist = options.characterWhitelist
        }
        if options.retryInverted != currentRetryInverted {
            _ = TessBaseAPISetVariable(api, "tessedit_do_invert", options.retryInverted ? "1" : "0")
            currentRetryInverted = options.retryInverted
        }
        // (Tesseract before 5.0 has no such variable: it then reads with its one threshold.)
        if options.binarization != currentBinarization,
           TessBaseAPISetVariable(api, "thresholding_method", String(options.binarization.rawValue)) != 0 {
            currentBinarization = options.binarization
        }
        if region != nil {
            TessBaseAPISetRectangle(api, Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height))
        }
        OpenMPControl.singleThreadCurrentThread()
        let monitor = TessMonitorCreate()
        defer { TessMonitorDelete(monitor) }
        if let deadline = options.deadlineMilliseconds { TessMonitorSetDeadlineMSecs(monitor, Int32(deadline)) }
        // Tesseract asks its cancel function before each word, passing the number of words its
        // layout found: over the limit, the first call cancels (and records the count).
        var words = WordLimit(limit: Int32(clamping: options.maximumWords ?? Int(Int32.max)))
        if options.maximumWords != nil {
            TessMonitorSetCancelFunc(monitor) { this, count in
                guard let limit = this?.assumingMemoryBound(to: WordLimit.self) else { return false }
                limit.pointee.found = count
                return count > limit.pointee.limit
            }
        }
        // Tesseract round-trips each text line through an in-memory PNG: stored, not deflated.
        let began = DispatchTime.now().uptimeNanoseconds
        let status = LineImageHook.storingUncompressed {
            withUnsafeMutablePointer(to: &words) { pointer -> Int32 in
                TessMonitorSetCancelThis(monitor, pointer)
                return TessBaseAPIRecognize(api, monitor)
            }
        }
        if let limit = options.maximumWords, words.found > limit {
            throw OCRError.tooManyWords(found: Int(words.found), limit: limit)
        }
        guard status == 0 else {
            // Tesseract reports a cancelled recognition like any other failure: the clock tells them apart.
            let elapsed = Int((DispatchTime.now().uptimeNanoseconds - began) / 1_000_000)
            if let deadline = options.deadlineMilliseconds, elapsed >= deadline {
                throw OCRError.deadlineExceeded(milliseconds: deadline)
            }
            throw OCRError.recognitionFailed("Tesseract returned an error (status \(status))")
        }
        return collect(frame: frame, options: options)
    }

    private func collect(frame: PixelRect, options: RecognitionOptions) -> [TextObservation] {
        guard let iterator = TessBaseAPIGetIterator(api) else { return [] }
        defer { TessResultIteratorDelete(iterator) }
        let level: TessPageIteratorLevel = options.level == .line ? RIL_TEXTLINE : RIL_WORD
        let page = TessResultIteratorGetPageIterator(iterator)
        var observations: [TextObservation] = []
        repeat {
            guard let cText = TessResultIteratorGetUTF8Text(iterator, level) else { continue }
            let text = String(cString: cText).trimmingCharacters(in: .whitespacesAndNewlines)
            TessDeleteText(cText)
            guard !text.isEmpty else { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            guard TessPageIteratorBoundingBox(page, level, &l, &t, &r, &b) != 0 else { continue }
            let box = NormalizedRect(
                x: Double(Int(l) - frame.x) / Double(frame.width),
                y: 1 - Double(Int(b) - frame.y) / Double(frame.height),
                width: Double(r - l) / Double(frame.width),
                height: Double(b - t) / Double(frame.height))
            let confidence = Double(TessResultIteratorConfidence(iterator, level)) / 100
            let characters = options.includeCharacterConfidences ? characterConfidences(iterator, level: level) : []
            observations.append(TextObservation(text: text, confidence: min(1, max(0, confidence)), boundingBox: box,
                                                characterConfidences: characters))
        } while TessResultIteratorNext(iterator, level) != 0
        return observations
    }

    /// Confidences (0…1) of the symbols inside the element `iterator` points at, read with a copy.
    private func characterConfidences(_ iterator: OpaquePointer, level: TessPageIteratorLevel) -> [Double] {
        guard let copy = TessResultIteratorCopy(iterator) else { return [] }
        defer { TessResultIteratorDelete(copy) }
        let page = TessResultIteratorGetPageIterator(copy)
        var values: [Double] = []
        while values.count < 4096 {
            values.append(Double(TessResultIteratorConfidence(copy, RIL_SYMBOL)) / 100)
            if TessPageIteratorIsAtFinalElement(page, level, RIL_SYMBOL) != 0 { break }
            guard TessResultIteratorNext(copy, RIL_SYMBOL) != 0 else { break }
        }
        return values
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        if pointers.isEmpty { return body(nil) }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}

/// What the cancel function of one recognition sees: the limit, and the word count found.
private struct WordLimit {
    var limit: Int32
    var found: Int32 = 0
}
