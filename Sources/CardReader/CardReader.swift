import CardScanOCR
import Foundation

/// Reads one card from a photo: locate → decide rotation → rectify the title and bottom bands →
/// OCR → positional extraction. Owns its Tesseract engines (the general model's, and the collector
/// model's when that band has its own): use one reader per thread.
public final class CardReader {
    /// Reader settings.
    public struct Options: Sendable {
        /// Folder with Tesseract models (nil: automatic).
        public var tessdataPath: String?
        /// Refuse images above this many pixels before decoding.
        public var maxPixels: Int
        /// Per-recognition time limit in milliseconds.
        public var ocrDeadlineMilliseconds: Int

        /// Maps a set code as read (`bez`, `0TK`) and the printed set size to a known code (`bfz`,
        /// `dtk`), or nil when nothing is close. Callers pass their catalog's lookup; without one the
        /// code is reported as read.
        public var resolveSetCode: (@Sendable (_ code: String, _ printedSize: Int?) -> String?)?
        /// Maps a title as read (`VialofDragonfire`) to the card name it clearly is, or nil when no
        /// name is clearly closest. Callers pass their catalog's lookup; without one the title is
        /// reported as read.
        public var resolveTitle: (@Sendable (_ title: String) -> String?)?
        /// Whether a card of this name (as `resolveTitle` gives it) may print its collector number
        /// in its copyright line (the 1998–2014 frames): the line is read for a number the
        /// collector lines did not give only then. Without one, always.
        public var printsNumberInCopyright: (@Sendable (_ name: String) -> Bool)?
        /// The search's thresholds, weights and budget (`Tuning`'s defaults are the measured ones).
        public var tuning: Tuning
        /// Which model reads the collector band (`CollectorModel.standard` unless set).
        public var collectorModel: CollectorModel = .standard
        /// The model for one more look at a band the first reads left unread (`SecondModel`).
        public var secondModel: SecondModel = .automatic

        /// Defaults: automatic models, 150 MP limit, 5 s per recognition, no vocabularies, the default tuning.
        public init(tessdataPath: String? = nil, maxPixels: Int = 150_000_000, ocrDeadlineMilliseconds: Int = 5000,
                    resolveSetCode: (@Sendable (_ code: String, _ printedSize: Int?) -> String?)? = nil,
                    resolveTitle: (@Sendable (_ title: String) -> String?)? = nil, tuning: Tuning = Tuning()) {
            self.tessdataPath = tessdataPath
            self.maxPixels = maxPixels
            self.ocrDeadlineMilliseconds = ocrDeadlineMilliseconds
            self.resolveSetCode = resolveSetCode
            self.resolveTitle = resolveTitle
            self.tuning = tuning
        }
    }

    /// Which model reads the collector lines (`171/274 C` / `BFZ • EN`).
    public enum CollectorModel: Sendable, Equatable {
        /// The project's own collector model (`OwnModels.collector`) when `OwnModels.folder`
        /// finds it (in `Models/` of a checkout or beside the installed program), else the general one.
        case automatic
        /// The project's own collector model, found as `automatic` finds it; an error when it is not found.
        case own
        /// The model `language` (`language.traineddata`, the project's own collector model unless
        /// named) from this folder; an error when it is not there. Any Tesseract model can read the
        /// band this way, for comparing models (`Models/README.md`).
        case folder(String, language: String = OwnModels.collector)
        /// The general model that reads the other bands.
        case general

        /// The choice when none is made: see `Models/README.md` for the measurements behind it.
        public static let standard: CollectorModel = .general
    }

    /// A second model, for one more look at collector lines the reads with the first model left
    /// without their number or set code (`ReadPipeline.secondLook`, on the reading the search
    /// settled on). Its engine is made when first needed,
    /// so a photo whose cards read cleanly never loads it. (It was tried on titles no name was
    /// read in too, before the rescue's binarised reads: no card more on the shared photos and
    /// their copies, so it is not.)
    public enum SecondModel: Sendable, Equatable {
        /// `OwnModels.standard` when `OwnModels.folder` finds it (in `Models/` of a checkout or
        /// beside the installed program), else none.
        case automatic
        /// No second look.
        case none
        /// `language.traineddata` from this folder; an error when it is not there.
        case folder(String, language: String)
    }

    public let options: Options
    let recognizer: TextRecognizer
    /// The collector band's own engine, nil when the general model reads that band.
    let collectorRecognizer: TextRecognizer?

