import CardScanFiles
import Crypto
import Foundation

/// SHA-256 of photos for the collection: the content hash that recognises a renamed or moved
/// photo as already imported. The digest is swift-crypto's; this adds streaming a file safely
/// and the hex form the collection stores.
public struct SHA256Hasher {
    private var digest = Crypto.SHA256()

    public init() {}

    /// Adds bytes to the message.
    public mutating func update(_ data: some DataProtocol) {
        digest.update(data: data)
    }

    /// The 32-byte digest of everything added.
    public mutating func finalize() -> [UInt8] {
        Array(digest.finalize())
    }

    /// Lower-case hex SHA-256 of `data`.
    public static func hex(of data: some DataProtocol) -> String {
        var hasher = SHA256Hasher()
        hasher.update(data)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Lower-case hex SHA-256 of a file's bytes, read in 1 MiB chunks. Throws naming the file.
    /// Only a regular file is read (`RegularFile.open`: a FIFO or a device is refused before the
    /// first read).
    public static func hex(ofFile path: String) throws -> String {
        let fd: Int32
        switch RegularFile.open(path) {
        case let .success(opened): fd = opened
        case let .failure(problem): throw CollectionError.unreadable(path: path, reason: problem.reason)
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        } catch {
            throw CollectionError.unreadable(path: path, reason: "\(error)")
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
