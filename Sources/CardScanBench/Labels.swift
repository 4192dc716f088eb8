import Foundation

/// One labelled card in one image (a row of `labels.csv` or of the fixtures' `truth.csv`).
public struct BenchLabel: Sendable, Codable, Equatable {
    /// Image path relative to the photo folder.
    public var file: String
    /// Card name (`Front // Back` for double-faced cards); empty when unlabelled.
    public var name: String
    /// Lower-case Scryfall set code; empty when unknown.
    public var set: String
    /// Collector number in Scryfall form; empty when unknown.
    public var collectorNumber: String
    /// `photo_single`, `photo_multi`, `scan`, `photo_multi_or_single`, `synthetic`, `unlabelled`.
    public var kind: String
    /// Other columns (`notes`, and for fixtures `style`, `variant`, `rotation`, `printed_name`, …).
    public var attributes: [String: String]

    /// The title printed on the card: the fixtures' `printed_name` when it is not the card's name
    /// (a foreign printing, the back face of a double-faced card), else the name.
    public var printedTitle: String { attributes["printed_name"].flatMap { $0.isEmpty ? nil : $0 } ?? name }

    /// Creates a label.
    public init(file: String, name: String, set: String, collectorNumber: String, kind: String, attributes: [String: String] = [:]) {
        self.file = file
        self.name = name
        self.set = set
        self.collectorNumber = collectorNumber
        self.kind = kind
        self.attributes = attributes
    }
}

/// One image to benchmark, with every label row that names it (several for `photo_multi`).
public struct BenchPhoto: Sendable, Codable, Equatable {
    /// Path relative to the photo folder, as in the labels file.
    public var file: String
    /// Absolute or cwd-relative path to open.
    public var path: String
    /// The label rows of this image (at least one).
    public var labels: [BenchLabel]

    /// Kind of the first label row.
    public var kind: String { labels.first?.kind ?? "unlabelled" }

    /// The first two folder components of `file` (`alexandrearpin/photos`), `.` for top-level files.
    public var folder: String {
        let dirs = file.split(separator: "/").dropLast()
        return dirs.isEmpty ? "." : dirs.prefix(2).joined(separator: "/")
    }
}

/// Which labels file format was read.
public enum LabelFormat: String, Sendable, Codable {
    /// `file,name,set,collector_number,kind,notes` (the shared photos).
    case photoLabels = "labels.csv"
    /// `file,name,set,collector_number,set_size,rarity,language,style,variant,rotation,notes`
    /// (the generated fixtures; kind becomes `synthetic`).
    case fixtureTruth = "truth.csv"
    /// No labels file: every image in the folder, unlabelled.
    case none
}

/// Loads labels in either format and groups them by image.
public enum LabelLoader {
    /// Errors while loading labels.
    public enum Failure: Error, CustomStringConvertible {
        /// The labels file could not be read.
        case unreadable(String, String)
        /// A required column is missing.
        case missingColumn(String, String)

        /// Human-readable text.
        public var description: String {
            switch self {
            case .unreadable(let path, let why): return "cannot read labels \(path): \(why)"
            case .missingColumn(let path, let column): return "labels \(path) has no '\(column)' column"
            }
        }
    }

    /// The labels file used by default for a folder: `labels.csv`, else `truth.csv`, else none.
    public static func defaultLabelsFile(in folder: String) -> String? {
        for name in ["labels.csv", "truth.csv"] {
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Reads a labels file (either format, told apart by its header) and returns one entry per
    /// image in order of first appearance. `file` paths are resolved against `photoFolder`.
    public static func load(labelsFile: String, photoFolder: String) throws -> (format: LabelFormat, photos: [BenchPhoto]) {
        let text: String
        do { text = try String(contentsOfFile: labelsFile, encoding: .utf8) } catch {
            throw Failure.unreadable(labelsFile, error.localizedDescription)
        }
        let (header, records) = LabelsCSV.records(text)
        guard header.contains("file") else { throw Failure.missingColumn(labelsFile, "file") }
        let isTruth = !header.contains("kind") && (header.contains("style") || header.contains("variant") || header.contains("set_size"))
        let format: LabelFormat = isTruth ? .fixtureTruth : .photoLabels
        let known: Set<String> = ["file", "name", "set", "collector_number", "kind"]
        let labels: [BenchLabel] = records.compactMap { r in
            guard let file = r["file"], !file.isEmpty else { return nil }
            var attributes: [String: String] = [:]
            for (k, v) in r where !known.contains(k) && !v.isEmpty { attributes[k] = v }
            let kind = isTruth ? "synthetic" : (r["kind"].flatMap { $0.isEmpty ? nil : $0 } ?? "unlabelled")
            return BenchLabel(file: file, name: r["name"] ?? "", set: (r["set"] ?? "").lowercased(),
                              collectorNumber: r["collector_number"] ?? "", kind: kind, attributes: attributes)
        }
        return (format, group(labels, photoFolder: photoFolder))
    }

    /// Every image file under `folder` (recursively), unlabelled; used when there is no labels file.
    public static func scanFolder(_ folder: String) -> [BenchPhoto] {
        let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "tif", "tiff", "bmp", "gif", "pnm", "ppm", "pgm"]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let item = walker.nextObject() as? String {
            if extensions.contains((item as NSString).pathExtension.lowercased()) { files.append(item) }
        }
        let labels = files.sorted().map { BenchLabel(file: $0, name: "", set: "", collectorNumber: "", kind: "unlabelled") }
        return group(labels, photoFolder: folder)
    }

    static func group(_ labels: [BenchLabel], photoFolder: String) -> [BenchPhoto] {
        var order: [String] = []
        var byFile: [String: [BenchLabel]] = [:]
        for label in labels {
            if byFile[label.file] == nil { order.append(label.file) }
            byFile[label.file, default: []].append(label)
        }
        return order.map { file in
            let path = file.hasPrefix("/") ? file : (photoFolder as NSString).appendingPathComponent(file)
            return BenchPhoto(file: file, path: path, labels: byFile[file] ?? [])
        }
    }
}