    /// Creates a reader and its OCR engines.
    /// - Throws: ``OCRError`` when a Tesseract model is missing.
    public init(options: Options = Options()) throws {
        self.options = options
        self.recognizer = try TextRecognizer(configuration: .init(tessdataPath: options.tessdataPath))
        let collector: (folder: String, language: String)?
        switch options.collectorModel {
        case .automatic: collector = OwnModels.folder(holding: OwnModels.collector).map { ($0, OwnModels.collector) }
        case .own:
            guard let found = OwnModels.folder(holding: OwnModels.collector) else {
                throw OCRError.missingLanguageModel(language: OwnModels.collector, searched: OwnModels.searchedFolders())
            }
            collector = (found, OwnModels.collector)
        case let .folder(folder, language): collector = (folder, language)
        case .general: collector = nil
        }
        self.collectorRecognizer = try collector.map {
            try TextRecognizer(configuration: .init(tessdataPath: $0.folder, languages: [$0.language]))
        }
        let second: (folder: String, language: String)?
        switch options.secondModel {
        case .automatic: second = OwnModels.folder(holding: OwnModels.standard).map { ($0, OwnModels.standard) }
        case .none: second = nil
        case let .folder(folder, language):
            // Checked now: a missing model is the user's error, not a card's.
            second = (try Tessdata.locate(explicit: folder, languages: [language]), language)
        }
        self.secondRecognizer = second.map { LazyRecognizer(folder: $0.folder, language: $0.language) }
    }

    /// The second model's engine, made when first needed (`SecondModel`).
    let secondRecognizer: LazyRecognizer?

    /// The folder of the second model, nil when there is none.
    public var secondModelFolder: String? { secondRecognizer?.folder }

    /// The folder of the collector model in use, nil when the general model reads the collector lines.
    public var collectorModelFolder: String? { collectorRecognizer?.tessdataPath }

    /// A pass of the reader over one photo, with this reader's engines.
    var pipeline: ReadPipeline { ReadPipeline(recognizer: recognizer, collectorRecognizer: collectorRecognizer, secondRecognizer: secondRecognizer, options: options) }

    /// Reads the card in an image file.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded.
    public func read(contentsOf path: String) throws -> CardReading {
        try readAllKeepingImage(contentsOf: path, limit: 1).readings[0]
    }

    /// Reads the card in an image file and hands back the photo in colour, for drawing on it
    /// (`--annotate`). The reading is the one `read` gives: the grey pixels come from the same
    /// luminance decode (a grey made from the colour pixels differs by a level here and there,
    /// enough to move a locator threshold), and the colour photo is decoded on its own.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded.
    public func readKeepingPhoto(contentsOf path: String) throws -> (reading: CardReading, photo: Image) {
        let (readings, gray) = try readAllKeepingImage(contentsOf: path, limit: 1)
        return (readings[0], photoInColour(contentsOf: path, else: gray))
    }

    /// The photo at `path` decoded in colour, for drawing on it (`Annotator`), no larger than the
    /// drawing needs (a JPEG or PNG is decoded up to 8 times smaller: 9 MB instead of 1 GB of
    /// colour pixels for a 140-megapixel photo); `fallback` (its grey decode) when it cannot be
    /// decoded so.
    public func photoInColour(contentsOf path: String, else fallback: Image) -> Image {
        (try? photoInColour(contentsOf: path)) ?? fallback
    }

    /// The photo at `path` decoded in colour for drawing on it, as `photoInColour(contentsOf:else:)`.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded.
    public func photoInColour(contentsOf path: String) throws -> Image {
        try Image(contentsOf: path, options: .init(grayscale: false, maxPixels: options.maxPixels, reducedSide: Annotator.maxSide))
    }

    /// Reads every card found in the photo at `path` (up to `limit`): the first is the one `read`
    /// returns; the others are further card-sized regions on which a known title or a collector
    /// number was read. A flat scan is one card. Never empty.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded.
    public func readAll(contentsOf path: String, limit: Int = 24) throws -> [CardReading] {
        try readAllKeepingImage(contentsOf: path, limit: limit).readings
    }

    /// `readAll(contentsOf:limit:)` that also hands back the decoded (grey) photo, for reading more
    /// of a card later (`readText`) without decoding the file again. The file's decoding time is
    /// the first card's.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded or read.
    /// `confirm`: see `readAll(image:limit:confirm:)`.
    public func readAllKeepingImage(contentsOf path: String, limit: Int = 24,
                                    confirm: Confirmation? = nil) throws -> (readings: [CardReading], image: Image) {
        try readAllKeepingImage(contentsOf: path, limit: limit) { try $0.readEach(with: self, confirm: confirm) }
    }

