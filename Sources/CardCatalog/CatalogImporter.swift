import CardScanFiles
import Foundation
import GRDB

/// Imports Scryfall and MTGJSON files (`.json` or `.json.gz`) into a catalog database.
///
/// The import never modifies the catalog in place: it works on a temporary copy next to it (or a
/// fresh file), in one transaction, and renames the result over the catalog only when everything
/// succeeded. A failed or interrupted import leaves the previous catalog intact and usable.
/// Malformed records are counted in the report and skipped; a file that is not JSON of a known shape,
/// or that is truncated, fails the whole import with an error naming the file.
public struct CatalogImporter: Sendable {
    /// The catalog file to create or replace.
    public let catalogURL: URL
    /// Called with progress a few times per second (on the importing thread).
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// Called once when another import of the same catalog is running, before waiting for it.
    public var waiting: (@Sendable () -> Void)?

    /// Creates an importer for the catalog at `catalogURL`.
    public init(catalogURL: URL, progress: (@Sendable (ImportProgress) -> Void)? = nil) {
        self.catalogURL = catalogURL
        self.progress = progress
    }

    /// Imports `paths` in order. With `replacing`, the new catalog holds only these files; otherwise
    /// they are merged into the existing catalog (printings keyed by Scryfall id; Scryfall fields take
    /// precedence over MTGJSON ones whatever the order). `sourceNames` (parallel to `paths`) is what the
    /// report and the catalog's import log call each file (e.g. the URL a temporary download came from).
    @discardableResult
    public func importFiles(_ paths: [String], replacing: Bool = false, sourceNames: [String]? = nil) throws -> ImportReport {
        let start = Date()
        // Fail fast, before any work, on a file that cannot be read (or is no regular file).
        for path in paths {
            if let reason = RegularFile.problem(path) ?? (FileManager.default.isReadableFile(atPath: path) ? nil : "permission denied") {
                throw CatalogError.unreadable(path: path, reason: reason)
            }
        }
        let fm = FileManager.default
        let directory = catalogURL.deletingLastPathComponent()
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        // One import of a catalog at a time, from the copy to the rename: two at once both
        // reported success and the later rename discarded the earlier import.
        let lock = ImportLock(catalogURL: catalogURL)
        defer { lock.release() }
        if !lock.acquire(wait: false) {
            waiting?()
            _ = lock.acquire(wait: true)
        }
        let prefix = Self.copyPrefix(catalogURL)
        Self.removeAbandonedCopies(in: directory, prefix: prefix)
        let temp = directory.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? fm.removeItem(atPath: temp.path + suffix) }
        }
        let mergeable = (try? Self.isCurrentCatalog(catalogURL)) == true
        let unmergeable = !replacing && fm.fileExists(atPath: catalogURL.path) && !mergeable
        if !replacing, mergeable {
            try fm.copyItem(at: catalogURL, to: temp)
        }

        var report: ImportReport
        do {
            var config = Configuration()
            config.prepareDatabase { db in
                try db.execute(sql: """
                    PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                    PRAGMA cache_size = -65536; PRAGMA temp_store = FILE;
                    """)
            }
            let queue = try DatabaseQueue(path: temp.path, configuration: config)
            report = try queue.writeWithoutTransaction { db -> ImportReport in
                var sources: [ImportReport.Source] = []
                var nonGamePieces = 0
                try db.inTransaction {
                    let session = try ImportSession(db: db, progress: progress)
                    for (i, path) in paths.enumerated() {
                        try session.importFile(path, name: sourceNames.flatMap { i < $0.count ? $0[i] : nil } ?? path)
                    }
                    try session.finish()
                    sources = session.reports
                    nonGamePieces = session.nonGamePieces
                    return .commit
                }
                return try ImportSession.report(db, sources: sources, nonGamePieces: nonGamePieces)
            }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try queue.close()
        }

        // Make the new file durable, then swap it in atomically.
        let fd = open(temp.path, O_RDONLY)
        if fd >= 0 { fsync(fd); close(fd) }
        if rename(temp.path, catalogURL.path) != 0 {
            throw CatalogError.unreadable(path: catalogURL.path, reason: "cannot replace catalog: \(String(cString: strerror(errno)))")
        }
        report.seconds = Date().timeIntervalSince(start)
        report.rebuiltUnmergeableCatalog = unmergeable
        return report
    }

    /// Name prefix of the temporary copies beside `catalogURL`.
    static func copyPrefix(_ catalogURL: URL) -> String { ".\(catalogURL.lastPathComponent).import-" }

    /// Removes the temporary copies that imports killed before their cleanup ran (kill -9, power
    /// cut) left beside the catalog: `<prefix><pid>-<id>` files whose process no longer exists. Each
    /// can be as large as the catalog, so they would otherwise pile up.
    static func removeAbandonedCopies(in directory: URL, prefix: String) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? fm.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Removes a killed import's temporary copies beside `catalogURL` when no import of it is
    /// running (opening a catalog calls it, so the space comes back without another import).
    public static func removeAbandonedCopies(beside catalogURL: URL) {
        let lock = ImportLock(catalogURL: catalogURL)
        defer { lock.release() }
        guard lock.acquire(wait: false) else { return }
        removeAbandonedCopies(in: catalogURL.deletingLastPathComponent(), prefix: copyPrefix(catalogURL))
    }

    /// An exclusive `flock` on `<catalog>.lock` (as the collection's) beside the catalog, held by an import for its whole run.
    struct ImportLock {
        let fd: Int32
        init(catalogURL: URL) {
            let path = catalogURL.deletingLastPathComponent().appendingPathComponent("\(catalogURL.lastPathComponent).lock").path
            fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        }
        /// Takes the lock (waiting for it when `wait`); true when held. Without a lock file (a
        /// read-only folder) there is nothing to guard against and this returns true.
        func acquire(wait: Bool) -> Bool {
            guard fd >= 0 else { return true }
            while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
                if errno != EINTR { return false }
            }
            return true
        }
        func release() {
            if fd >= 0 { flock(fd, LOCK_UN); close(fd) }
        }
    }

    /// True when `url` is a catalog with the current schema (older ones are rebuilt, not merged).
    static func isCurrentCatalog(_ url: URL) throws -> Bool {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { try CatalogSchema.storedVersion($0) } == CatalogSchema.version
    }
}
