/// Tesseract page-segmentation modes (the subset useful here; raw values are Tesseract's).
public enum PageSegmentationMode: Int, Sendable, CaseIterable, Codable {
    /// Fully automatic layout analysis (PSM 3).
    case auto = 3
    /// One column of text of variable sizes (PSM 4).
    case singleColumn = 4
    /// One uniform block of text (PSM 6).
    case singleBlock = 6
    /// One text line (PSM 7).
    case singleLine = 7
    /// One word (PSM 8).
    case singleWord = 8
    /// As much text as possible in no particular order (PSM 11).
    case sparseText = 11
    /// One text line, bypassing Tesseract's own line finding (PSM 13).
    case rawLine = 13
}

/// The granularity of returned observations.
public enum RecognitionLevel: String, Sendable, CaseIterable, Codable {
    /// One observation per text line.
    case line
    /// One observation per word.
    case word
}

/// How one recognition call runs.
public struct RecognitionOptions: Sendable, Equatable {
    /// Observation granularity.
    public var level: RecognitionLevel
    /// Tesseract page-segmentation mode.
    public var pageSegmentation: PageSegmentationMode
    /// Only these characters may be output (nil: any). Works with the LSTM engine.
    public var characterWhitelist: String?
    /// Also report per-character confidences.
    public var includeCharacterConfidences: Bool
    /// Give up after this many milliseconds (nil: no deadline).
    public var deadlineMilliseconds: Int?
    /// Resolution to tell Tesseract (without one a 0-dpi image is treated as ~70 dpi).
    public var sourceResolution: Int
    /// Let Tesseract read a low-confidence line a second time inverted (its default). Off, text that
    /// reads badly costs one reading instead of two; light text on a dark ground is then not read.
    public var retryInverted: Bool
    /// When layout analysis finds more words than this, stop before recognising any of them and
    /// throw ``OCRError/tooManyWords(found:limit:)`` (nil: no limit). For a region that should
    /// hold a few words, a crowd of them is noise, and recognising noise is what costs.
    public var maximumWords: Int?
    /// How Tesseract turns the image black and white before reading it.
    public var binarization: Binarization

    /// Defaults: lines, automatic layout, no whitelist, 300 dpi, inverted retries on, no word limit,
    /// one global threshold.
    public init(
        level: RecognitionLevel = .line,
        pageSegmentation: PageSegmentationMode = .auto,
        characterWhitelist: String? = nil,
        includeCharacterConfidences: Bool = false,
        deadlineMilliseconds: Int? = nil,
        sourceResolution: Int = 300,
        retryInverted: Bool = true,
        maximumWords: Int? = nil,
        binarization: Binarization = .global
    ) {
        self.level = level
        self.pageSegmentation = pageSegmentation
        self.characterWhitelist = characterWhitelist
        self.includeCharacterConfidences = includeCharacterConfidences
        self.deadlineMilliseconds = deadlineMilliseconds
        self.sourceResolution = sourceResolution
        self.retryInverted = retryInverted
        self.maximumWords = maximumWords
        self.binarization = binarization
    }
}

/// Tesseract's thresholding (its `thresholding_method`; raw values are Tesseract's).
public enum Binarization: Int, Sendable, CaseIterable, Codable {
    /// One Otsu threshold for the whole image (Tesseract's default). A shadow or a dark margin
    /// beside light paper can put the threshold under both paper and print, and nothing is read.
    case global = 0
    /// Otsu thresholds per tile, smoothed between tiles (Leptonica's adaptive Otsu): print on
    /// unevenly lit paper keeps its contrast where it lies.
    case adaptive = 1
}
