import CardScanOCR
import Foundation
import Testing

@Suite("Text recogniser (real Tesseract)")
struct TextRecognizerTests {
    /// The first flat (scan-like) synthetic card and its truth row.
    static func flatFixture() throws -> (path: String, name: String) {
        let row = try #require(try FixturePaths.truthRows().first { $0["variant"] == "flat" })
        return (FixturePaths.synthetic.appendingPathComponent(row["file"]!).path, row["name"]!)
    }

    @Test("the title of a fixture card comes back with confidence > 0.8 near the top")
    func titleAtTop() throws {
        let (path, name) = try Self.flatFixture()
        let recognizer = try TextRecognizer()
        // Whole page, word level: the title's words (the mana symbols beside them lower a line's score).
        let words = try recognizer.recognize(try Image(contentsOf: path), options: .init(level: .word))
        for part in name.split(separator: " ").map(String.init) {
            let word = try #require(words.first { $0.text == part }, "\(part) not in \(words.map(\.text))")
            #expect(word.confidence > 0.8)
            #expect(word.boundingBox.y + word.boundingBox.height > 0.8)
            #expect(word.boundingBox.x >= 0 && word.boundingBox.maxX <= 1)
        }
    }

    @Test("a text box half in shadow reads nothing by one threshold, and its words thresholded part by part")
    func shadowedText() throws {
        // The flat Counterspell's text box, its left 45% darkened to 30% (a shadow across the card).
        let gray = try Image(contentsOf: FixturePaths.synthetic.appendingPathComponent("counterspell_flat.png").path).grayPixels()
        let x0 = gray.width * 8 / 100, y0 = gray.height * 62 / 100, w = gray.width * 84 / 100, h = gray.height * 28 / 100
        var box = GrayImage(width: w, height: h, fill: 0)
        for y in 0..<h {
            for x in 0..<w {
                let v = gray.pixels[(y0 + y) * gray.width + x0 + x]
                box.pixels[y * w + x] = x * 100 < w * 45 ? UInt8(Int(v) * 3 / 10) : v
            }
        }
        let recognizer = try TextRecognizer()
        func text(_ binarization: Binarization) throws -> String {
            try recognizer.recognize(box, options: .init(pageSegmentation: .singleBlock, binarization: binarization)).map(\.text).joined(separator: " ")
        }
        let global = try text(.global), adaptive = try text(.adaptive)
        #expect(!global.contains("target"), "the premise: one threshold loses the shadowed words (\(global))")
        #expect(adaptive.contains("Counter target"), "\(adaptive)")
        // The engine goes back to one threshold when asked.
        #expect(try text(.global) == global)
    }

    @Test("the line-image hook is in effect in a program that exports it (this test binary does)")
    func lineImageHook() throws {
        let (path, name) = try Self.flatFixture()
        let recognizer = try TextRecognizer()
        let lines = try recognizer.recognize(try Image(contentsOf: path))
        // The text is unchanged by the hook: the title still reads.
        #expect(lines.contains { $0.text.contains(name.split(separator: " ")[0]) })
        #expect(TextRecognizer.storesLineImagesUncompressed)
    }

