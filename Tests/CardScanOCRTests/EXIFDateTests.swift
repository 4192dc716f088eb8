import CardScanOCR
import Foundation
import Testing

@Suite("EXIF capture day")
struct EXIFDateTests {
    /// A big-endian TIFF block: IFD0 with DateTime and (optionally) a pointer to an Exif IFD
    /// holding DateTimeOriginal.
    static func tiff(dateTime: String?, original: String?) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }
        var ifd0: [(tag: Int, type: Int, count: Int, payload: [UInt8])] = [(0x0112, 3, 1, u16(6) + [0, 0])]
        if let dateTime { ifd0.append((0x0132, 2, dateTime.utf8.count + 1, ascii(dateTime))) }
        if original != nil { ifd0.append((0x8769, 4, 1, [])) }
        // Layout: header (8), IFD0, its data, Exif IFD, its data.
        let ifd0Size = 2 + ifd0.count * 12 + 4
        var data: [UInt8] = []
        var entries: [UInt8] = []
        let dataStart = 8 + ifd0Size
        for e in ifd0 {
            if e.tag == 0x8769 { continue }
            if e.payload.count > 4 {
                entries += u16(e.tag) + u16(e.type) + u32(e.count) + u32(dataStart + data.count)
                data += e.payload
            } else {
                entries += u16(e.tag) + u16(e.type) + u32(e.count) + e.payload
            }
        }
        var exif: [UInt8] = []
        if let original {
            let exifStart = dataStart + data.count
            entries += u16(0x8769) + u16(4) + u32(1) + u32(exifStart)
            exif = u16(1) + u16(0x9003) + u16(2) + u32(original.utf8.count + 1) + u32(exifStart + 18) + u32(0) + ascii(original)
        }
        return [0x4D, 0x4D] + u16(42) + u32(8) + u16(ifd0.count) + entries + u32(0) + data + exif
    }

    @Test("DateTimeOriginal is preferred; DateTime is the fallback; the orientation still reads")
    func preferOriginal() {
        let both = EXIFMetadata.read(from: Data(Self.tiff(dateTime: "2020:01:02 10:00:00", original: "2015:12:06 22:38:22")))
        #expect(both.captureDay == "2015-12-06")
        #expect(both.orientation == .right)
        #expect(EXIFMetadata.read(from: Data(Self.tiff(dateTime: "2016:03:04 10:00:00", original: nil))).captureDay == "2016-03-04")
        #expect(EXIFMetadata.read(from: Data(Self.tiff(dateTime: nil, original: nil))).captureDay == nil)
    }

    @Test("values that are not dates read as no date")
    func notDates() {
        for text in ["0000:00:00 00:00:00", "    :  :     :  :  ", "2015-12-06 22:38:22", "2015:13:06 22:38:22", "2015:1"] {
            #expect(EXIFMetadata.read(from: Data(Self.tiff(dateTime: text, original: nil))).captureDay == nil, "\(text)")
        }
    }

    @Test("every truncation of the block reads without trapping")
    func truncated() {
        let full = Self.tiff(dateTime: "2016:03:04 10:00:00", original: "2015:12:06 22:38:22")
        for n in 0..<full.count {
            let day = EXIFMetadata.read(from: Data(full.prefix(n))).captureDay
            #expect(day == nil || day == "2015-12-06" || day == "2016-03-04")
        }
    }

    @Test("a real phone photo (../shared) carries its capture day")
    func realPhoto() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("../shared/photos/alexandrearpin/photos/damaged/ori_aven_battle_priest_2.JPG").path
        try #require(FileManager.default.fileExists(atPath: path), "../shared beside the project")
        #expect(try Image(contentsOf: path, options: Image.LoadOptions(grayscale: true)).captureDay == "2015-12-06")
    }
}
