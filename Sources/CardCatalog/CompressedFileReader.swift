import CZlib
import Foundation

/// Reads a file in chunks, inflating it when it is gzip-compressed (zlib's `gzread` passes plain
/// files through unchanged), so `.json` and `.json.gz` are read the same way with bounded memory.
final class CompressedFileReader {
    private var file: gzFile?
    let path: String
    /// Bytes of uncompressed data delivered so far.
    private(set) var bytesRead: Int = 0

    /// Opens `path`; throws `CatalogError.unreadable` naming the file when it cannot be opened.
    init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CatalogError.unreadable(path: path, reason: "no such file")
        }
        guard let handle = gzopen(path, "rb") else {
            throw CatalogError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        file = handle
        gzbuffer(handle, 1 << 18)
    }

    deinit { if let file { gzclose(file) } }

    /// Fills `buffer` with up to `buffer.count` bytes; returns 0 at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let file, let base = buffer.baseAddress else { return 0 }
        let n = gzread(file, base, UInt32(buffer.count))
        if n < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw CatalogError.malformedFile(path: path, reason: "corrupt or truncated compressed data (\(message))")
        }
        // A truncated gzip stream reads as a short file; zlib flags it through gzerror (Z_BUF_ERROR).
        if n == 0 {
            var code: Int32 = 0
            _ = gzerror(file, &code)
            if code != Z_OK && code != Z_STREAM_END {
                throw CatalogError.malformedFile(path: path, reason: "truncated compressed data")
            }
        }
        bytesRead += Int(n)
        return Int(n)
    }

    /// Size of the file on disk (compressed size for `.gz`).
    var fileSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Compressed bytes consumed so far (for progress on `.gz` files).
    var compressedOffset: Int {
        guard let file else { return 0 }
        return Int(gzoffset(file))
    }
}
