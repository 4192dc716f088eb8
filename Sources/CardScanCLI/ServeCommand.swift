import ArgumentParser
import CardCollection
import CardScanServer
import CardScanner
import Foundation

/// `cardscan serve`: the review and collection pages in a browser, over the same files.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Review imports and browse the collection in a web browser (a local server).",
        discussion: """
        Serves the review page (the card cut out of its photo beside its candidate printings; \
        keyboard: j/k, 1–9, Enter, x, space, A/X, /), the collection page (filter, edit, delete, \
        totals and value) and an import page, with their JSON API (described at /openapi.json). \
        It works on the same collection and catalog as the other commands: `cardscan undo` and the \
        exports see what the page did, and CLI commands may run beside it. Listens on 127.0.0.1 \
        only unless --host says otherwise. Stop it with Ctrl-C.
        Examples:
          cardscan serve
          cardscan serve --port 0          # any free port; the address is printed
        """
    )

    @Option(help: ArgumentHelp("Address to listen on (127.0.0.1: this computer only).", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Port (0: any free port).", valueName: "n"))
    var port = 8080

    @Option(name: .shortAndLong, help: "Photos imported at once (default: the number of cores).")
    var jobs: Int?

    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let store = try CollectionAccess.open(global)
        let global = self.global
        let catalog = LazyCatalog { try CollectionAccess.mapped { try CatalogProvider.open(global) } }
        let readerOptions = global.readerOptions
        let server = CardScanServer(
            configuration: .init(host: host, port: port, dataDirectory: global.dataDirectory, jobs: Identifier.jobs(jobs)),
            store: store, catalog: catalog, makeScanner: { try Identifier(catalog: $0, readerOptions: readerOptions).scanner })
        do {
            try await server.run { host, port in
                print("cardscan: serving http://\(host):\(port)/ (Ctrl-C to stop)")
                fflush(nil)
            }
        } catch {
            throw CLIError("cannot serve on \(host):\(port): \(error)")
        }
    }
}
