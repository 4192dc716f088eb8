import CZlib
import CardScanFiles
import Foundation

/// Reads a file in chunks, inflating it when it is gzip-compressed (plain files are passed
/// through), so `.json` and `.json.gz` are read the same way with bounded memory.
///
/// zlib's `inflate` is driven directly rather than through `gzread`, which silently ignores
/// anything after the last gzip member: a valid `.gz` followed by garbage imported as if whole.
/// Here the data after a member must be another member (concatenated gzip files are valid) or
/// nothing; a cut stream is reported as truncated.
final class CompressedFileReader {
    let path: String
    /// Bytes of uncompressed data delivered so far.
    private(set) var bytesRead: Int = 0

    private let fd: Int32
    private let gzip: Bool
    private static let inputSize = 1 << 18
    private let input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputSize)
    private var stream = z_stream()
    /// Raw bytes read from the file so far.
    private var consumed = 0
    /// Plain files: bytes of `input` not yet delivered, starting at `plainStart`.
    private var plainStart = 0, plainCount = 0
    /// Inside a gzip member (its end not yet reached).
    private var inMember = true
    private var atEnd = false

    /// Opens `path`; throws `CatalogError.unreadable` naming the file when it cannot be opened.
    init(path: String) throws {
        self.path = path
        // Only a regular file: a FIFO would block the first read for ever and /dev/zero never ends.
        switch RegularFile.open(path) {
        case let .success(opened): fd = opened
        case let .failure(problem):
            input.deallocate()
            throw CatalogError.unreadable(path: path, reason: problem.reason)
        }
        // Sniff the gzip magic from the first bytes (kept: they are the start of the data).
        var have = 0
        while have < 2 {
            let n = Foundation.read(fd, input + have, Self.inputSize - have)
            if n <= 0 { break }
            have += n
        }
        consumed = have
        gzip = have >= 2 && input[0] == 0x1F && input[1] == 0x8B
        if gzip {
            stream.next_in = input
            stream.avail_in = UInt32(have)
            let code = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard code == Z_OK else {
                close(fd); input.deallocate()
                throw CatalogError.unreadable(path: path, reason: "cannot start decompression (zlib \(code))")
            }
        } else {
            plainCount = have
        }
    }

    deinit {
        if gzip { inflateEnd(&stream) }
        close(fd)
        input.deallocate()
    }

    /// Reads more of the file into `input` after the `keep` unread bytes at `from`; returns the
    /// bytes added (0 at end of file).
    private func refill(keeping keep: Int, from: UnsafeMutablePointer<UInt8>) throws -> Int {
        if keep > 0 && from != input { memmove(input, from, keep) }
        let n = Foundation.read(fd, input + keep, Self.inputSize - keep)
        if n < 0 { throw CatalogError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        consumed += n
        return n
    }

    /// Fills `buffer` with up to `buffer.count` bytes; returns 0 at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !atEnd else { return 0 }
        if !gzip {
            if plainCount == 0 {
                plainStart = 0
                plainCount = try refill(keeping: 0, from: input)
                if plainCount == 0 { atEnd = true; return 0 }
            }
            let n = min(plainCount, buffer.count)
            base.copyMemory(from: input + plainStart, byteCount: n)
            plainStart += n; plainCount -= n
            bytesRead += n
            return n
        }
        stream.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        let wanted = stream.avail_out
        while stream.avail_out == wanted {
            if stream.avail_in < 2 {
                // Keep one pending byte: a member boundary needs two bytes (the magic) to judge.
                let keep = Int(stream.avail_in)
                let added = try refill(keeping: keep, from: stream.next_in ?? input)
                stream.next_in = input
                stream.avail_in = UInt32(keep + added)
                if stream.avail_in == 0 {
                    if inMember { throw CatalogError.malformedFile(path: path, reason: "truncated compressed data") }
                    atEnd = true
                    break
                }
            }
            if !inMember {
                // After a member: another one, or nothing.
                guard stream.avail_in >= 2, stream.next_in[0] == 0x1F, stream.next_in[1] == 0x8B else {
                    throw CatalogError.malformedFile(path: path, reason: "unexpected data after the end of the compressed stream")
                }
                inflateReset(&stream)
                inMember = true
            }
            let before = stream.avail_in
            let code = inflate(&stream, Z_NO_FLUSH)
            switch code {
            case Z_STREAM_END:
                inMember = false
            case Z_OK:
                break
            case Z_BUF_ERROR where stream.avail_in == before:
                // No progress with the input at hand: read more (end of file is caught above).
                let keep = Int(stream.avail_in)
                let added = try refill(keeping: keep, from: stream.next_in ?? input)
                stream.next_in = input
                stream.avail_in = UInt32(keep + added)
                if added == 0 { throw CatalogError.malformedFile(path: path, reason: "truncated compressed data") }
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw CatalogError.malformedFile(path: path, reason: "corrupt or truncated compressed data (\(message))")
            }
        }
        let produced = Int(wanted - stream.avail_out)
        bytesRead += produced
        return produced
    }

    /// Size of the file on disk (compressed size for `.gz`).
    var fileSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Compressed bytes consumed so far (for progress on `.gz` files).
    var compressedOffset: Int { consumed - (gzip ? Int(stream.avail_in) : plainCount) }
}
