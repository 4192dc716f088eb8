import CardScanOCR
import Foundation
import TestSupport
import Testing

@testable import CardReader

/// The border colour measured at the card's edges in real photos (it tells a white-bordered
/// 8th Edition Canyon Wildcat from its black-bordered Tempest and Duel Decks reprints).
@Suite("Border colour (real photos)", .tags(.sharedData), .needsSharedData)
struct BorderColorTests {
    static let canyon = "thaen/single/sample-canyon-wildcat.jpg"

    @Test("8th Edition's white border is white on at least three sides, upright and turned round")
    func white() throws {
        let photo = try TurnedPhotoTests.sharedPhoto(Self.canyon)
        for (copy, name) in [(photo, "upright"), (TurnedPhotoTests.turnedRound(photo), "turned round")] {
            let reading = try CardReaderAccuracyTests.reader().read(image: TurnedPhotoTests.image(copy, name: "canyon \(name)"))
            #expect(reading.fields.borderColor?.value == "white", "\(name)")
            #expect(reading.fields.borderColor?.confidence ?? 0 >= 0.75, "\(name)")
        }
    }

    @Test("a black border is black: on a light table, and on a dark busy one")
    func black() throws {
        for file in ["alexandrearpin/photos/damaged/ori_aven_battle_priest_1.JPG", "thaen/single/sample-michikos-reign-of-truth.jpg"] {
            let gray = try TurnedPhotoTests.sharedPhoto(file)
            let reading = try CardReaderAccuracyTests.reader().read(image: TurnedPhotoTests.image(gray, name: file))
            #expect(reading.fields.borderColor?.value == "black", "\(file)")
        }
    }

    @Test("a side votes only for an even band that stands out from both its neighbours")
    func sideVotes() {
        // Profiles as measured, inside (left) to outside: frame, border, table.
        let frame = [Double](repeating: 150, count: 20), table = [Double](repeating: 60, count: 20)
        let whiteBand = [Double](repeating: 240, count: 10), blackBand = [Double](repeating: 15, count: 10)
        let even = [Double](repeating: 4, count: 46)
        #expect(BorderColorMeter.vote(levels: Array((frame + whiteBand + table).prefix(46)), spreads: even) == "white")
        #expect(BorderColorMeter.vote(levels: Array((frame + blackBand + [Double](repeating: 200, count: 20)).prefix(46)), spreads: even) == "black")
        // A white border on a white table has no outer edge: no vote (the band could be the table).
        let onWhite = frame + [Double](repeating: 240, count: 30)
        #expect(BorderColorMeter.vote(levels: Array(onWhite.prefix(46)), spreads: even) == nil)
        // A black-bordered card with a light, even frame (a white card): the outermost band, black,
        // is the border, however wide the frame inside it.
        let art = [Double](repeating: 100, count: 4), lightFrame = [Double](repeating: 230, count: 13)
        let border = [Double](repeating: 15, count: 9), lightTable = [Double](repeating: 200, count: 20)
        #expect(BorderColorMeter.vote(levels: art + lightFrame + border + lightTable, spreads: even) == "black")
        // A light band well inside the side (a frame, the quad out on the table) is no white border.
        let inside = [Double](repeating: 100, count: 10) + [Double](repeating: 235, count: 8) + [Double](repeating: 120, count: 28)
        #expect(BorderColorMeter.vote(levels: inside, spreads: even) == nil)
        // ...nor is one outside it (a toploader's rim beyond the card's black border).
        let rim = [Double](repeating: 100, count: 17) + [Double](repeating: 15, count: 9) + [Double](repeating: 60, count: 8)
            + [Double](repeating: 235, count: 7) + [Double](repeating: 60, count: 5)
        #expect(BorderColorMeter.vote(levels: rim, spreads: even) == "black")
        // An uneven band (art, text, a textured table) is no border.
        #expect(BorderColorMeter.vote(levels: Array((frame + whiteBand + table).prefix(46)), spreads: [Double](repeating: 40, count: 46)) == nil)
    }
}
