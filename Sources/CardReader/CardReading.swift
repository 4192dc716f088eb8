import CardScanOCR
import Foundation

/// A point in pixels of the (EXIF-oriented) photo, top-left origin.
public struct PixelPoint: Sendable, Equatable, Codable {
    /// Column.
    public var x: Double
    /// Row.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The card's four corners in the photo, in the order top-left, top-right, bottom-right,
/// bottom-left **of the upright card** (after the content-based rotation was decided).
public struct CardQuad: Sendable, Equatable, Codable {
    /// Corners TL, TR, BR, BL of the upright card, photo pixels, top-left origin.
    public var corners: [PixelPoint]

    /// Creates a quad from four corners.
    public init(corners: [PixelPoint]) {
        precondition(corners.count == 4, "a quad has four corners")
        self.corners = corners
    }

    /// Corners normalised to 0…1 with the bottom-left origin, for an image of the given size.
    public func normalized(width: Int, height: Int) -> [[Double]] {
        corners.map { [$0.x / Double(width), 1 - $0.y / Double(height)] }
    }
}

/// A value the extractor found, with how sure it is and the text it came from.
public struct ExtractedField<Value: Sendable & Codable & Equatable>: Sendable, Codable, Equatable {
    /// The value (normalised: collector number without leading zeros, Scryfall language code…).
    public var value: Value
    /// 0…1.
    public var confidence: Double
    /// The observed text(s) the value was read from.
    public var sources: [String]

    /// Creates a field.
    public init(value: Value, confidence: Double, sources: [String]) {
        self.value = value
        self.confidence = confidence
        self.sources = sources
    }
}

/// Which generation of card frame the collector information suggests.
public enum FrameEra: String, Sendable, Codable {
    /// 2023+: `0171 C` over `MOM • EN`, no printed set size.
    case modern2023
    /// 2015–2022: `171/274 C` over `BFZ • EN`.
    case modern2015
    /// 2003–2014 (and 1998–2003): `181/350` in the bottom copyright line.
    case classic2003
    /// No collector number found (cards before 1998, or unreadable).
    case unknown
}

/// Everything the reader extracted from one card.
public struct ExtractedFields: Sendable, Codable, Equatable {
    /// The card's title (top-left), snapped to a known name when the reader has a title vocabulary.
    /// `sources[0]` is the title as read (cleaned, before snapping), `sources[1]` the raw OCR line.
    public var title: ExtractedField<String>?
    /// Collector number without leading zeros (`171`, `12a`).
    public var collectorNumber: ExtractedField<String>?
    /// The number exactly as printed (`0171`).
    public var printedNumber: String?
    /// Printed set size (`274` in `171/274`).
    public var setSize: ExtractedField<Int>?
    /// Rarity letter: C, U, R, M, S, L, T.
    public var rarity: ExtractedField<String>?
    /// Set code, lower case as Scryfall writes it (`bfz`).
    public var setCode: ExtractedField<String>?
    /// Scryfall language code (`en`, `es`, `ja`, `zhs`…).
    public var language: ExtractedField<String>?
    /// Frame generation suggested by the collector line.
    public var frameEra: FrameEra
    /// The card's border colour in Scryfall's words (`white` or `black`), when the edges of the
    /// card in the photo decide it; `sources[0]` has each side's vote (top, right, bottom, left).
    public var borderColor: ExtractedField<String>?

    /// Nothing found.
    public init(title: ExtractedField<String>? = nil, collectorNumber: ExtractedField<String>? = nil,
                printedNumber: String? = nil, setSize: ExtractedField<Int>? = nil,
                rarity: ExtractedField<String>? = nil, setCode: ExtractedField<String>? = nil,
                language: ExtractedField<String>? = nil, frameEra: FrameEra = .unknown,
                borderColor: ExtractedField<String>? = nil) {
        self.title = title
        self.collectorNumber = collectorNumber
        self.printedNumber = printedNumber
        self.setSize = setSize
        self.rarity = rarity
        self.setCode = setCode
        self.language = language
        self.frameEra = frameEra
        self.borderColor = borderColor
    }

    /// The collector lines lack what another read of them could add: the number, or the set code
    /// beside a modern number line (one printing a set size; old frames print no set code).
    var lacksCollectorFields: Bool { collectorNumber == nil || (setCode == nil && setSize != nil) }

    /// Takes the collector fields another read of the same lines found and this one lacks: the
    /// number line (number, set size, rarity) and the set line (set code, language) each as a
    /// whole. Returns whether anything was taken.
    mutating func absorbingCollectorFields(of other: ExtractedFields) -> Bool {
        var took = false
        if collectorNumber == nil, let number = other.collectorNumber {
            collectorNumber = number
            printedNumber = other.printedNumber
            setSize = other.setSize ?? setSize
            rarity = other.rarity ?? rarity
            took = true
        }
        if setCode == nil, let set = other.setCode {
            setCode = set
            language = other.language ?? language
            took = true
        }
        if took {
            // A printed set size or a set code belongs to a modern collector line.
            if frameEra == .unknown || (frameEra == .classic2003 && setSize != nil) { frameEra = other.frameEra }
            if frameEra == .classic2003, setSize != nil, setCode != nil { frameEra = .modern2015 }
        }
        return took
    }

