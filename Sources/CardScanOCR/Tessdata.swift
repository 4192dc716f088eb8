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
