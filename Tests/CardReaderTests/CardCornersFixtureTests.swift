import Foundation
import TestSupport
import Testing

/// `Fixtures/robustness/card-corners.csv` says where the labelled card lies in each single-card
/// photo, its top known, so that `scripts/robustness.sh` paints the title, the bottom or all but
/// the text box where they are whatever the reader of the day finds. A photo labelled later
/// without its corners, or a row turned a quarter or mirrored by a hand edit, would quietly make
/// those copies measure something else.
@Suite("The card corners of the evidence variants", .tags(.sharedData), .needsSharedData)
struct CardCornersFixtureTests {
    static let corners = Paths.root.appendingPathComponent("Fixtures/robustness/card-corners.csv")

    /// file -> corners (top-left, top-right, bottom-right, bottom-left; x right, y down).
    static func table() throws -> [String: [(x: Double, y: Double)]] {
        let lines = try String(contentsOf: corners, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "file,x0,y0,x1,y1,x2,y2,x3,y3,checked")
        var table: [String: [(x: Double, y: Double)]] = [:]
        for line in lines.dropFirst() {
            let cells = csvCells(line)
            let values = cells.dropFirst().prefix(8).compactMap(Double.init)
            try #require(values.count == 8, "\(line): eight coordinates")
            table[cells[0]] = stride(from: 0, to: 8, by: 2).map { (values[$0], values[$0 + 1]) }
        }
        return table
    }

    @Test("every labelled single-card photo has its card's corners")
    func coversLabels() throws {
        let labels = try String(contentsOf: Paths.shared.appendingPathComponent("labels.csv"), encoding: .utf8)
        let singles = Set(labels.split(whereSeparator: \.isNewline).map { csvCells(String($0)) }.filter { $0.count > 4 && $0[4] == "photo_single" }.map { $0[0] })
        let table = try Self.table()
        #expect(singles.subtracting(table.keys).sorted() == [], "photos without corners: add them (scripts/card-corners.py)")
        #expect(Set(table.keys).subtracting(singles).sorted() == [], "corners of photos no longer labelled photo_single")
    }

    @Test("each card's corners run clockwise from its top-left and outline a card standing upright")
    func shapes() throws {
        for (file, q) in try Self.table() {
            // Clockwise on screen (y down): every turn between edges has a positive cross product.
            let turns = (0..<4).map { i in
                let a = q[i], b = q[(i + 1) % 4], c = q[(i + 2) % 4]
                return (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            }
            #expect(turns.allSatisfy { $0 > 0 }, "\(file): not a convex quad in clockwise order")
            func length(_ i: Int, _ j: Int) -> Double { hypot(q[j].x - q[i].x, q[j].y - q[i].y) }
            // 88:63 is 1.40 seen square on (a card a quarter turned, 0.72); a photo taken at a
            // slant from below foreshortens the sides (one of these cards: 1.01).
            let aspect = (length(1, 2) + length(3, 0)) / (length(0, 1) + length(2, 3))
            #expect(aspect > 0.9 && aspect < 1.7, "\(file): sides \(aspect) times the top and bottom: not a card's top edge first")
        }
    }
}
