import CardReader
import CardScanOCR
import Foundation
import Testing

/// The models the project ships in `Models/` (`scripts/train-model`) and how the reader finds them.
@Suite("Own models (real Tesseract)")
struct OwnModelTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let models = packageRoot.appendingPathComponent("Models").path
    /// `171/274 C` over `BFZ • EN`, drawn plainly (`Models/training/lines.py fixture`).
    static let collectorLines = packageRoot.appendingPathComponent("Fixtures/models/collector-lines.png").path

    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-models-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("each shipped model loads from Models/ and reads its fixture lines", arguments: OwnModels.all)
    func shippedModelReads(name: String) throws {
        let recognizer = try TextRecognizer(configuration: .init(tessdataPath: Self.models, languages: [name]))
        let lines = try recognizer.recognize(try Image(contentsOf: Self.collectorLines),
                                             options: .init(level: .line, pageSegmentation: .sparseText))
        let text = lines.map { $0.text.split(separator: " ").joined(separator: " ") }
        #expect(text.contains("171/274 C"), "read \(text)")
        #expect(text.contains("BFZ • EN"), "read \(text)")
    }

    @Test("the models folder is found from a checkout's build folder and from an installed program")
    func foundBesideTheProgram() throws {
        let checkout = Self.packageRoot.appendingPathComponent(".build/release/cardscan").path
        #expect(OwnModels.folder(holding: OwnModels.collector, environment: [:], executable: checkout) == Self.models)
        let prefix = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let installed = prefix.appendingPathComponent("share/cardscan/Models")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.models)/\(OwnModels.collector).traineddata",
                                         toPath: installed.appendingPathComponent("\(OwnModels.collector).traineddata").path)
        let program = prefix.appendingPathComponent("bin/cardscan").path
        #expect(OwnModels.folder(holding: OwnModels.collector, environment: [:], executable: program) == installed.path)
        // $CARDSCAN_MODELS is the one place looked in when set.
        #expect(OwnModels.folder(holding: OwnModels.collector, environment: ["CARDSCAN_MODELS": prefix.path], executable: checkout) == nil)
        #expect(OwnModels.searchedFolders(environment: ["CARDSCAN_MODELS": prefix.path], executable: checkout) == [prefix.path])
    }

    @Test("a reader gives the collector band its own engine only when asked to, and a folder without the model is an error")
    func readerCollectorEngine() throws {
        #expect(try CardReader(options: .init()).collectorModelFolder == (CardReader.CollectorModel.standard == .general ? nil : Self.models))
        var options = CardReader.Options()
        options.collectorModel = .general
        #expect(try CardReader(options: options).collectorModelFolder == nil)
        options.collectorModel = .own
        #expect(try CardReader(options: options).collectorModelFolder == Self.models)
        options.collectorModel = .folder(Self.models)
        #expect(try CardReader(options: options).collectorModelFolder == Self.models)
        let empty = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: empty) }
        options.collectorModel = .folder(empty.path)
        let error = #expect(throws: OCRError.self) { try CardReader(options: options) }
        #expect(error?.description.contains(empty.path) == true)
        #expect(error?.description.contains(OwnModels.collector) == true)
        #expect(error?.description.contains("apt-get") == false)
    }
}