    /// `readAllKeepingImage(contentsOf:limit:confirm:)` with the photo's cards read by `reading`:
    /// given the photo converted and located (`PhotoRead`), it reads the main card and decides
    /// every other region, one by one (`PhotoRead.readEach`) or with regions read ahead on other
    /// engines. The file's decoding time is the first card's, and each card's total is its own stages.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded, and what `reading` throws.
    public func readAllKeepingImage(contentsOf path: String, limit: Int,
                                    reading: (PhotoRead) throws -> Void) throws -> (readings: [CardReading], image: Image) {
        let start = Clock.now
        let image = try decode(contentsOf: path)
        let decoded = Clock.now
        var readings = try readAll(image: image, limit: limit, reading: reading)
        readings[0].timings.decode += Clock.ms(start, decoded)
        readings[0].timings.total = readings[0].timings.decode + readings[0].timings.locate + readings[0].timings.ocr
        return (readings, image)
    }

    /// Decides whether a region read in a photo whose title and collector lines said nothing
    /// recognisable is a card after all (by more of its evidence: its text), given the reading
    /// and the photo's grey pixels.
    public typealias Confirmation = (CardReading, GrayImage) throws -> Bool

    /// The photo at `path` decoded as the reader reads it: luminance only, EXIF orientation
    /// applied, images over `Options.maxPixels` refused before decoding.
    /// - Throws: ``OCRError`` naming the file when it cannot be decoded.
    public func decode(contentsOf path: String) throws -> Image {
        try Image(contentsOf: path, options: .init(grayscale: true, maxPixels: options.maxPixels))
    }

    /// Reads the card in an already decoded image.
    public func read(image: Image) throws -> CardReading {
        try pipeline.run(image: image)
    }

    /// Reads every card in an already decoded image (up to `limit`), as `readAll(contentsOf:)`
    /// does; each reading's total is its own stages (the file's decoding is the caller's).
    /// `confirm`: asked of a region other than the first that is card-like
    /// (`Tuning.Neighbours.confirmedLocation`) or lies beside cards read, when nothing
    /// recognisable was read on its title and collector lines: true keeps it as a card. Asked of
    /// the first (the main card, reported either way) before places beside the cards are
    /// proposed: true makes it a card they are proposed beside (`PhotoRead.confirmMain`).
    public func readAll(image: Image, limit: Int = 24, confirm: Confirmation? = nil) throws -> [CardReading] {
        try readAll(image: image, limit: limit) { try $0.readEach(with: self, confirm: confirm) }
    }

    /// `readAll(image:limit:confirm:)` with the photo's cards read by `reading` (see
    /// `readAllKeepingImage(contentsOf:limit:reading:)`).
    public func readAll(image: Image, limit: Int, reading: (PhotoRead) throws -> Void) throws -> [CardReading] {
        let photo = PhotoRead(image: image, limit: limit, pipeline: pipeline)
        try reading(photo)
        var readings = photo.readings
        precondition(!readings.isEmpty, "the main card is read")
        for i in readings.indices {
            readings[i].timings.total = readings[i].timings.decode + readings[i].timings.locate + readings[i].timings.ocr
        }
        return readings
    }

    /// The card's printed text beyond the title and collector lines, on the quad of `reading`
    /// (a reading of `image`): the type line with the rules and flavor text (band `textBox`), and
    /// the artist and copyright lines (band `credits`). Two block reads (~0.3–1 s): for a card
    /// whose title and collector lines did not settle a printing.
    /// `turned`: read the card upside down from the way the reading took it (when the title band
    /// was unreadable, the way-up test may have picked the wrong way).
    public func readText(of reading: CardReading, in image: Image, turned: Bool = false) throws -> [CardObservation] {
        try readText(of: reading, in: image.grayPixels(), turned: turned)
    }

    /// The title, collector and copyright bands of `reading` (a reading of `image`) as the reader
    /// cuts them for Tesseract: rectified at the reading's quad, white text turned dark, dark
    /// edges trimmed. For looking at what the OCR was given and for validating OCR models on real
    /// lines (`cardscan read --bands`).
    public func bands(of reading: CardReading, in image: Image) -> [(band: CardBand, image: GrayImage)] {
        let gray = image.grayPixels()
        let corners = reading.quad.map { Quad($0.corners) } ?? ReadPipeline.wholeImage(gray)
        return ReadPipeline.bandPatches(corners: corners, gray: gray)
    }

    /// `readText(of:in:turned:)` on the photo's grey pixels (`Image.grayPixels()`), for a caller
    /// that reads several cards or both ways up of one photo and converts it once.
    public func readText(of reading: CardReading, in gray: GrayImage, turned: Bool = false) throws -> [CardObservation] {
        let corners = reading.quad.map { Quad($0.corners) } ?? ReadPipeline.wholeImage(gray)
        return try pipeline.readText(corners: turned ? corners.turned(by: 2) : corners, gray: gray)
    }
}

