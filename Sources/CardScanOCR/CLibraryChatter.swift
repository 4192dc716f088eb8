import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the C decoders' own stderr messages off the terminal while Leptonica reads an image, and
/// tells the caller whether its decode printed anything.
///
/// Leptonica is silenced with `setMsgSeverity`, but the libraries under it print on their own:
/// libjpeg's default `output_message` writes the first warning of every image ("Premature end of
/// JPEG file", "Corrupt JPEG data: premature end of data segment") and every fatal error ("Bogus
/// Huffman table definition") with `fprintf(stderr, …)`; libpng's default handlers print
/// "libpng error: …"; libtiff and giflib do likewise. Leptonica 1.82 builds libjpeg's error manager
/// on its own stack inside `pixReadStreamJpeg`, so there is no hook to replace `output_message`.
/// Those messages would be extra, file-less lines next to the one error cardscan reports. Worse,
/// Leptonica counts libjpeg's warnings *before* `jpeg_finish_decompress`, so a warning raised there
/// ("Corrupt JPEG data: 11 extraneous bytes before marker 0xd9") is printed but not counted, and
/// the damaged image is returned as if it were fine.
///
/// What this does: a decode runs inside `capturing`, which points the C library's `stderr` *stream
/// pointer* at an in-memory stream (`open_memstream`) for the duration, then restores it and hands
/// back what was printed, so the caller can treat "libjpeg complained" as corrupt. File descriptor 2
/// is never touched: everything written with `FileHandle.standardError` or `write(2, …)` (cardscan's
/// own error lines, progress, the Swift runtime's crash reports) still reaches the terminal, also
/// from other threads during a decode. Decodes are serialised by one process-wide lock so that what
/// the stream collects belongs to the decode that holds it; a decode is a small part of a photo's
/// time (tens of ms against hundreds for OCR), so two workers lose little. What is diverted during
/// a window is only *stdio* output to `stderr` from other threads (C libraries' chatter; Tesseract's
/// goes to its `debug_file`; ArgumentParser prints its errors after the work is done).
///
/// This is a narrow, documented workaround, not a clean fix: the clean fix is to call libjpeg
/// directly with our own `jpeg_error_mgr` (no printing, warnings counted through
/// `jpeg_finish_decompress`), which needs a `jpeglib.h` module (a Package.swift change).
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

    /// Whether captured text holds a libjpeg message. The capture takes *all* stdio output to
    /// `stderr` during the window, also another thread's (a test harness reporting progress, as
    /// Swift Testing does through `FILE *`): only lines that read like libjpeg's own (plain ASCII,
    /// its vocabulary: "Corrupt JPEG data: …", "Premature end of JPEG file", "Bogus marker
    /// length", "Huffman table …") make a JPEG corrupt. A good photo was once rejected in a
    /// parallel test run because a test's "✔ … passed" line landed in its window.
    static func containsJPEGWarning(_ messages: String) -> Bool {
        let vocabulary = ["JPEG", "Corrupt", "marker", "Huffman", "JFIF", "scanlines", "progression", "SOS", "Bogus"]
        return messages.split(whereSeparator: \.isNewline).contains { line in
            line.allSatisfy(\.isASCII) && vocabulary.contains { line.contains($0) }
        }
    }

    /// Runs `body` with the C `stderr` stream diverted, dropping the messages.
    static func silenced<T>(_ body: () throws -> T) rethrows -> T {
        try capturing(body).value
    }
}
