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
    /// The models in `Models/` (by language name).
    static let shipped = ((try? FileManager.default.contentsOfDirectory(atPath: models)) ?? [])
        .filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }.sorted()

    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cardscan-models-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A folder holding a real Tesseract model (Debian's `eng`) under the collector model's name:
    /// where the reader finds a collector model is tested apart from which one ships.
    static func modelsFolder(in dir: URL) throws -> String {
        let folder = dir.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let general = try Tessdata.locate(explicit: nil, languages: ["eng"])
        try FileManager.default.copyItem(atPath: "\(general)/eng.traineddata",
                                         toPath: folder.appendingPathComponent("\(OwnModels.collector).traineddata").path)
        return folder.path
    }

    @Test("every model in Models/ is one the reader knows")
    func shippedAreKnown() {
        #expect(Set(Self.shipped).isSubset(of: OwnModels.all), "\(Self.shipped)")
    }

    @Test("each model shipped in Models/ loads and reads its fixture lines", arguments: shipped)
    func shippedModelReads(name: String) throws {
        let recognizer = try TextRecognizer(configuration: .init(tessdataPath: Self.models, languages: [name]))
        let lines = try recognizer.recognize(try Image(contentsOf: Self.collectorLines),
                                             options: .init(level: .line, pageSegmentation: .sparseText))
        let text = lines.map { $0.text.split(separator: " ").joined(separator: " ") }
        #expect(text.contains("171/274 C"), "read \(text)")
        // The bullet as the collector line parser takes it (the standard model reads it `«`).
        let parsed = CollectorLineParser.parse(lines: text)
        #expect(parsed.setCode == "bfz" && parsed.language == "en", "read \(text)")
        #expect(name == OwnModels.standard || text.contains("BFZ • EN"), "read \(text)")
    }

    @Test("the models folder is found from a checkout's build folder and from an installed program")
    func foundBesideTheProgram() throws {
        let checkout = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: checkout) }
        let models = try Self.modelsFolder(in: checkout)
        let built = checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release/cardscan").path
        #expect(OwnModels.folder(holding: OwnModels.collector, environment: [:], executable: built) == models)
        let prefix = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let installed = try Self.modelsFolder(in: prefix.appendingPathComponent("share/cardscan"))
        let program = prefix.appendingPathComponent("bin/cardscan").path
        #expect(OwnModels.folder(holding: OwnModels.collector, environment: [:], executable: program) == installed)
        #expect(OwnModels.folder(holding: "no_such_model", environment: [:], executable: program) == nil)
        // $CARDSCAN_MODELS is the one place looked in when set.
        #expect(OwnModels.folder(holding: OwnModels.collector, environment: ["CARDSCAN_MODELS": prefix.path], executable: built) == nil)
        #expect(OwnModels.searchedFolders(environment: ["CARDSCAN_MODELS": prefix.path], executable: built) == [prefix.path])
    }

    @Test("the second model: found in Models/ by default, none when asked, a folder without it an error when the reader is made")
    func secondModel() throws {
        var options = CardReader.Options()
        #expect(options.secondModel == .automatic)
        #expect(try CardReader(options: options).secondModelFolder == OwnModels.folder(holding: OwnModels.standard))
        options.secondModel = .none
        #expect(try CardReader(options: options).secondModelFolder == nil)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        options.secondModel = .folder(dir.path, language: OwnModels.standard)
        let error = #expect(throws: OCRError.self) { try CardReader(options: options) }
        #expect(error?.description.contains(dir.path) == true)
        #expect(error?.description.contains(OwnModels.standard) == true)
        #expect(error?.description.contains("--second-model none") == true, "the option that does without it")
    }

    @Test("a reader gives the collector band its own engine only when asked to, and a folder without the model is an error")
    func readerCollectorEngine() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let models = try Self.modelsFolder(in: dir)
        var options = CardReader.Options()
        options.collectorModel = .general
        #expect(try CardReader(options: options).collectorModelFolder == nil)
        options.collectorModel = .folder(models)
        #expect(try CardReader(options: options).collectorModelFolder == models)
        let general = try Tessdata.locate(explicit: nil, languages: ["eng"])
        options.collectorModel = .folder(general, language: "eng")
        #expect(try CardReader(options: options).collectorModelFolder == general)
        options.collectorModel = .folder(dir.path)
        let error = #expect(throws: OCRError.self) { try CardReader(options: options) }
        #expect(error?.description.contains(dir.path) == true)
        #expect(error?.description.contains(OwnModels.collector) == true)
        #expect(error?.description.contains("apt-get") == false)
        // Asked for by name, the own model is found as the search finds it, or its absence is an error.
        options.collectorModel = .own
        if let found = OwnModels.folder(holding: OwnModels.collector) {
            #expect(try CardReader(options: options).collectorModelFolder == found)
        } else {
            #expect(throws: OCRError.self) { try CardReader(options: options) }
        }
    }
}