extension CardReader {
    /// Cards known by their title alone, read anywhere in a photo of several cards outside the
    /// cards of `readings` (readings of `image`, whose grey pixels are `gray`): cards that show
    /// only their title strip (an overlapping spread, a fanned hand) or that the locator missed.
    /// Each reading holds the title line, its card placed around it at the size of the cards
    /// found. One to three sparse reads of the photo (1–2 s each at 9 megapixels), made only when at
    /// least `Tuning.photoTitles.minimumCards` cards were found, they do not close their layout
    /// (`NeighbourCards.closes`: a full binder page) and the reader has a title vocabulary; else
    /// none. A read that fails (the OCR deadline) adds nothing. The time the reads took is the
    /// photo's (`milliseconds`), not a card's: the readings carry none.
    public func titleCards(outside readings: [CardReading], in image: Image, gray: GrayImage) -> (cards: [CardReading], milliseconds: Double) {
        let cards = readings.compactMap { $0.quad.map { Quad($0.corners) } }
        return pipeline.titleCards(outside: cards, rotations: readings.map(\.rotation), image: image, gray: gray)
    }
}

extension CardReader {
    /// The cards of a stack spread so that each card shows its lower-left corner with its
    /// collector lines, when `reading` (a reading of a photo whose grey pixels are `gray`) is
    /// one: its collector band shows several cards' rows, number lines or set lines whose number
    /// line was not read (`Tuning.stack`). With `probing` (the photo's one card, a number line
    /// read in its band), a card whose band shows its own lines alone is read a little beyond
    /// its bottom edge too: rows there are the next cards' (the locator found the stack's top
    /// card alone). From those lines the stack is
    /// followed card by card, each card's collector lines read on a card-sized quad placed
    /// around its number line (a card: a number line and a set line with a number), and the
    /// reading's title goes to the card whose title band holds it. Nil, with nothing read (and
    /// `gray` not called), for a region showing one card's lines and not probed; no cards, with
    /// the time spent, when what was read finds fewer than `Tuning.stack.minimumCards` cards or
    /// a read fails (the OCR deadline).
    public func stackCards(of reading: CardReading, gray: () -> GrayImage, probing: Bool = false) -> (cards: [CardReading], milliseconds: Double)? {
        pipeline.stackCards(of: reading, gray: gray, probing: probing)
    }

    /// Whether `stackCards(of:gray:)` reads `reading` as a stack without probing (its collector
    /// band shows several cards' rows); nothing is read.
    public func mayBeStack(_ reading: CardReading) -> Bool {
        pipeline.mayBeStack(reading)
    }
}

extension CardReader {
    /// The photo's text wherever it lies (band `photo`): one read per way up in
    /// `Tuning.photoText.turns` (the first turned 0, then 90°, 180°, 270° clockwise), each sparse,
    /// on the photo reduced once to `Tuning.photoText.longSide`. About 1–2 s a read, made only when
    /// called: for a photo where no card found was recognised, so that a card the locator missed
    /// (a card in a toploader, a card cut off by the frame) is still found by its words.
    public func photoTextReads(_ gray: GrayImage) -> [() throws -> [CardObservation]] {
        let pipeline = self.pipeline
        let reduced = pipeline.photoTextImage(gray)
        return (0..<max(0, options.tuning.photoText.turns)).map { turn in
            { try pipeline.readPhotoText(reduced: reduced, quarterTurns: turn) }
        }
    }
}

/// Monotonic timing helpers.
enum Clock {
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
    static func ms(_ a: UInt64, _ b: UInt64) -> Double { Double(b &- a) / 1_000_000 }
}

/// An OCR engine made on first use (a model only some cards need). One per reader: not shared
/// between threads.
final class LazyRecognizer {
    let folder: String
    private let language: String
    private var made: TextRecognizer?
    private var failed = false

    init(folder: String, language: String) {
        self.folder = folder
        self.language = language
    }

    /// The engine, made now if it was not yet; nil when it cannot be made (the model was checked
    /// when the reader was made, so only a file changed since: that look is skipped, and traced).
    func engine() -> TextRecognizer? {
        if let made { return made }
        guard !failed else { return nil }
        do {
            made = try TextRecognizer(configuration: .init(tessdataPath: folder, languages: [language]))
        } catch {
            failed = true
            DebugDump.trace("second model \(language) in \(folder) not loaded: \(error)")
        }
        return made
    }
}
