import CardCatalog
import CardCollection
import CardReader
import CardScanOCR
import CardScanner
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `cardscan serve`: the review and collection pages and their JSON API over the same
/// collection and catalog files as the CLI. Every write goes through `CollectionStore` (each in
/// its own transaction), so `cardscan undo`, the exports and a second tab see it, and a CLI
/// import running at the same time loses nothing.
public final class CardScanServer: Sendable {
    /// Where the server reads and writes.
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        /// Folder for cached card crops and uploaded photos (created on first use).
        public var dataDirectory: URL
        /// Import threads (OCR engines).
        public var jobs: Int
        public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, jobs: Int = 1) {
            self.host = host; self.port = port; self.dataDirectory = dataDirectory; self.jobs = jobs
        }
    }

    let configuration: Configuration
    let store: CollectionStore
    let catalog: LazyCatalog
    let makeScanner: @Sendable (CardCatalog) throws -> CardScanner
    let crops: CropCache
    let imports = ImportJobs()

    public init(configuration: Configuration, store: CollectionStore, catalog: LazyCatalog,
                makeScanner: @escaping @Sendable (CardCatalog) throws -> CardScanner) {
        self.configuration = configuration; self.store = store; self.catalog = catalog; self.makeScanner = makeScanner
        crops = CropCache(directory: configuration.dataDirectory.appendingPathComponent("crops"))
    }

    /// Every route: method and path as the OpenAPI description names them.
    public static let routes: [(method: String, path: String)] = [
        ("GET", "/api/review"), ("POST", "/api/review/{id}/accept"), ("POST", "/api/review/{id}/reject"), ("POST", "/api/review/bulk"),
        ("GET", "/api/printings"), ("GET", "/api/entries"), ("GET", "/api/totals"), ("PATCH", "/api/entries/{id}"),
        ("DELETE", "/api/entries/{id}"), ("GET", "/api/crops/{kind}/{id}"), ("POST", "/api/imports"), ("GET", "/api/imports/{id}"),
        ("POST", "/api/uploads"), ("GET", "/api/export"), ("POST", "/api/undo"), ("GET", "/api/pools"),
    ]

    /// The router with every page and API route.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: SameOriginMiddleware(loopbackOnly: Self.isLoopback(configuration.host)))
        router.get("/") { _, _ in Self.page(WebPage.html, type: "text/html; charset=utf-8") }
        router.get("/openapi.json") { _, _ in Self.page(OpenAPI.json, type: "application/json") }
        let api = router.group("api")
        ReviewRoutes(server: self).add(to: api)
        CollectionRoutes(server: self).add(to: api)
        ImportRoutes(server: self).add(to: api)
        return router
    }

    /// Runs until cancelled; `ready` is called with the bound address (the real port when 0 was asked).
    public func run(ready: @escaping @Sendable (String, Int) -> Void) async throws {
        let host = configuration.host
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "cardscan"),
            onServerRunning: { channel in ready(host, channel.localAddress?.port ?? 0) },
            logger: {
                var l = Logger(label: "cardscan.serve"); l.logLevel = .warning; return l
            }()
        )
        try await app.run()
    }

    static func isLoopback(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) }

    static func page(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Refuses what a web page of another site could make a browser send to this local server: a
/// write (any method but GET) whose `Origin` is not this server, and, when the server listens on
/// loopback only, a request whose `Host` is not a loopback name (a DNS name rebound to 127.0.0.1).
struct SameOriginMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let loopbackOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        if loopbackOnly {
            let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.split(separator: ":").first ?? "")
            guard CardScanServer.isLoopback(name) else {
                throw HTTPError(.forbidden, message: "Host \(host) is not this computer: the server answers 127.0.0.1 and localhost only")
            }
        }
        if request.method != .get, request.method != .head, let origin = request.headers[.origin],
           origin != "http://\(host)" {
            throw HTTPError(.forbidden, message: "a page of \(origin) may not change this collection")
        }
        return try await next(request, context)
    }
}

/// A JSON body: `{"error": "..."}` for every failure, with the status that fits the cause.
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let e as HTTPError {
            // The router's own 404 (no route) says which request had none.
            let fallback = e.status == .notFound ? "no such route: \(request.method) \(request.uri.path)" : e.status.reasonPhrase
            return JSON.error(e.status, e.body ?? fallback)
        } catch let e as CollectionError {
            switch e {
            case .notFound(let m): return JSON.error(.notFound, m)
            case .invalid(let m): return JSON.error(.conflict, m)
            default: return JSON.error(.internalServerError, e.description)
            }
        } catch let e as DecodingError {
            return JSON.error(.badRequest, "the request body is not the JSON expected: \(JSON.describe(e))")
        } catch {
            return JSON.error(.internalServerError, "\(error)")
        }
    }
}

/// JSON responses.
enum JSON {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        (try? response(["error": message], status: status)) ?? Response(status: status)
    }

    /// The request body decoded (snake_case keys), or a 400 naming what is wrong.
    static func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: 1 << 20)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode(T.self, from: Data(buffer: buffer)) } catch let e as DecodingError {
            throw HTTPError(.badRequest, message: "the request body is not the JSON expected: \(describe(e))")
        }
    }

    static func describe(_ e: DecodingError) -> String {
        switch e {
        case .keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            "wrong type at \"\(c.codingPath.map(\.stringValue).joined(separator: "."))\""
        case .dataCorrupted(let c): c.debugDescription
        @unknown default: "\(e)"
        }
    }
}

/// Values of a request checked, or a 400 saying what is accepted.
enum Checked {
    static func condition(_ text: String) throws -> Condition {
        guard let c = Condition(loose: text) else {
            throw HTTPError(.badRequest, message: "condition must be one of \(Condition.allCases.map(\.rawValue).joined(separator: ", ")) (got \"\(text)\")")
        }
        return c
    }

    static func language(_ text: String) throws -> String {
        let code = text.lowercased()
        guard Entry.languageCodes.contains(code) else {
            throw HTTPError(.badRequest, message: "language must be a Scryfall language code (\(Entry.languageCodes.sorted().joined(separator: ", "))), got \"\(text)\"")
        }
        return code
    }

    static func finish(_ text: String) throws -> Finish {
        guard let f = Finish(rawValue: text) else {
            throw HTTPError(.badRequest, message: "finish must be one of \(Finish.allCases.map(\.rawValue).joined(separator: ", ")) (got \"\(text)\")")
        }
        return f
    }
}

extension Parameters {
    /// The path parameter `name` as an integer id, or a 400.
    func id(_ name: String = "id") throws -> Int64 {
        guard let text = get(name), let id = Int64(text) else {
            throw HTTPError(.badRequest, message: "\(name) must be an integer")
        }
        return id
    }
}

/// Runs blocking work (SQLite, image decoding) off the server's threads.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { c in
        DispatchQueue.global().async { c.resume(with: Result { try body() }) }
    }
}
