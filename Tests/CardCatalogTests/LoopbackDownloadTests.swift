import Foundation
import TestSupport
import Testing

@testable import CardCatalog

/// `catalog update` against a local HTTP server: index → download → size check → import → replace.
@Suite("Loopback download")
struct LoopbackDownloadTests {
    @Test("Downloads the chosen bulk file with progress, verifies its size and replaces the catalog")
    func update() async throws {
        let cards = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCards))
        let template = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("loopback/bulk-data.json"), encoding: .utf8)
        let files = FileRoutes(["/bulk/default-cards.json": cards, "/bulk/oracle-cards.json": cards])
        let server = try LoopbackHTTPServer(routes: files.routes)
        defer { server.stop() }
        // The index is served under a second server whose body names the first server's address.
        let index = template.replacingOccurrences(of: "{{BASE}}", with: server.base)
            .replacingOccurrences(of: "{{SIZE}}", with: String(cards.count))
        let indexServer = try LoopbackHTTPServer(routes: ["/bulk-data": Data(index.utf8)])
        defer { indexServer.stop() }

        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        // An older catalog that the update must replace.
        try CatalogImporter(catalogURL: url).importFiles([TestPaths.mtgjsonSet("DTK")])

        let downloader = CatalogDownloader(indexURL: URL(string: "\(indexServer.base)/bulk-data")!)
        let entries = try await downloader.fetchIndex()
        #expect(entries.map(\.type) == ["oracle_cards", "default_cards"])

        let progress = ProgressLog()
        let result = try await downloader.update(type: "default_cards", catalogURL: url,
                                                 downloadProgress: { done, total in progress.add(done, total) })
        #expect(result.entry.size == cards.count)
        #expect(result.report.sources.first?.imported == result.report.sources.first?.records)
        #expect(progress.last?.0 == Int64(cards.count))
        #expect(server.requestedPaths == ["/bulk/default-cards.json"])

        let catalog = try CardCatalog(url: url)
        #expect(try catalog.printings(set: "bfz", number: "171").first?.name == "Broodhunter Wurm")
        #expect(try catalog.printings(inSet: "dtk").count < 10, "old content replaced")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("A size mismatch, an unknown type or a missing file fail and keep the old catalog")
    func failures() async throws {
        let cards = try Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCards))
        let template = try String(contentsOf: TestPaths.fixtures.appendingPathComponent("loopback/bulk-data.json"), encoding: .utf8)
        let server = try LoopbackHTTPServer(routes: ["/bulk/oracle-cards.json": cards])
        defer { server.stop() }
        let index = template.replacingOccurrences(of: "{{BASE}}", with: server.base)
            .replacingOccurrences(of: "{{SIZE}}", with: String(cards.count))
        let indexServer = try LoopbackHTTPServer(routes: ["/bulk-data": Data(index.utf8)])
        defer { indexServer.stop() }

        let dir = TestPaths.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("catalog.sqlite")
        try CatalogImporter(catalogURL: url).importFiles([TestPaths.sampleCards])
        let before = try Data(contentsOf: url)
        let downloader = CatalogDownloader(indexURL: URL(string: "\(indexServer.base)/bulk-data")!)

        for (type, expected) in [("oracle_cards", "size mismatch"), ("all_cards", "no bulk file of type all_cards"),
                                 ("default_cards", "HTTP 404")] {
            do {
                _ = try await downloader.update(type: type, catalogURL: url, downloadProgress: { _, _ in })
                Issue.record("\(type) succeeded")
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
        let badIndex = CatalogDownloader(indexURL: URL(string: "\(indexServer.base)/nothing")!)
        await #expect(throws: CatalogError.self) { try await badIndex.fetchIndex() }
        #expect(try Data(contentsOf: url) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }
}

/// Routes for the file server.
struct FileRoutes {
    let routes: [String: Data]
    init(_ routes: [String: Data]) { self.routes = routes }
}

/// Collects progress callbacks from the download thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Int64, Int64?)] = []
    func add(_ done: Int64, _ total: Int64?) { lock.withLock { entries.append((done, total)) } }
    var last: (Int64, Int64?)? { lock.withLock { entries.last } }
}
