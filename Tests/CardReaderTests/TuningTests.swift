import CardReader
import Testing

@Suite("Reader tuning")
struct TuningTests {
    @Test("a parameter is set by its dotted name, integers and reals kept apart")
    func settingByName() throws {
        let base = Tuning()
        let tuned = try base.setting(["search.extendedBandPrior=-0.1", "title.maximumBandWords=9"])
        #expect(tuned.search.extendedBandPrior == -0.1)
        #expect(tuned.title.maximumBandWords == 9)
        #expect(tuned.scoring == base.scoring, "nothing else moves")
        #expect(try base.setting("orientation.decisiveLightness", to: "30").orientation.decisiveLightness == 30)
    }

    @Test("an unknown name, a fraction for an integer, or no '=' is refused with a message")
    func refused() {
        let base = Tuning()
        #expect(throws: TuningError.unknownName("search.nope")) { try base.setting("search.nope", to: "1") }
        #expect(throws: TuningError.unknownName("nope")) { try base.setting("nope", to: "1") }
        #expect(throws: TuningError.badValue("title.maximumBandWords", "9.5")) { try base.setting("title.maximumBandWords", to: "9.5") }
        #expect(throws: TuningError.badValue("search.extendedBandPrior", "x")) { try base.setting("search.extendedBandPrior", to: "x") }
        #expect(throws: TuningError.badAssignment("search.extendedBandPrior")) { try base.setting(["search.extendedBandPrior"]) }
    }

    @Test("every parameter is listed as name=value and each listed one can be set back")
    func listed() throws {
        let base = Tuning()
        let all = base.assignments
        #expect(all.count >= 25)
        #expect(all.contains("search.maximumHypotheses=25"))
        #expect(try base.setting(all) == base)
    }
}
