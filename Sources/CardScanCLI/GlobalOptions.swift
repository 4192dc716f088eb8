import ArgumentParser
import CardReader
import CardScanOCR
import Foundation

/// Options every subcommand that touches data accepts: where user data, the catalog and the
/// Tesseract models live.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp(
        "Folder for cardscan's databases.",
        discussion: "Default: $CARDSCAN_HOME, else $XDG_DATA_HOME/cardscan, else ~/.local/share/cardscan.",
        valueName: "path"))
    public var dataDir: String?

    @Option(name: .long, help: ArgumentHelp(
        "Card catalog database (default: <data-dir>/catalog.sqlite; the built-in sample catalog when none was imported).",
        valueName: "path"))
    public var catalog: String?

    @Option(name: .long, help: ArgumentHelp(
        "Folder holding Tesseract's *.traineddata (default: $TESSDATA_PREFIX, else the Debian location).",
        valueName: "path"))
    public var tessdata: String?

    @Option(name: .long, help: ArgumentHelp(
        "Model for the collector lines: own (cardscan's, from Models/ beside the program or in the checkout), general (the --tessdata model), or a folder holding cardscan_collector.traineddata (DIR:LANG: LANG.traineddata from DIR, any Tesseract model, for comparisons).",
        discussion: "Default: see Models/README.md; $CARDSCAN_MODELS names the folder of cardscan's models.",
        valueName: "own|general|dir[:lang]"))
    public var collectorModel: CardReader.CollectorModel?

    @Option(name: .long, help: ArgumentHelp(
        "Model for one more look at collector lines the first reads left without a number or set code: auto (cardscan_standard from Models/, when there), none, or DIR[:LANG] (LANG.traineddata from DIR, cardscan_standard unless named).",
        discussion: "Default: auto; see Models/README.md.",
        valueName: "auto|none|dir[:lang]"))
    public var secondModel: CardReader.SecondModel?

    public init() {}

    /// The reader's options these flags set (models; the rest at their defaults).
    public var readerOptions: CardReader.Options {
        var options = CardReader.Options(tessdataPath: tessdata)
        if let collectorModel { options.collectorModel = collectorModel }
        if let secondModel { options.secondModel = secondModel }
        return options
    }

    /// A data folder that is a file (or lies under one) is refused up front, naming where the
    /// path came from: it once gave a raw Foundation error, or "the collection is empty".
    public func validate() throws {
        let env = ProcessInfo.processInfo.environment
        let source = dataDir.map { _ in "--data-dir" } ?? (env["CARDSCAN_HOME"].map { $0.isEmpty ? nil : "CARDSCAN_HOME" } ?? nil)
        var url = dataDirectory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url = url.deletingLastPathComponent() }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue {
            let what = url.path == dataDirectory.standardizedFileURL.path ? "is a file" : "lies under the file \(url.path)"
            throw CLIError("\(dataDirectory.path): the data folder\(source.map { " (\($0))" } ?? "") \(what), not a folder")
        }
    }

    /// The resolved data directory (not created).
    public var dataDirectory: URL {
        DataPaths.dataDirectory(explicit: dataDir, environment: ProcessInfo.processInfo.environment)
    }

    /// The resolved catalog database path (may not exist yet).
    public var catalogURL: URL {
        if let catalog { return URL(fileURLWithPath: catalog) }
        return dataDirectory.appendingPathComponent("catalog.sqlite")
    }

    /// The resolved user collection database path.
    public var collectionURL: URL {
        dataDirectory.appendingPathComponent("collection.sqlite")
    }
}

extension CardReader.CollectorModel: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "own": self = .own
        case "general": self = .general
        case "": return nil
        default:
            let (folder, language) = modelFolder(argument)
            self = .folder(folder, language: language ?? OwnModels.collector)
        }
    }
}

extension CardReader.SecondModel: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "auto": self = .automatic
        case "none": self = .none
        case "": return nil
        default:
            let (folder, language) = modelFolder(argument)
            self = .folder(folder, language: language ?? OwnModels.standard)
        }
    }
}

/// `DIR:LANG` → (DIR, LANG), `DIR` → (DIR, nil): a model named by its language in a folder. A colon
/// inside the folder's path is left alone.
private func modelFolder(_ argument: String) -> (folder: String, language: String?) {
    if let colon = argument.lastIndex(of: ":"), !argument[argument.index(after: colon)...].contains("/"),
       colon != argument.startIndex, argument.index(after: colon) != argument.endIndex {
        return (String(argument[..<colon]), String(argument[argument.index(after: colon)...]))
    }
    return (argument, nil)
}

/// Resolution of cardscan's data folder from flags and the environment.
public enum DataPaths {
    /// `explicit`, else `$CARDSCAN_HOME`, else `$XDG_DATA_HOME/cardscan`, else `~/.local/share/cardscan`.
    public static func dataDirectory(explicit: String?, environment: [String: String]) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let home = environment["CARDSCAN_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("cardscan")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/cardscan")
    }
}
