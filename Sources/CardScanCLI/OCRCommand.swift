import ArgumentParser
import CardScanOCR
import Foundation

/// `cardscan ocr PHOTO`: what the OCR engine sees, one observation per line.
struct OCRCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocr",
        abstract: "Print the text Tesseract finds in an image, with confidences and boxes.",
        discussion: """
        Boxes are normalised to 0…1 with the origin at the bottom-left (Apple Vision's convention): \
        x, y (bottom edge), width, height. Useful to see why a scan went wrong.
        Examples:
          cardscan ocr photo.jpg
          cardscan ocr photo.jpg --level word --psm 11 --json
          cardscan ocr shadowed-text-box.png --psm 6 --binarization adaptive
        """
    )

    @Argument(help: ArgumentHelp("Image file (JPEG, PNG, TIFF, WebP, BMP, GIF).", valueName: "photo"))
    var photo: String

    @Flag(help: "Print one JSON object instead of text lines.")
    var json = false

    @Option(help: "Observation level: line or word.")
    var level: RecognitionLevel = .line

    @Option(help: ArgumentHelp("Tesseract page-segmentation mode: 3 auto, 4 column, 6 block, 7 line, 8 word, 11 sparse, 13 raw line.", valueName: "mode"))
    var psm: PageSegmentationMode = .auto

    @Option(help: ArgumentHelp("Only output these characters.", valueName: "chars"))
    var whitelist: String?

    @Option(help: ArgumentHelp("Black and white by one threshold (global, Tesseract's default) or one per part of the image (adaptive: for uneven light, a shadow, a dark margin).", valueName: "global|adaptive"))
    var binarization: Binarization = .global

    @Option(help: ArgumentHelp("Only read this rectangle, in pixels from the top-left: x,y,width,height.", valueName: "x,y,w,h"))
    var region: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        do {
            let image = try Image(contentsOf: photo, options: .init(grayscale: false))
            let recognizer = try TextRecognizer(configuration: .init(tessdataPath: global.tessdata))
            let observations = try recognizer.recognize(
                image, region: try parsedRegion(), options: RecognitionOptions(level: level, pageSegmentation: psm, characterWhitelist: whitelist,
                                                               binarization: binarization))
            if json {
                let report = OCRReport(file: photo, width: image.width, height: image.height,
                                       observations: observations.map(OCRReport.Observation.init))
                print(try JSONOutput.string(report))
            } else {
                for o in observations {
                    print("\(String(format: "%.2f", o.confidence))  \(o.boundingBox)  \(o.text)")
                }
                if observations.isEmpty { Terminal.note("\(photo): no text found") }
            }
        } catch let error as OCRError {
            throw CLIError(error.description)
        }
    }
}

extension OCRCommand {
    func parsedRegion() throws -> PixelRect? {
        guard let region else { return nil }
        let parts = region.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts[2] > 0, parts[3] > 0 else {
            throw ValidationError("--region takes four whole numbers x,y,width,height (got '\(region)')")
        }
        return PixelRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }
}

extension RecognitionLevel: ExpressibleByArgument {}

extension Binarization: ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Self.allCases.first(where: { "\($0)" == argument }) else { return nil }
        self = value
    }

    public static var allValueStrings: [String] { allCases.map { "\($0)" } }
    public var defaultValueDescription: String { "\(self)" }
}

extension PageSegmentationMode: ExpressibleByArgument {
    public init?(argument: String) {
        guard let raw = Int(argument), let mode = PageSegmentationMode(rawValue: raw) else { return nil }
        self = mode
    }
}

/// The `ocr --json` document.
struct OCRReport: Encodable {
    struct Box: Encodable { let x, y, width, height: Double }
    struct Observation: Encodable {
        let text: String
        let confidence: Double
        let box: Box
        init(_ o: TextObservation) {
            text = o.text
            confidence = (o.confidence * 1000).rounded() / 1000
            box = Box(x: o.boundingBox.x, y: o.boundingBox.y, width: o.boundingBox.width, height: o.boundingBox.height)
        }
    }
    let file: String
    let width: Int
    let height: Int
    let observations: [Observation]
}
