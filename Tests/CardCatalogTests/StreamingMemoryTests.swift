import CardCatalogBench
import Foundation
import Testing

@testable import CardCatalog

/// Memory must not grow with file size. The always-on run imports a modest generated file; set
/// `CARDSCAN_BIG_IMPORT_MB=800` (for example) for a big one. Peak RSS (`VmHWM`) is process-wide, so
/// other tests running in parallel count too: the bound checked here is the 300 MB budget itself.
/// For a clean figure use `CatalogBenchmark` in a child process (see the benchmark tool).
@Suite("Streaming import memory")
struct StreamingMemoryTests {
    @Test("A large generated Scryfall file imports under the 300 MB peak-RSS budget")
    func bigFile() throws {
        let megabytes = Int(ProcessInfo.processInfo.environment["CARDSCAN_BIG_IMPORT_MB"] ?? "") ?? 60
        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.json")
        let written = try SyntheticBulkFile.writeScryfall(
            from: TestPaths.scryfall2019, to: big, targetBytes: megabytes * 1_000_000)
        #expect(written.bytes >= megabytes * 1_000_000)

        let url = dir.appendingPathComponent("catalog.sqlite")
        let measurement = try CatalogBenchmark.measureImport(files: [big.path], catalogURL: url)
        let source = try #require(measurement.report.sources.first)
        #expect(source.records == written.objects)
        #expect(source.malformed == 0)
        #expect(source.imported + source.skipped == written.objects)
        let peak = try #require(ProcessMemory.peakResidentBytes)
        print("streaming: \(written.bytes / 1_000_000) MB, \(written.objects) objects in \(measurement.seconds) s, process VmHWM \(peak / 1_000_000) MB")
        #expect(peak < 300_000_000)
    }
}
