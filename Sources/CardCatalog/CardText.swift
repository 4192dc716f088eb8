import Foundation

/// Joins the per-face texts the sources give into the one value per printing the catalog keeps.
enum CardText {
    /// The card-level text when the source gave one, else the faces' texts joined by
    /// `separator` (nil when nothing is known).
    static func faces(_ whole: String?, _ faces: [String?]?, separator: String = Printing.faceSeparator) -> String? {
        if let whole, !whole.isEmpty { return whole }
        let parts = (faces ?? []).compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: separator)
    }

    /// The credited artist, or the faces' distinct artists joined by ` // `.
    static func artists(_ whole: String?, _ faces: [String?]?) -> String? {
        var seen: [String] = []
        for artist in (faces ?? []).compactMap({ $0 }) where !artist.isEmpty && !seen.contains(artist) { seen.append(artist) }
        if seen.count > 1 { return seen.joined(separator: " // ") }
        return (whole?.isEmpty ?? true) ? seen.first : whole
    }
}
