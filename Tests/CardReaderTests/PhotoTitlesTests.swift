import CardScanOCR
import Foundation
import Testing

@testable import CardReader

@Suite("Titles read anywhere in a photo of several cards: the pieces that decide a line is a title")
struct PhotoTitlesTests {
    @Test("a name is found in a line letter for letter, with junk around it; a partial or foreign reading misses letters")
    func lettersMissed() {
        #expect(ReadPipeline.lettersMissed("Squee, Goblin Nabob", in: ". Squee, Goblin Nabob (2)") == 0)
        #expect(ReadPipeline.lettersMissed("Forgotten Cave", in: "{ rorgotten Cave") == 1)
        // A title read in part snapped to another language's name: two letters apart.
        #expect(ReadPipeline.lettersMissed("Manipolatore", in: "’ Manipulator") == 2)
        #expect(ReadPipeline.lettersMissed("Cremate", in: "create a") == 1)
        #expect(ReadPipeline.lettersMissed("Mind Rot", in: "") == 7)
    }

    @Test("two reads of one line are one line; lines one above the other are not")
    func sameLine() {
        let line = (x: 100.0, y: 50.0, w: 300.0, h: 30.0)
        #expect(ReadPipeline.sameLine(line, (x: 110, y: 52, w: 200, h: 28)))
        #expect(!ReadPipeline.sameLine(line, (x: 100, y: 90, w: 300, h: 30)))
        #expect(!ReadPipeline.sameLine(line, (x: 420, y: 50, w: 100, h: 30)))
    }

    @Test("titles in a column of overlapping cards: a wide gap between them, and the strip above the top one, are read again")
    func titleGaps() {
        let t = Tuning().photoTitles
        // The title lines of the spread's second column (turned photo's pixels, cards ~300 px wide):
        // the shortest gap is 97 px, and two titles hide in the 214 px gap above it.
        let column = [(x: 713.0, y: 35.0, w: 120.0, h: 12.0), (x: 696, y: 249, w: 110, h: 23), (x: 692, y: 346, w: 100, h: 12)]
        let alone = (x: 1400.0, y: 300.0, w: 100.0, h: 12.0) // a title in no column
        let strips = ReadPipeline.titleGaps(column + [alone], cardWidth: 300, tuning: t)
        #expect(strips.count == 2, "\(strips)")
        let gap = strips.first { $0.y > 40 }
        #expect(gap.map { abs($0.y - 47) < 1e-9 && abs($0.h - 202) < 1e-9 } == true, "from the upper title's foot to the lower's top")
        #expect(strips.allSatisfy { $0.x < 692 && $0.x + $0.w > 692 + 0.75 * 300 }, "from before the titles as far right as a title runs")
        // Two titles in a column are no column; a gap of a whole card below its title is no gap.
        #expect(ReadPipeline.titleGaps(Array(column.prefix(2)), cardWidth: 300, tuning: t).isEmpty)
        let card = [(x: 100.0, y: 100.0, w: 120.0, h: 12.0), (x: 100, y: 160, w: 120, h: 12), (x: 100, y: 600, w: 120, h: 12)]
        #expect(ReadPipeline.titleGaps(card, cardWidth: 300, tuning: t).allSatisfy { $0.y < 100 }, "only the strip above")
    }

