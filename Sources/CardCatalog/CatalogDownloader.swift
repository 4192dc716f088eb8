import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads Scryfall bulk data: reads the bulk-data index, fetches the chosen file with progress,
/// verifies its size, and imports it, replacing the catalog atomically.
public struct CatalogDownloader: Sendable {
    /// Scryfall's bulk-data index.
    public static let scryfallIndexURL = URL(string: "https://api.scryfall.com/bulk-data")!

    /// The index to read (`--url`).
    public var indexURL: URL

    /// Creates a downloader reading `indexURL`.
    public init(indexURL: URL = CatalogDownloader.scryfallIndexURL) {
        self.indexURL = indexURL
    }

    /// Fetches and decodes the bulk-data index.
    public func fetchIndex() async throws -> [BulkDataEntry] {
        let data = try await Self.fetch(indexURL)
        do {
            return try JSONDecoder().decode(BulkDataIndexDTO.self, from: data).data
        } catch {
            throw CatalogError.download(url: indexURL.absoluteString, reason: "not a Scryfall bulk-data index (\(error))")
        }
    }

    /// Downloads `entry` to `file`, calling `progress(bytesDone, bytesExpected)` as data arrives, and
    /// checks the size against the index.
    public func download(_ entry: BulkDataEntry, to file: URL,
                         progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws {
        guard let url = URL(string: entry.downloadURI, relativeTo: indexURL)?.absoluteURL else {
            throw CatalogError.download(url: entry.downloadURI, reason: "invalid download_uri")
        }
        let expected = entry.size.map(Int64.init)
        let written = try await FileDownload.run(url: url, to: file, expected: expected, progress: progress)
        if let expected, written != expected {
            try? FileManager.default.removeItem(at: file)
            throw CatalogError.download(url: url.absoluteString, reason: "size mismatch: got \(written) bytes, index says \(expected)")
        }
    }

    /// The whole `catalog update`: index → download (into the catalog's folder) → import → atomic replace.
    /// With `keepExisting`, the download is merged into the current catalog instead of replacing its content.
    /// `waiting` is called when another import of the catalog holds its lock, before waiting for it
    /// (`CatalogImporter.waiting`).
    public func update(type: String, catalogURL: URL, keepExisting: Bool = false,
                       downloadProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                       importProgress: (@Sendable (ImportProgress) -> Void)? = nil,
                       waiting: (@Sendable () -> Void)? = nil) async throws -> (entry: BulkDataEntry, report: ImportReport) {
        let entries = try await fetchIndex()
        guard let entry = entries.first(where: { $0.type == type }) else {
            let types = entries.map(\.type).joined(separator: ", ")
            throw CatalogError.download(url: indexURL.absoluteString, reason: "no bulk file of type \(type) (available: \(types))")
        }
        let directory = catalogURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let suffix = entry.downloadURI.hasSuffix(".gz") ? ".json.gz" : ".json"
        let file = directory.appendingPathComponent(".download-\(type)-\(getpid())\(suffix)")
        defer { try? FileManager.default.removeItem(at: file) }
        try await download(entry, to: file, progress: downloadProgress)
        var importer = CatalogImporter(catalogURL: catalogURL, progress: importProgress)
        importer.waiting = waiting
        let report = try importer.importFiles([file.path], replacing: !keepExisting, sourceNames: [entry.downloadURI])
        return (entry, report)
    }

    static func fetch(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url)
        request.setValue("cardscan/1.0", forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                throw CatalogError.download(url: url.absoluteString, reason: "HTTP \(http.statusCode)")
            }
            return data
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError.download(url: url.absoluteString, reason: error.localizedDescription)
        }
    }
}

/// A streaming download to a file through a URLSession data delegate (bounded memory, progress).
final class FileDownload: NSObject, URLSessionDataDelegate, Sendable {
    /// What the delegate calls change, one call at a time (URLSession may call from any thread).
    private struct State {
        var expected: Int64?
        var written: Int64 = 0
        var failure: Error?
        var continuation: CheckedContinuation<Int64, Error>?
    }
    private let state: Mutex<State>
    private let handle: FileHandle
    private let progress: @Sendable (Int64, Int64?) -> Void
    private let url: URL

    private init(url: URL, handle: FileHandle, expected: Int64?, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.url = url
        self.handle = handle
        self.state = Mutex(State(expected: expected))
        self.progress = progress
    }

    /// Downloads `url` into `file`; returns the number of bytes written.
    static func run(url: URL, to file: URL, expected: Int64?, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws -> Int64 {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: file.path) else {
            throw CatalogError.unreadable(path: file.path, reason: "cannot create download file")
        }
        defer { try? handle.close() }
        let delegate = FileDownload(url: url, handle: handle, expected: expected, progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("cardscan/1.0", forHTTPHeaderField: "User-Agent")
        return try await withCheckedThrowingContinuation { continuation in
            delegate.state.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            let failure = CatalogError.download(url: url.absoluteString, reason: "HTTP \(http.statusCode)")
            state.withLock { $0.failure = failure }
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > 0 {
            state.withLock { if $0.expected == nil { $0.expected = response.expectedContentLength } }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (done, total) = state.withLock { state -> (Int64, Int64?) in
            do { try handle.write(contentsOf: data) } catch { if state.failure == nil { state.failure = error } }
            state.written += Int64(data.count)
            return (state.written, state.expected)
        }
        progress(done, total)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<Int64, Error>?, Result<Int64, Error>) in
            let c = state.continuation
            state.continuation = nil
            if let failure = state.failure { return (c, .failure(failure)) }
            if let error { return (c, .failure(CatalogError.download(url: url.absoluteString, reason: error.localizedDescription))) }
            return (c, .success(state.written))
        }
        continuation?.resume(with: result)
    }
}
