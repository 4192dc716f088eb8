import Foundation

/// The `CPNGLevel` hook, when the running program carries it.
///
/// Tesseract 5.3 round-trips every text line through an in-memory PNG, and deflate was ~8% of a
/// scan. The programs (`cardscan`, `cardscan-bench`, the OCR test binary) link the `CPNGLevel` C
/// target and export its symbols (Package.swift's `exportPNGLevelHook`); it interposes libpng's
/// `png_set_compression_level` so the PNGs are stored, not deflated, while this library's calls
/// run. This library does not link it (an app linking `CardScanOCR` keeps libpng's own symbol): it
/// finds the switch with `dlsym` at run time, and without it recognition gives the same text,
/// about 7% slower.
enum LineImageHook {
    private typealias StoreOnly = @convention(c) (Int32) -> Void
    private typealias Interposed = @convention(c) () -> Int32

    /// The program's exported symbol `name`, if any.
    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlopen(nil, RTLD_NOW).flatMap { dlsym($0, name) }
    }

    /// `cardscan_png_store_only` of the program, if it exports it.
    private static let storeOnly: StoreOnly? = symbol("cardscan_png_store_only").map { unsafeBitCast($0, to: StoreOnly.self) }

    /// `cardscan_png_level_interposed` of the program, if it exports it.
    private static let interposed: Interposed? = symbol("cardscan_png_level_interposed").map { unsafeBitCast($0, to: Interposed.self) }

    /// Runs `body` with the calling thread's line images stored uncompressed (when the hook is there).
    static func storingUncompressed<T>(_ body: () throws -> T) rethrows -> T {
        storeOnly?(1)
        defer { storeOnly?(0) }
        return try body()
    }

    /// The program carries the hook and libpng has called it (known after the first recognition).
    static var isActive: Bool { (interposed?() ?? 0) != 0 }
}