    @Test("titles in a row of cards side by side: a wide gap between them, and the strips before and after the row, are read again")
    func titleRowGaps() {
        let t = Tuning().photoTitles
        // Two titles 125 px apart in a row (cards ~300 px wide), a third 3 steps on, and a title
        // far below them in no row of its own.
        let row = [(x: 914.0, y: 877.0, w: 80.0, h: 15.0), (x: 1039, y: 876, w: 100, h: 15), (x: 1414, y: 880, w: 90, h: 15)]
        let below = (x: 438.0, y: 1200.0, w: 90.0, h: 15.0)
        let strips = ReadPipeline.titleRowGaps(row + [below], cardWidth: 300, tuning: t)
        #expect(strips.count == 3, "\(strips)")
        #expect(strips.allSatisfy { $0.y < 876 && $0.y + $0.h > 895 }, "a line height above and below the row")
        #expect(strips.contains { abs($0.x - 1139) < 1e-9 && abs($0.x + $0.w - 1414) < 1e-9 }, "the gap: from one title's end to the next's start")
        #expect(strips.contains { $0.x + $0.w == 914 && $0.x < 914 - 125 }, "before the row")
        #expect(strips.contains { $0.x == 1504 && $0.x + $0.w > 1414 + 125 + 0.75 * 300 }, "after it, as far as a title runs")
        #expect(ReadPipeline.titleRowGaps([below], cardWidth: 300, tuning: t).isEmpty, "one title is no row")
    }

    @Test("a point of the turned photo maps back to where the pixel was before turning", arguments: [0, 1, 2, 3])
    func unturned(turns: Int) {
        // A 5 x 3 image with one marked pixel: wherever turning puts it, unturning its centre
        // gives the marked pixel's centre.
        var pixels = [UInt8](repeating: 0, count: 15)
        pixels[1 * 5 + 3] = 255
        let turned = GrayImage(width: 5, height: 3, pixels: pixels).turned(quarterTurns: turns)
        let index = turned.pixels.firstIndex(of: 255)!
        let at = PixelPoint(x: Double(index % turned.width) + 0.5, y: Double(index / turned.width) + 0.5)
        let back = ReadPipeline.unturned(at, quarterTurns: turns, width: 5, height: 3)
        #expect(abs(back.x - 3.5) < 1e-9 && abs(back.y - 1.5) < 1e-9, "\(back)")
    }

    @Test("blanking fills the inside of a quad and nothing else; enlarging doubles each side")
    func imageOps() {
        let image = GrayImage(width: 20, height: 10, pixels: [UInt8](repeating: 10, count: 200))
        let quad = Quad([PixelPoint(x: 2, y: 2), PixelPoint(x: 8, y: 2), PixelPoint(x: 8, y: 6), PixelPoint(x: 2, y: 6)])
        let blanked = image.blanking([quad], with: 200)
        #expect(blanked.pixels[4 * 20 + 5] == 200)
        #expect(blanked.pixels[4 * 20 + 12] == 10)
        #expect(blanked.pixels.filter { $0 == 200 }.count == 35) // x 2…8, y 2…6
        let enlarged = image.enlarged(by: 2)
        #expect(enlarged.width == 40 && enlarged.height == 20 && enlarged.pixels.allSatisfy { $0 == 10 })
    }

    @Test("a read's patch is reduced by the whole factor nearest the scale wanted, within the pixels allowed")
    func scaledForRead() {
        let image = GrayImage(width: 200, height: 100, pixels: [UInt8](repeating: 10, count: 20_000))
        func scaled(_ wanted: Double, pixels: Int = 1_000_000) -> Double {
            image.scaled(by: wanted, maximumScale: 3, maximumPixels: pixels).scale
        }
        #expect(scaled(0.9) == 1, "not halved: its lines at 55% of the size wanted")
        #expect(scaled(0.6) == 0.5 && scaled(0.3) == 1.0 / 3)
        #expect(scaled(0.9, pixels: 10_000) == 0.5, "no more pixels than allowed (0.71 of each side)")
        #expect(scaled(0.42, pixels: 4_000) == 1.0 / 3, "the nearest factor, 2, gives more pixels than allowed")
        #expect(image.scaled(by: 1, maximumScale: 0.7, maximumPixels: 1_000_000).scale == 0.5, "never above maximumScale")
        #expect(scaled(2) == 2 && scaled(5) == 3)
        let half = image.scaled(by: 0.6, maximumScale: 3, maximumPixels: 1_000_000).image
        #expect(half.width == 100 && half.height == 50)
    }
}
