import Foundation
import TestSupport
import Testing

@testable import CardCatalog

/// Both importers on the real shared files, imported into one catalog.
@Suite("Shared data import", .tags(.sharedData), .needsSharedData)
struct SharedDataImportTests {
    @Test("Scryfall 2019 bulk file: every object becomes one printing")
    func scryfallCounts() throws {
        let shared = try SharedCatalog.get()
        let scryfall = try #require(shared.report.sources.first)
        #expect(scryfall.format == "scryfall-cards")
        #expect(scryfall.records == 45_851)
        #expect(scryfall.imported == 45_851)
        #expect(scryfall.malformed == 0)
    }

    @Test("MTGJSON AllPrintings: face records sharing a Scryfall id collapse; overlap with Scryfall is one row")
    func mtgjsonCounts() throws {
        let shared = try SharedCatalog.get()
        let mtgjson = try #require(shared.report.sources.last)
        #expect(mtgjson.format == "mtgjson")
        #expect(mtgjson.sourceDate == "2022-04-25")
        #expect(mtgjson.records == 59_634)
        #expect(mtgjson.sets == 579)
        // 58,638 distinct Scryfall ids, 42,089 of them already imported from the Scryfall file.
        #expect(mtgjson.imported == 16_549)
        #expect(mtgjson.updated == 42_089)
        #expect(mtgjson.skipped == 996)
        #expect(mtgjson.malformed == 0)
        #expect(shared.report.totalPrintings == 45_851 + 16_549)
    }

    @Test("No duplicated printing: ids are unique")
    func noDuplicates() throws {
        let shared = try SharedCatalog.get()
        let info = try shared.catalog.info()
        #expect(info.printings == 62_400)
        #expect(info.imports.count == 2)
        #expect(info.sets >= 579)
        #expect(info.languages["en"] ?? 0 > 60_000)
        #expect((3_000...5_000).contains(info.digitalOnly ?? 0)) // 3,665 on 2026-11-24
    }

    @Test("Digital-only printings are marked (Scryfall `digital`, MTGJSON `availability`); gold-bordered and Collectors' Edition paper cards are not")
    func digitalOnly() throws {
        let catalog = try SharedCatalog.get().catalog
        let wildcats = try catalog.printings(named: "Canyon Wildcat")
        #expect(Set(wildcats.filter { $0.isPaper == false }.map(\.setCode)) == ["tpr"])
        #expect(Set(wildcats.filter { $0.isPaper == true }.map(\.setCode)) == ["tmp", "8ed", "ddh"])
        let bolts = try catalog.printings(named: "Lightning Bolt")
        #expect(bolts.filter { ["ced", "ptc", "lea"].contains($0.setCode) }.allSatisfy { $0.isPaper == true })
        #expect(bolts.filter { ["me1", "td0", "prm"].contains($0.setCode) }.allSatisfy { $0.isPaper == false })
        // MTGJSON-only printings carry it too (Mystery Booster, 2019, is not in the 2019 Scryfall file).
        #expect(try catalog.printings(set: "mb1", number: "30").first?.isPaper == true)
    }

    @Test("Border colours come from both sources (Scryfall `border_color`, MTGJSON `borderColor`)")
    func borderColors() throws {
        let catalog = try SharedCatalog.get().catalog
        let wildcats = try catalog.printings(named: "Canyon Wildcat")
        #expect(Dictionary(uniqueKeysWithValues: wildcats.map { ($0.setCode, $0.borderColor) })
                == ["8ed": .white, "tmp": .black, "ddh": .black, "tpr": .black])
        let bolts = try catalog.printings(named: "Lightning Bolt")
        #expect(bolts.filter { ["3ed", "4ed"].contains($0.setCode) }.allSatisfy { $0.borderColor == .white })
        #expect(bolts.filter { ["lea", "ced", "m10"].contains($0.setCode) }.allSatisfy { $0.borderColor == .black })
        // MTGJSON-only printings carry it too.
        #expect(try catalog.printings(set: "mb1", number: "30").first?.borderColor == .black)
    }

    @Test("which cards may print a number in their copyright line: a printing in a 1998–2014 frame")
    func numberInCopyright() throws {
        let catalog = try SharedCatalog.get().catalog
        #expect(catalog.printsNumberInCopyright("Counterspell"), "1997 and 2003 frames among its printings")
        #expect(catalog.printsNumberInCopyright("Lightning Bolt"))
        #expect(!catalog.printsNumberInCopyright("Broodhunter Wurm"), "2015 frame only")
        #expect(!catalog.printsNumberInCopyright("Carnage Tyrant"))
        #expect(catalog.printsNumberInCopyright("Insectile Aberration"), "a face name: Innistrad, 2011")
        #expect(catalog.printsNumberInCopyright("Zzyzx Qwerty"), "no such card: nothing tells")
        // Without frames (the sample catalog's records), the release date tells.
        let sample = try SampleCatalog.open()
        #expect(sample.printsNumberInCopyright("Counterspell") && !sample.printsNumberInCopyright("Carnage Tyrant"))
    }

    @Test("Exact lookup, multi-face names and printings by name")
    func lookups() throws {
        let catalog = try SharedCatalog.get().catalog
        let wurm = try catalog.printings(set: "bfz", number: "171")
        #expect(wurm.map(\.name) == ["Broodhunter Wurm"])
        #expect(wurm.first?.rarity == "common")
        #expect(try catalog.printings(set: "BFZ", number: "0171").map(\.name) == ["Broodhunter Wurm"])
        #expect(catalog.set(code: "bfz")?.printedSize == 274)
        #expect(catalog.set(code: "bfz")?.name == "Battle for Zendikar")

        let delver = try #require(try catalog.printings(named: "Delver of Secrets").first)
        #expect(delver.name == "Delver of Secrets // Insectile Aberration")
        #expect(delver.colors == ["U"])
        let heaven = try catalog.printings(named: "Heaven")
        #expect(heaven.contains { $0.name == "Heaven // Earth" && $0.faceNames == ["Heaven", "Earth"] })
        let bolts = try catalog.printings(named: "Lightning Bolt")
        #expect(bolts.count > 10)
        let oracle = try #require(bolts.first?.oracleID)
        #expect(try catalog.printings(oracleID: oracle).count == bolts.count)
        #expect(try catalog.printings(inSet: "dtk").count >= 264)
    }

    @Test("Printed names of non-English printings are searchable")
    func printedNames() throws {
        let catalog = try SharedCatalog.get().catalog
        let chandra = try #require(catalog.searchNames("チャンドラ・ナラー", limit: 1).first)
        #expect(chandra.name == "Chandra Nalaar")
        #expect(chandra.kind == .printed)
    }

    @Test("A misread set code resolves with the printed set size")
    func setCodes() throws {
        let catalog = try SharedCatalog.get().catalog
        #expect(catalog.nearestSetCodes("BF2", printedSize: 274).first?.code == "bfz")
        #expect(catalog.nearestSetCodes("8FZ", printedSize: 274).first?.code == "bfz")
        #expect(catalog.nearestSetCodes("DTK", printedSize: 264).first?.code == "dtk")
        #expect(catalog.nearestSetCodes("0RI", printedSize: 272).first?.code == "ori")
        let match = try #require(catalog.nearestSetCodes("BF2", printedSize: 274).first)
        #expect(match.score > 0 && match.score <= 1)
    }
}
