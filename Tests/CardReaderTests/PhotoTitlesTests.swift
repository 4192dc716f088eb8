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
}
