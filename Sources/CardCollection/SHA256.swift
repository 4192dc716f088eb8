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
    /// Only a regular file is read: the file is opened without waiting (a FIFO with no writer
    /// would block the open) and its type checked on the open descriptor before the first read.
    public static func hex(ofFile path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw CollectionError.unreadable(path: path, reason: "cannot open the file (\(String(cString: strerror(errno))))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw CollectionError.unreadable(path: path, reason: "not a regular file")
        }
        var hasher = SHA256Hasher()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        } catch {
            throw CollectionError.unreadable(path: path, reason: "\(error)")
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
