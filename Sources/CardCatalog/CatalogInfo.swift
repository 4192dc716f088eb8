/// A summary of a catalog: where it came from and what it holds.
public struct CatalogInfo: Sendable, Codable, Hashable {
    /// One import recorded in the catalog.
    public struct Import: Sendable, Codable, Hashable {
        public var path: String
        public var format: String
        public var sourceDate: String?
        public var importedAt: String
        public var records: Int
        public var imported: Int
        public var updated: Int
        public var skipped: Int
        public var malformed: Int
    }

    /// The database file.
    public var path: String
    /// True for the built-in sample catalog.
    public var isSample: Bool
    /// When the catalog was last built.
    public var updatedAt: String?
    /// Imports that built it, oldest first.
    public var imports: [Import]
    /// Number of printings.
    public var printings: Int
    /// Number of distinct card names.
    public var cards: Int
    /// Number of sets.
    public var sets: Int
    /// Number of searchable names (card, face and printed names).
    public var searchNames: Int
    /// Printings per language code, most first.
    public var languages: [String: Int]
    /// Printings released only in a video game (left out when matching photos); nil when the
    /// catalog was built by an older cardscan that did not record it (import again to fix).
    public var digitalOnly: Int?
    /// White-bordered printings (a photo's border tells them from black-bordered reprints); nil
    /// when the catalog was built by an older cardscan that did not record borders (import again).
    public var whiteBordered: Int?
}