    /// Takes the rarity letter another read of the same lines found beside the same number,
    /// when this one lacks it. Returns whether it was taken.
    mutating func absorbingRarity(of other: ExtractedFields) -> Bool {
        guard rarity == nil, let number = other.collectorNumber?.value, number == collectorNumber?.value,
              let letter = other.rarity else { return false }
        rarity = letter
        return true
    }
}

/// A region of the card the reader reads (its name in JSON output).
public enum CardBand: String, Sendable, Codable, CaseIterable {
    /// The title line.
    case title
    /// The collector lines (2015+: `171/274 C` / `BFZ • EN`).
    case collector
    /// The copyright line (2003–2014 frames print the number there).
    case copyright
    /// The type line and the text box below it (rules and flavor text), read as one block.
    case textBox = "text_box"
    /// The bottom lines across the card: the artist credit and the copyright line with its year.
    case credits
    /// Text anywhere in the photo, read sparsely when no card found in it was recognised: a card
    /// the locator missed is still found by its words (boxes are in the turned, reduced photo).
    case photo

    /// The bands whose words are searched as the card's text (`CardCatalog.searchText`).
    public var isCardText: Bool { self == .textBox || self == .credits || self == .photo }
}

/// A text observation from one card region, with its box in card coordinates
/// (0…1, bottom-left origin of the upright card).
public struct CardObservation: Sendable, Codable, Equatable {
    /// Which region was read.
    public var region: CardBand
    /// The recognised text and its confidence; the box is in card coordinates.
    public var observation: TextObservation

    /// Creates one.
    public init(region: CardBand, observation: TextObservation) {
        self.region = region
        self.observation = observation
    }
}

/// Milliseconds spent per stage.
public struct StageTimings: Sendable, Codable, Equatable {
    /// Reading and decoding the file.
    public var decode: Double = 0
    /// Finding the card and deciding its rotation.
    public var locate: Double = 0
    /// Rectifying regions and running Tesseract.
    public var ocr: Double = 0
    /// Catalog matching (filled in by the matcher).
    public var match: Double = 0
    /// Wall time for the whole photo.
    public var total: Double = 0

    /// All zero.
    public init() {}
}

/// The result of reading one card in a photo.
public struct CardReading: Sendable, Codable, Equatable {
    /// The photo.
    public var file: String
    /// Photo size after EXIF orientation.
    public var imageWidth: Int
    /// Photo size after EXIF orientation.
    public var imageHeight: Int
    /// Where the card is; nil when no card-shaped region was found (the whole image was read).
    public var quad: CardQuad?
    /// Clockwise rotation (0, 90, 180, 270) of the card relative to the EXIF-oriented photo.
    public var rotation: Int
    /// How sure the locator is that `quad` is a card (0…1).
    public var locateConfidence: Double
    /// The extracted fields.
    public var fields: ExtractedFields
    /// What was read in each region.
    public var observations: [CardObservation]
    /// Time per stage.
    public var timings: StageTimings
    /// The day the photo was taken by the camera's clock (`YYYY-MM-DD`, EXIF), if recorded: no
    /// printing released well after it can be in the photo.
    public var captureDay: String?
    /// Other places the card may be, each with its title band as read there: cards placed around
    /// the photo's text boxes, then around the located region as the card's art, when no known
    /// name was read (the locator may have found a card whose frame merges with a dark table as
    /// its text box, or the whole photo; a card cut by the photo's edge as its art). Their text decides:
    /// read when nothing at `quad` names a card (`CardScanner`). Not encoded: a reading decoded
    /// from JSON has none (and so is not `==` to one that had some).
    public var elsewhere: [CardReading] = []

    private enum CodingKeys: String, CodingKey {
        case file, imageWidth, imageHeight, quad, rotation, locateConfidence, fields, observations, timings, captureDay
    }

    /// Creates a reading.
    public init(file: String, imageWidth: Int, imageHeight: Int, quad: CardQuad?, rotation: Int,
                locateConfidence: Double, fields: ExtractedFields, observations: [CardObservation], timings: StageTimings,
                captureDay: String? = nil, elsewhere: [CardReading] = []) {
        self.file = file
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.quad = quad
        self.rotation = rotation
        self.locateConfidence = locateConfidence
        self.fields = fields
        self.observations = observations
        self.timings = timings
        self.captureDay = captureDay
        self.elsewhere = elsewhere
    }
}
