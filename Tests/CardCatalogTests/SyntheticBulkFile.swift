import Foundation
@testable import CardCatalog

/// A large Scryfall-format bulk file for the streaming-memory test, made with the importer's own
/// streaming reader (internal to CardCatalog, hence here and not in CardCatalogBench).
enum SyntheticBulkFile {
    /// Writes a large Scryfall-format bulk file for memory tests: the card objects of `source` (a
    /// Scryfall bulk file, `.json` or `.json.gz`) repeated until at least `targetBytes` are written,
    /// each copy with altered ids so every object is a new printing. One JSON array on one line, like
    /// Scryfall's own files. Streams both ways, so memory stays small. Returns (objects, bytes) written.
    @discardableResult
    static func writeScryfall(from source: String, to destination: URL, targetBytes: Int) throws -> (objects: Int, bytes: Int) {
        _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
        guard let out = FileHandle(forWritingAtPath: destination.path) else {
            throw CatalogError.unreadable(path: destination.path, reason: "cannot create file")
        }
        defer { try? out.close() }
        var pending = Data("[".utf8)
        var bytes = 0, objects = 0, copy = 0
        let idKey = Data("\"id\":".utf8)
        while bytes < targetBytes {
            let stream = JSONElementStream(reader: try CompressedFileReader(path: source))
            let before = objects
            try stream.run { event in
                guard case let .rootArrayElement(original) = event, bytes < targetBytes else { return }
                var element = original
                if copy > 0, let key = element.range(of: idKey),
                   let quote = element[key.upperBound...].firstIndex(of: UInt8(ascii: "\"")) {
                    // Replace the first 8 hex digits of the id with the copy number.
                    let start = quote + 1
                    if start + 8 <= element.count {
                        element.replaceSubrange(start..<(start + 8), with: Data(String(format: "%08x", copy).utf8))
                    }
                }
                if objects > 0 { pending.append(UInt8(ascii: ",")) }
                pending.append(element)
                objects += 1
                if pending.count > 1 << 20 {
                    bytes += pending.count
                    try out.write(contentsOf: pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            if objects == before { break }
            copy += 1
        }
        pending.append(UInt8(ascii: "]"))
        bytes += pending.count
        try out.write(contentsOf: pending)
        return (objects, bytes)
    }
}
