import CardCollection
import CardScanner
import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// One import started from the page, and how far it got.
struct ImportJob: Encodable, Sendable {
    var id: Int
    var state: String // running, done, failed
    var batch: Int64?
    var total: Int
    var done: Int
    /// The counts so far (added, review, failed, skipped, moved).
    var counts: PhotoImporter.Summary
    var missing: [String]
    var error: String?
    /// The latest outcomes, newest last.
    var recent: [PhotoImporter.Outcome] = []
    /// The photos with an outcome so far (a photo of several cards has several outcomes).
    var seen: Set<String> = []

    enum CodingKeys: String, CodingKey {
        case id, state, batch, total, done, added, review, failed, skipped, moved, missing, error, recent
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(state, forKey: .state); try c.encodeIfPresent(batch, forKey: .batch)
        try c.encode(total, forKey: .total); try c.encode(done, forKey: .done)
        try c.encode(counts.added, forKey: .added); try c.encode(counts.review, forKey: .review); try c.encode(counts.failed, forKey: .failed)
        try c.encode(counts.skipped, forKey: .skipped); try c.encode(counts.moved, forKey: .moved)
        try c.encode(missing, forKey: .missing); try c.encodeIfPresent(error, forKey: .error); try c.encode(recent, forKey: .recent)
    }
}

/// The imports of this server, by id.
final class ImportJobs: Sendable {
    private struct State {
        var jobs: [Int: ImportJob] = [:]
        var next = 1
    }
    private let state = Mutex(State())

    func start(_ job: (Int) -> ImportJob) -> Int {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.jobs[id] = job(id)
            return id
        }
    }

    func update(_ id: Int, _ change: (inout ImportJob) -> Void) {
        state.withLock { state in
            if var j = state.jobs[id] { change(&j); state.jobs[id] = j }
        }
    }

    func get(_ id: Int) -> ImportJob? { state.withLock { $0.jobs[id] } }
}

/// `/api/imports` (photos by path, through the CLI's importer) and `/api/uploads` (a photo's
/// bytes, kept under the data folder so the crops can be cut from it later).
struct ImportRoutes {
    let server: CardScanServer

    struct Start: Decodable, Sendable {
        var paths: [String]
        var recursive: Bool?
        var pool: String?
        var finish: String?
        var condition: String?
        var language: String?
    }

    func add(to api: RouterGroup<BasicRequestContext>) {
        let server = self.server
        api.post("imports") { request, _ in
            let body = try await JSON.body(Start.self, request)
            let job = try server.startImport(body)
            return try JSON.response(job, status: .accepted)
        }
        api.get("imports/:id") { _, context in
            guard let id = Int(context.parameters.get("id") ?? ""), let job = server.imports.get(id) else {
                throw HTTPError(.notFound, message: "no such import")
            }
            return try JSON.response(job)
        }
        api.post("uploads") { request, _ in
            let name = request.uri.queryParameters["name"].map(String.init) ?? "photo.jpg"
            let ext = (name as NSString).pathExtension.lowercased()
            guard PhotoFiles.isImage(name) else {
                throw HTTPError(.unsupportedMediaType, message: "\(name): not a photo (\(PhotoFiles.extensions.sorted().joined(separator: ", ")))")
            }
            let dir = server.configuration.dataDirectory.appendingPathComponent("uploads")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let temp = dir.appendingPathComponent(".upload-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temp.path, contents: nil), let handle = FileHandle(forWritingAtPath: temp.path) else {
                throw HTTPError(.internalServerError, message: "\(temp.path): cannot write")
            }
            var size = 0
            do {
                for try await buffer in request.body {
                    size += buffer.readableBytes
                    guard size <= 100 << 20 else { throw HTTPError(.contentTooLarge, message: "\(name): larger than 100 MB") }
                    try handle.write(contentsOf: Data(buffer: buffer))
                }
                try handle.close()
            } catch {
                try? handle.close(); try? FileManager.default.removeItem(at: temp)
                throw error
            }
            // Named by content: the same photo uploaded twice is one file (and one import).
            let hash = try SHA256Hasher.hex(ofFile: temp.path)
            let final = dir.appendingPathComponent("\(hash.prefix(16)).\(ext)")
            if FileManager.default.fileExists(atPath: final.path) {
                try FileManager.default.removeItem(at: temp)
            } else {
                try FileManager.default.moveItem(at: temp, to: final)
            }
            return try JSON.response(["path": final.path, "name": name], status: .created)
        }
    }
}

extension CardScanServer {
    /// Starts importing `start.paths` on a worker thread as one batch (what `cardscan import`
    /// does); the job reports its progress.
    func startImport(_ start: ImportRoutes.Start) throws -> ImportJob {
        guard !start.paths.isEmpty else { throw HTTPError(.badRequest, message: "paths must name at least one photo or folder") }
        let condition = try start.condition.map(Checked.condition) ?? .nm
        let finish = try start.finish.map(Checked.finish) ?? .nonfoil
        let (files, missing) = PhotoFiles.expand(start.paths, recursive: start.recursive ?? true)
        guard !files.isEmpty else {
            throw HTTPError(.badRequest, message: missing.isEmpty ? "no image files found in \(start.paths.joined(separator: ", "))"
                : missing.map { "\($0): \(PhotoFiles.whyMissing($0))" }.joined(separator: "; "))
        }
        let pool = start.pool?.trimmingCharacters(in: .whitespaces) ?? ""
        let batch = try store.beginBatch(kind: "photos", description: "serve import \(start.paths.joined(separator: " "))\(pool.isEmpty ? "" : " --pool \(pool)")")
        let options = PhotoImporter.Options(pool: pool, finish: finish, condition: condition, language: try start.language.map(Checked.language))
        let jobs = imports
        let id = jobs.start { ImportJob(id: $0, state: "running", batch: batch, total: files.count, done: 0,
                                                       counts: PhotoImporter.Summary(batch: batch), missing: missing) }
        let importer = PhotoImporter(store: store, catalog: catalog, options: options, batch: batch, makeScanner: makeScanner) { outcome in
            jobs.update(id) { j in
                j.counts.count(outcome)
                j.seen.insert(outcome.file)
                j.done = j.seen.count
                j.recent.append(outcome)
                if j.recent.count > 50 { j.recent.removeFirst(j.recent.count - 50) }
            }
        }
        let store = self.store, workers = configuration.jobs
        let thread = Thread {
            do {
                try importer.run(files: files, jobs: workers)
                _ = try store.finishBatch(batch)
                jobs.update(id) { $0.state = "done"; $0.done = $0.total }
            } catch {
                jobs.update(id) { $0.state = "failed"; $0.error = "\(error)" }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        return jobs.get(id)!
    }
}
