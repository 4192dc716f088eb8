/// What one import did, per source file and in total.
public struct ImportReport: Sendable, Codable, Hashable {
    /// Counts for one source file.
    public struct Source: Sendable, Codable, Hashable {
        /// The file as given.
        public var path: String
        /// `scryfall-cards`, `scryfall-sets` or `mtgjson`.
        public var format: String
        /// The source's own date when it states one (MTGJSON `meta.date`).
        public var sourceDate: String?
        /// Card records read (including malformed ones).
        public var records: Int = 0
        /// New printings added to the catalog.
        public var imported: Int = 0
        /// Printings already in the catalog (from an earlier import or another source) that were updated.
        public var updated: Int = 0
        /// Records folded into a printing this import already wrote (e.g. the second face of an MTGJSON
        /// double-faced card) or records without a Scryfall id.
        public var skipped: Int = 0
        /// Records that could not be read; the import continued without them.
        public var malformed: Int = 0
        /// Set records read.
        public var sets: Int = 0
        /// The first few problems, one line each (`record 12: …`).
        public var problems: [String] = []
        /// Wall time spent on this file.
        public var seconds: Double = 0

        /// Creates an empty report for `path`.
        public init(path: String, format: String) {
            self.path = path; self.format = format
        }
    }

    /// One entry per file, in import order.
    public var sources: [Source]
    /// Printings in the catalog after the import.
    public var totalPrintings: Int
    /// Sets in the catalog after the import.
    public var totalSets: Int
    /// Distinct searchable names (card, face and printed names) after the import.
    public var totalNames: Int
    /// Printings in the catalog that are no game piece (`Printing.isGamePiece`: bios, decklists,
    /// ads, Art Series cards), kept but left out of name and text search.
    public var nonGamePieces: Int = 0
    /// Wall time for the whole import, including index building and the atomic replace.
    public var seconds: Double
    /// The file at the catalog's path could not be merged into (a catalog of an older schema, or
    /// not a catalog), so the catalog now holds only this import's files: earlier sources must be
    /// imported again.
    public var rebuiltUnmergeableCatalog = false

    /// Sums over all sources.
    public var imported: Int { sources.reduce(0) { $0 + $1.imported } }
    public var updated: Int { sources.reduce(0) { $0 + $1.updated } }
    public var skipped: Int { sources.reduce(0) { $0 + $1.skipped } }
    public var malformed: Int { sources.reduce(0) { $0 + $1.malformed } }
    public var records: Int { sources.reduce(0) { $0 + $1.records } }
}

/// Progress of a running import, reported a few times per second.
public struct ImportProgress: Sendable {
    /// The file being read.
    public var path: String
    /// Bytes of the file on disk consumed so far (compressed bytes for `.gz`).
    public var bytesDone: Int
    /// Size of the file on disk.
    public var bytesTotal: Int
    /// Records read from this file so far.
    public var records: Int
    /// `reading` while streaming records, `indexing` while building indexes at the end.
    public var phase: String
}
