import ArgumentParser
import CardReader
import CardScanOCR
import Foundation

/// `cardscan read PHOTO`: the fields the reader extracts and where it found the card.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Find the card in a photo and print the fields read from it (no catalog needed).",
        discussion: """
        Prints the title, collector number, set size, rarity, set code and language as read, \
        each with a confidence, the frame era, the border colour (white or black, when the card's \
        edges decide it; it tells old reprints apart), plus the card's corners in the photo.
        Examples:
          cardscan read photo.jpg
          cardscan read photo.jpg --annotate why.png   # outline, text boxes, values
          cardscan read photo.jpg --json   # keys in snake_case, as scan --json
          cardscan read photo.jpg --text   # also the type line, rules text and credits
          cardscan read photo.jpg --bands out/bands   # the bands Tesseract is given, as PNG
        """
    )

    @Argument(help: ArgumentHelp("Photo or scan of one card.", valueName: "photo"))
    var photo: String

    @Flag(help: "Print the full reading as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write the photo with the card outline, text boxes and values drawn on it.", valueName: "out.png"))
    var annotate: String?

    @Flag(help: "Also read the type line, rules and flavor text, artist and copyright lines (slower).")
    var text = false

    @Option(help: ArgumentHelp("Write the title, collector and copyright bands as the reader cuts them for the OCR, as DIR/<photo>.<band>.png.",
                               valueName: "dir"))
    var bands: String?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        do {
            let reader = try CardReader(options: global.readerOptions)
            // Decode once: in colour only when drawing on the photo, the grey decode kept for --text.
            var reading: CardReading
            var decoded: Image?, gray: Image?
            if annotate != nil {
                (reading, decoded) = try reader.readKeepingPhoto(contentsOf: photo)
            } else if text || bands != nil {
                let (readings, image) = try reader.readAllKeepingImage(contentsOf: photo, limit: 1)
                (reading, gray) = (readings[0], image)
            } else {
                reading = try reader.read(contentsOf: photo)
            }
            if text, let image = gray ?? decoded {
                reading.observations += try reader.readText(of: reading, in: image)
            }
            if let bands, let image = gray ?? decoded {
                try writeBands(reader.bands(of: reading, in: image), to: bands)
            }
            if json {
                print(try JSONOutput.string(reading, pretty: true, snakeCase: true))
            } else {
                ReadingPrinter.print(reading)
            }
            if let annotate, let decoded {
                try Annotator.write(reading, on: decoded, to: annotate)
                Terminal.note("wrote \(annotate)")
            }
        } catch let error as OCRError {
            throw CLIError(error.description)
        }
    }

    private func writeBands(_ patches: [(band: CardBand, image: GrayImage)], to folder: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("\(folder): cannot create the bands folder: \(error.localizedDescription)")
        }
        let stem = ((photo as NSString).lastPathComponent as NSString).deletingPathExtension
        for (band, image) in patches where image.width > 0 && image.height > 0 {
            try ImageWriter.writePNG(image, to: (folder as NSString).appendingPathComponent("\(stem).\(band.rawValue).png"))
        }
    }
}

/// Human-readable output of a reading.
enum ReadingPrinter {
    static func print(_ r: CardReading) {
        func line(_ label: String, _ value: String?, _ confidence: Double?) {
            let c = confidence.map { String(format: "  (%.0f%%)", $0 * 100) } ?? ""
            Swift.print("\(label.padding(toLength: 18, withPad: " ", startingAt: 0))\(value ?? "-")\(c)")
        }
        let f = r.fields
        line("title", f.title?.value, f.title?.confidence)
        line("collector number", f.collectorNumber.map { n in f.printedNumber.map { "\(n.value) (printed \($0))" } ?? n.value }, f.collectorNumber?.confidence)
        line("set size", f.setSize.map { String($0.value) }, f.setSize?.confidence)
        line("rarity", f.rarity?.value, f.rarity?.confidence)
        line("set code", f.setCode?.value, f.setCode?.confidence)
        line("language", f.language?.value, f.language?.confidence)
        line("frame", f.frameEra.rawValue, nil)
        line("border", f.borderColor.map { "\($0.value) (sides: \($0.sources.first ?? "?"))" }, f.borderColor?.confidence)
        let corners = r.quad?.corners.map { String(format: "(%.0f,%.0f)", $0.x, $0.y) }.joined(separator: " ")
        line("card corners", corners.map { "\($0)  rotation \(r.rotation)°" }, r.locateConfidence)
        for band in [CardBand.textBox, .credits] {
            let lines = r.observations.filter { $0.region == band }.map(\.observation.text)
            guard !lines.isEmpty else { continue }
            line(band == .textBox ? "type & text box" : "credits", lines[0], nil)
            for text in lines.dropFirst() { line("", text, nil) }
        }
        Swift.print(String(format: "time              %.0f ms (decode %.0f, locate %.0f, ocr %.0f)",
                           r.timings.total, r.timings.decode, r.timings.locate, r.timings.ocr))
    }
}
