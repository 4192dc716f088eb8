/// Four corners in photo pixels: a card or a region of the photo. For a card as it is read, they
/// are TL, TR, BR, BL of the upright card; side `i` runs from corner `i` to corner `i + 1`.
/// Corner indices wrap around, so `quad[4]` is `quad[0]`.
struct Quad: Sendable, Equatable {
    /// The four corners.
    private(set) var corners: [PixelPoint]

    /// A quad from four corners.
    init(_ corners: [PixelPoint]) {
        precondition(corners.count == 4, "a quad has four corners, not \(corners.count)")
        self.corners = corners
    }

    /// Corner `i`, wrapping around.
    subscript(i: Int) -> PixelPoint { corners[((i % 4) + 4) % 4] }

    /// The same corners starting `steps` places on: the card read turned by `steps` quarter turns
    /// (2: upside down).
    func turned(by steps: Int) -> Quad { Quad((0..<4).map { self[$0 + steps] }) }

    /// The four turns of this quad (0, 1, 2, 3 quarter turns).
    var turns: [Quad] { (0..<4).map(turned(by:)) }

    /// Side `i`: from corner `i` to corner `i + 1`.
    func side(_ i: Int) -> (from: PixelPoint, to: PixelPoint) { (self[i], self[i + 1]) }

    /// The mean of the corners.
    var centre: PixelPoint { PixelPoint(x: corners.reduce(0) { $0 + $1.x } / 4, y: corners.reduce(0) { $0 + $1.y } / 4) }

    /// The area enclosed (shoelace formula).
    var area: Double { Geometry.area(corners) }

    /// Each corner mapped by `transform`.
    func map(_ transform: (PixelPoint) -> PixelPoint) -> Quad { Quad(corners.map(transform)) }

    /// Whether `p` lies inside.
    func contains(_ p: PixelPoint) -> Bool { Geometry.contains(corners, p) }
}