    @Test("a word limit stops before recognising a crowded image, and lets a sparse one through")
    func wordLimit() throws {
        let (path, name) = try Self.flatFixture()
        let recognizer = try TextRecognizer()
        let image = try Image(contentsOf: path)
        // A whole card holds dozens of words (rules text, type line, collector lines).
        #expect {
            _ = try recognizer.recognize(image, options: .init(pageSegmentation: .singleBlock, maximumWords: 5))
        } throws: { error in
            guard case let OCRError.tooManyWords(found, limit) = error else { return false }
            return found > 5 && limit == 5
        }
        // The same engine then reads normally, within a generous limit.
        let lines = try recognizer.recognize(image, options: .init(pageSegmentation: .singleBlock, maximumWords: 1000))
        #expect(lines.contains { $0.text.contains(name.split(separator: " ")[0]) })
    }

    @Test("a region's boxes are normalised to the region with a bottom-left origin")
    func regionBoxes() throws {
        let (path, name) = try Self.flatFixture()
        let image = try Image(contentsOf: path)
        let recognizer = try TextRecognizer()
        // The title bar's left 79% (the mana cost sits to the right of it).
        let band = PixelRect(x: 0, y: 0, width: image.width * 79 / 100, height: image.height / 8)
        let observations = try recognizer.recognize(image, region: band, options: .init(pageSegmentation: .singleBlock))
        let title = try #require(observations.first { $0.text.localizedCaseInsensitiveContains(name) })
        // In the top eighth of the card the title fills most of the band's height.
        #expect(title.boundingBox.height > 0.2)
        #expect(title.boundingBox.y > 0.05 && title.boundingBox.maxY < 0.98)
        // Word level splits the title into its words.
        #expect(title.confidence > 0.8)
        let words = try recognizer.recognize(image, region: band, options: .init(level: .word, pageSegmentation: .singleBlock))
        #expect(words.count >= name.split(separator: " ").count)
        #expect(words.allSatisfy { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    @Test("the EXIF-rotated variant reads the same title as the upright photo")
    func exifRotatedReadsSame() throws {
        let rows = try FixturePaths.truthRows()
        let rotated = try #require(rows.first { $0["variant"] == "exif6" })
        let recognizer = try TextRecognizer()
        let observations = try recognizer.recognize(
            try Image(contentsOf: FixturePaths.synthetic.appendingPathComponent(rotated["file"]!).path),
            options: .init(pageSegmentation: .sparseText))
        let text = observations.map(\.text).joined(separator: " ")
        #expect(text.localizedCaseInsensitiveContains(rotated["name"]!), "read: \(text)")
    }

    @Test("a whitelist constrains the output characters")
    func whitelist() throws {
        let (path, _) = try Self.flatFixture()
        let image = try Image(contentsOf: path)
        let recognizer = try TextRecognizer()
        let band = PixelRect(x: 0, y: 0, width: image.width, height: image.height / 8)
        let digits = try recognizer.recognize(image, region: band, options: .init(pageSegmentation: .singleLine, characterWhitelist: "0123456789"))
        #expect(digits.allSatisfy { $0.text.allSatisfy { $0.isNumber || $0 == " " } })
    }

    @Test("a missing language model gives the install hint")
    func missingModel() throws {
        let dir = try FixturePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: OCRError.self) {
            try TextRecognizer(configuration: .init(tessdataPath: dir.path, languages: ["eng"]))
        }
        #expect(error?.description.contains("apt-get install tesseract-ocr-eng") == true)
        #expect(error?.description.contains(dir.path) == true)
    }

    @Test("1,000 recognitions keep resident memory flat")
    func noLeak() throws {
        let (path, _) = try Self.flatFixture()
        let gray = try Image(contentsOf: path, options: .init(grayscale: true)).grayPixels()
        // A title-sized strip in Swift memory, handed over 1,000 times.
        let strip = GrayImage(width: gray.width, height: gray.height / 10,
                              pixels: Array(gray.pixels.prefix(gray.width * (gray.height / 10))))
        let recognizer = try TextRecognizer()
        let options = RecognitionOptions(pageSegmentation: .singleLine, includeCharacterConfidences: true)
        for _ in 0..<50 { _ = try recognizer.recognize(strip, options: options) } // warm-up
        // RSS is process-wide and other suites run in parallel, so the bound is loose: a leaked copy
        // of the strip per call (~100 KB) would add ~100 MB; the Tesseract C API frees are what is tested.
        let before = FixturePaths.residentBytes()
        for _ in 0..<1000 { _ = try recognizer.recognize(strip, options: options) }
        let after = FixturePaths.residentBytes()
        #expect(after - before < 32 * 1024 * 1024, "RSS grew \(after - before) bytes over 1,000 recognitions")
    }
}
