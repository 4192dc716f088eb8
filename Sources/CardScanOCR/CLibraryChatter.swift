import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the C decoders' own stderr messages off the terminal while Leptonica reads an image other
/// than a JPEG.
///
/// Leptonica is silenced with `setMsgSeverity`, but the libraries under it print on their own:
/// libpng's default handlers print "libpng error: …", libtiff and giflib do likewise, and Leptonica
/// builds their handlers on its own stack, so there is no hook to replace them. Those messages
/// would be extra, file-less lines next to the one error cardscan reports. (JPEGs no longer pass
/// through here: `CJPEGDecode` calls libjpeg with cardscan's own error manager, which prints
/// nothing and counts every warning, also those raised after the last row.)
///
/// What this does: a decode runs inside `silenced`, which points the C library's `stderr` *stream
/// pointer* at an in-memory stream (`open_memstream`) for the duration, then restores it. File
/// descriptor 2 is never touched: everything written with `FileHandle.standardError` or
/// `write(2, …)` (cardscan's own error lines, progress, the Swift runtime's crash reports) still
/// reaches the terminal, also from other threads during a decode. Decodes are serialised by one
/// process-wide lock so that one window's restore cannot undo another's; a decode is a small part
/// of a photo's time. What is diverted during a window is only *stdio* output to `stderr` from
/// other threads (C libraries' chatter; Tesseract's goes to its `debug_file`; ArgumentParser prints
/// its errors after the work is done).
///
/// Set `CARDSCAN_DECODER_MESSAGES=1` to also pass the messages through to stderr (debugging a file).
enum CLibraryChatter {
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var depth = 0
    private static let passThrough = ProcessInfo.processInfo.environment["CARDSCAN_DECODER_MESSAGES"] == "1"

    /// The in-memory stream and the buffer/size that `open_memstream` updates on every flush.
    private struct Sink: @unchecked Sendable {
        let file: UnsafeMutablePointer<FILE>
        let buffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        let size: UnsafeMutablePointer<Int>
    }

    private static let sink: Sink? = {
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        buffer.initialize(to: nil)
        size.initialize(to: 0)
        guard let file = open_memstream(buffer, size) else { return nil }
        return Sink(file: file, buffer: buffer, size: size)
    }()

    /// The address of libc's `FILE *stderr` variable (Swift 6 refuses to touch the imported global
    /// directly, so it is looked up like any other symbol).
    nonisolated(unsafe) private static let stderrVariable: UnsafeMutablePointer<UnsafeMutablePointer<FILE>?>? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "stderr") else { return nil }
        return symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self)
    }()

    /// Runs `body` with the C `stderr` stream diverted; returns its result and whatever the C
    /// libraries printed meanwhile (trimmed; empty when nothing). Nested calls report to the
    /// outermost one.
    static func capturing<T>(_ body: () throws -> T) rethrows -> (value: T, messages: String) {
        guard let sink, let variable = stderrVariable else { return (try body(), "") }
        lock.lock()
        defer { lock.unlock() }
        guard depth == 0 else {
            depth += 1
            defer { depth -= 1 }
            return (try body(), "")
        }
        fflush(variable.pointee)
        let saved = variable.pointee
        rewind(sink.file)
        fflush(sink.file)
        variable.pointee = sink.file
        depth = 1
        defer {
            depth = 0
            variable.pointee = saved
        }
        let value = try body()
        fflush(sink.file)
        var messages = ""
        if let text = sink.buffer.pointee, sink.size.pointee > 0 {
            let count = min(sink.size.pointee, 4096)
            messages = String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self)
            if passThrough { _ = write(2, text, sink.size.pointee) }
        }
        return (value, messages.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs `body` with the C `stderr` stream diverted, dropping the messages.
    static func silenced<T>(_ body: () throws -> T) rethrows -> T {
        try capturing(body).value
    }
}
