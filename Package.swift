// swift-tools-version:6.0
import PackageDescription

/// Exports CPNGLevel's symbols from a program that links it: `png_set_compression_level`, so
/// Leptonica calls it instead of libpng's, and the switch `CardScanOCR` looks up at run time.
let exportPNGLevelHook: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=png_set_compression_level",
                                                        "-Xlinker", "--export-dynamic-symbol=cardscan_png_store_only",
                                                        "-Xlinker", "--export-dynamic-symbol=cardscan_png_level_interposed"])]

/// cardscan: recognise Magic: The Gathering cards in photographs (Linux, Tesseract + Leptonica).
/// Linux only: the programs export the CPNGLevel hook with an ELF linker flag, and the OCR core
/// loads libgomp's controls with `dlsym`; no other platform is claimed.
///
/// Module map (one concern per module):
/// - `CTesseract`, `CZlib`: system-library shims over the C APIs (never re-exported in public API).
/// - `CPNGLevel`: a C hook that keeps Tesseract's in-memory line PNGs uncompressed (speed).
/// - `CPNGGray`, `CJPEGDecode` (over the `CLibJPEG` shim): large PNGs and every JPEG decoded row by
///   row by libpng / libjpeg, never printing on stderr.
/// - `CardScanFiles`: the regular-file check made before reading any file a user named.
/// - `CardScanTerminal`: standard error for both programs (whole lines) and the one progress bar.
/// - `CardScanOCR`: image loading (Leptonica, EXIF orientation) and the Tesseract text recogniser.
/// - `CardReader`: locate and rectify the card, read title and collector lines, extract fields.
/// - `CardCatalog`: local SQLite card database (Scryfall / MTGJSON importers, exact and fuzzy lookup).
/// - `CardCatalogBench`: catalog measurements (import, text lookups) and seeded OCR-like damage,
///   for the benchmark and the tests only (not in the `CardCatalog` product).
/// - `CardMatcher`: turn extracted fields into one printing with a calibrated confidence.
/// - `CardCollection`: the user's collection, pools, review queue and CSV formats.
/// - `CardScanServer`: `cardscan serve`, the local review / collection pages and JSON API.
/// - `CardScanCLI`: the `cardscan` subcommands (the executable itself is a one-line `main`).
/// - `CardScanBench`: the accuracy / speed / memory benchmark behind `cardscan-bench`.
let package = Package(
    name: "cardscan",
    products: [
        .executable(name: "cardscan", targets: ["cardscan"]),
        .executable(name: "cardscan-bench", targets: ["cardscan-bench"]),
        .library(name: "CardScanOCR", targets: ["CardScanOCR"]),
        .library(name: "CardReader", targets: ["CardReader"]),
        .library(name: "CardCatalog", targets: ["CardCatalog"]),
        .library(name: "CardScanner", targets: ["CardScanner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CTesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev", "tesseract-ocr-eng"])]
        ),
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Stored (uncompressed) in-memory PNGs inside Tesseract's line recogniser; see its header.
        // Only the programs link and export the hook (CardScanOCR finds it at run time): the
        // library products neither carry it nor shadow libpng's symbol in an app that links them.
        .target(name: "CPNGLevel"),
        // Large PNGs decoded straight to grey, row by row, with libpng; see its header.
        .target(name: "CPNGGray", linkerSettings: [.linkedLibrary("png")]),
        .systemLibrary(
            name: "CLibJPEG",
            providers: [.apt(["libjpeg-dev"])]
        ),
        // JPEGs decoded row by row with libjpeg and a silent error manager; see its header.
        // (The system library declares the package; a C target links it itself.)
        .target(name: "CJPEGDecode", dependencies: ["CLibJPEG"], linkerSettings: [.linkedLibrary("jpeg")]),
        // The regular-file check made before reading any file a user named.
        .target(name: "CardScanFiles"),
        // Standard error shared by both programs: whole lines, and the one progress bar.
        .target(name: "CardScanTerminal"),
        .target(name: "CardScanOCR", dependencies: ["CTesseract", "CPNGGray", "CJPEGDecode", "CardScanFiles"]),
        .target(name: "CardReader", dependencies: ["CardScanOCR"]),
        .target(
            name: "CardCatalog",
            dependencies: ["CZlib", "CardScanFiles", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Catalog measurements and OCR-like damage for the benchmark and the tests (no product).
        .target(name: "CardCatalogBench", dependencies: ["CardCatalog"]),
        .target(name: "CardMatcher", dependencies: ["CardReader", "CardCatalog"]),
        // The facade: photo → readings → matches → collection entries (what the CLI, the server
        // and the benchmark call).
        .target(name: "CardScanner", dependencies: ["CardScanOCR", "CardReader", "CardCatalog", "CardMatcher", "CardCollection"]),
        // `cardscan serve`: the review and collection pages and their JSON API (Hummingbird).
        .target(
            name: "CardScanServer",
            dependencies: [
                "CardScanOCR", "CardReader", "CardCatalog", "CardScanner", "CardCollection",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "CardCollection",
            dependencies: [
                "CardCatalog", "CardScanFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "CardScanCLI",
            dependencies: [
                "CardScanOCR", "CardReader", "CardCatalog", "CardMatcher", "CardScanner", "CardCollection", "CardScanServer",
                "CardScanTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .executableTarget(name: "cardscan", dependencies: ["CardScanCLI", "CPNGLevel"], linkerSettings: exportPNGLevelHook),
        .target(
            name: "CardScanBench",
            dependencies: [
                "CardScanOCR", "CardReader", "CardCatalog", "CardCatalogBench", "CardMatcher", "CardScanner", "CardScanTerminal",
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .executableTarget(
            name: "cardscan-bench",
            dependencies: [
                "CardScanBench", "CardReader", "CardScanTerminal", "CPNGLevel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: exportPNGLevelHook
        ),
        .target(name: "TestSupport", dependencies: ["CardCatalog", .product(name: "CSV", package: "CSV.swift")], path: "Tests/TestSupport"),
        .testTarget(name: "CardScanOCRTests", dependencies: ["CardScanOCR", "CPNGLevel", "TestSupport"], linkerSettings: exportPNGLevelHook),
        .testTarget(name: "CardReaderTests", dependencies: ["CardReader", "CardScanOCR", "CardCatalog", "CardMatcher", "TestSupport"]),
        .testTarget(name: "CardCatalogTests", dependencies: ["CardCatalog", "CardCatalogBench", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "CardMatcherTests", dependencies: ["CardMatcher", "CardReader", "CardCatalog", "CardScanner", "TestSupport"]),
        .testTarget(name: "CardCollectionTests", dependencies: ["CardCollection", "CardCatalog", "TestSupport"]),
        .testTarget(name: "CardScanBenchTests", dependencies: ["CardScanBench", "CardReader", "CardMatcher"]),
        .testTarget(name: "CardScanCLITests", dependencies: ["CardScanCLI", "CardScanServer", "CardScanOCR", "CardCatalog", "CardMatcher", "CardReader", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
