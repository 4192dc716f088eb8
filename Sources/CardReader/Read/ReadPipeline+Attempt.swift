import CardScanOCR

/// One reading of a card on one quad: the title band, then the collector lines below a title.
extension ReadPipeline {
    /// One way of reading the card: its corners, what was read, and how plausible it is.
    struct Attempt {
        var corners: Quad
        var observations: [CardObservation]
        var fields: ExtractedFields
        var titleQuality: Double
        /// Credit (or debit) for how the attempt was made.
        var prior = 0.0
        /// The title is a card name the caller's vocabulary knows.
        var titleKnown = false
        /// The collector band holds a copyright line: an older frame, whose number is in it.
        var printsCopyright = false
        /// The bands were read where an older frame puts them (`CardLayout.extendedTitle`).
        var extended = false
        /// The way up it was read at (a rescue's, its basis'; a placed card's, the likely way).
        var wayUp: WayUp = .likely
        /// Other places the card may be, read when nothing at this one names a card (`CardReading.elsewhere`).
        var elsewhere: [Attempt] = []
        /// The copyright line has been read.
        var copyrightRead: Bool { observations.contains { $0.region == .copyright } }
        /// Whether `other`, read on another quad of this card, reads the same known name above
        /// collector lines this reading lacks: the same card, whose bottom edge the other quad
        /// found (a quad seen at a steep angle whose bottom cut through the text box, where the
        /// quad grown by the border read the name poorly but the collector lines too).
        func isCompleted(by other: Attempt) -> Bool {
            let sameName = titleKnown && other.titleKnown && other.fields.title?.value == fields.title?.value
            let addsLines = (other.fields.collectorNumber != nil && fields.collectorNumber == nil)
                || (other.fields.setCode != nil && fields.setCode == nil)
            return sameName && addsLines
        }
    }

    /// Reads the title band, then (when the title band is plausible) the collector band.
    /// `wayUp`: whether the corners are the way up the card most likely is (the way-up test's
    /// first choice, or the way an earlier reading settled), and how sure that is.
    /// `title`: the title band as already read (otherwise it is read here).
    /// `onlyKnownTitle`: the collector band is read only below a known title (a quad that is a guess).
    func attempt(_ corners: Quad, gray: GrayImage, extended: Bool, wayUp: WayUp, title: RegionRead? = nil,
                 onlyKnownTitle: Bool = false) throws -> Attempt {
        let titleRegion = extended ? CardLayout.extendedTitle : CardLayout.title
        let collectorRegion = extended ? CardLayout.extendedCollector : CardLayout.collector
        let tuning = options.tuning
        let title = try title ?? readRegion(.title, titleRegion, cardHeight: CardLayout.titleCardHeight,
                                            gray: gray, corners: corners, psm: .singleBlock, maximumWords: tuning.title.maximumBandWords)
        let titleOnly = extractor.extract(title.observations)
        // The extractor put the vocabulary's name in place of what was read when it knew one.
        let known = titleOnly.title.map { title in options.resolveTitle?(title.value) != nil } ?? false
        DebugDump.trace("title quality \(title.quality) \"\(titleOnly.title?.sources.first ?? "")\" known \(known) band \(extended ? "extended" : "standard") \(wayUp.rawValue)")
        let titleMissed = !title.crowded && ((wayUp == .sure && !extended) || (!wayUp.isSecond && title.observations.isEmpty))
        guard known || (!onlyKnownTitle && (title.quality >= tuning.title.minimumQuality || titleMissed)) else {
            // No title where the quad puts it: the quad is not a card, or this way up is wrong.
            // Its collector band would be noise, and noise is slow to read. (The likely way up,
            // an empty title band is read on, and so is a standard band of noise on a main card
            // whose way up measured clearly: a quad seen at a steep angle can miss the title and
            // still hold the collector lines.)
            return Attempt(corners: corners, observations: title.observations, fields: titleOnly, titleQuality: title.quality, wayUp: wayUp)
        }
        let collectorPatch = Self.patch(collectorRegion, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: corners)
        let collector = try read(collectorPatch, .collector, collectorRegion, psm: .sparseText)
        var observations = title.observations + collector.observations
        var fields = extractor.extract(observations)
        // Further looks at the collector lines while a field is missing, each parsed on its own
        // and the fields pooled:
        // - block mode: sparse-text and block mode segment the two short lines differently, and
        //   each reads some lines the other garbles;
        // - constrained: keeps the read from drifting to lower case (`ose/ies` for 056/185);
        // - the patch at half its size: reads blurred lines that the full-size patch garbles
        //   (`057/264 C` / `OTK` where it read `OS?/264 €` / `OTM`).
        // Only on a way up whose title reads well (the others rarely win), or that is a known
        // name read poorly, and then at half size only (the constrained read made `73/272` of
        // `or3/ 272 {` below a poorly read short title). Each only when the band read some digit
        // or slash (a band with neither is an older frame's or holds no legible line). For a missing
        // set code only beside a modern number line (old frames print none). Nor on an older
        // frame, whose collector band holds the copyright line. (The second model looks once
        // more, after the search: `secondLook`.)
        let printsCopyright = collector.observations.contains { CollectorLineParser.isCopyrightLine($0.observation.text) }
        let readsNumberMarks = collector.observations.contains { $0.observation.text.contains { $0.isNumber || $0 == "/" } }
        for retry in CollectorRetry.all where fields.lacksCollectorFields {
            guard !collector.observations.isEmpty, !printsCopyright else { break }
            guard retry.isWorthReading(titleQuality: title.quality, titleKnown: known, bandReadNumberMarks: readsNumberMarks,
                                       cleanTitleQuality: tuning.title.cleanQuality) else { continue }
            let again = try read(collectorPatch.reduced(by: retry.reduction), .collector, collectorRegion, psm: retry.psm, whitelist: retry.whitelist)
            absorb(again, below: title.observations, into: &fields, &observations, look: "collector retry \(retry)")
        }
        return Attempt(corners: corners, observations: observations, fields: fields, titleQuality: title.quality,
                       titleKnown: known, printsCopyright: printsCopyright && fields.collectorNumber == nil, extended: extended, wayUp: wayUp)
    }

    /// The second model's look (`CardReader.SecondModel`) at the collector lines of the reading
    /// the search settled on, while its number or set code is missing: below a title read
    /// cleanly or a known name, on a band that read a digit or a slash (`osée/ies` for 056/185; a
    /// band with neither is rarely a collector line, and loading the model for a quad placed over
    /// the flavor text cost a clean card 100 ms). After the search, not within it: a number the
    /// model read on a quad placed wrong settled the search on that quad.
    func secondLook(_ found: Attempt, gray: GrayImage) throws -> Attempt {
        guard let second = secondRecognizer, !found.printsCopyright, found.fields.lacksCollectorFields,
              found.titleKnown || found.titleQuality > options.tuning.title.cleanQuality,
              found.observations.contains(where: { o in
                  o.region == .collector && o.observation.text.contains { $0.isNumber || $0 == "/" }
              }),
              let engine = second.engine() else { return found }
        let region = found.extended ? CardLayout.extendedCollector : CardLayout.collector
        let patch = Self.patch(region, cardHeight: CardLayout.bottomCardHeight, gray: gray, corners: found.corners)
        let again = try read(patch, .collector, region, psm: .sparseText, engine: engine)
        var looked = found
        absorb(again, below: found.observations.filter { $0.region == .title }, into: &looked.fields, &looked.observations,
               look: "second model on the collector lines")
        return looked
    }

    /// Another read of the collector band (`again`) parsed below the title read (`title`): the
    /// fields it found that `fields` lacks are taken (with `takingRarity`, the rarity letter of
    /// the same number too), and its lines join `observations` when any was.
    func absorb(_ again: RegionRead, below title: [CardObservation], into fields: inout ExtractedFields,
                _ observations: inout [CardObservation], look: String, takingRarity: Bool = false) {
        let other = extractor.extract(title + again.observations)
        var absorbed = fields.absorbingCollectorFields(of: other)
        if takingRarity, fields.absorbingRarity(of: other) { absorbed = true }
        DebugDump.trace("\(look): \(absorbed ? "added fields" : "nothing new")")
        if absorbed { observations += again.observations }
    }

    /// One more look at the collector band: a page-segmentation mode, a character whitelist, and
    /// how much the patch is reduced first.
    struct CollectorRetry: CustomStringConvertible {
        var psm: PageSegmentationMode
        var whitelist: String?
        var reduction = 1

        /// The looks, in the order they are taken.
        static let all = [CollectorRetry(psm: .singleBlock), CollectorRetry(psm: .sparseText, whitelist: "0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                          CollectorRetry(psm: .sparseText, reduction: 2)]

        /// Only where the band's first read shows a digit or a slash: a band read with neither
        /// holds no number line legible at this size (a small card's lines read as scraps) or is
        /// an older frame's, and the other looks found nothing new there. Then below a title
        /// band that read cleanly; a reduced patch also below a known name read poorly.
        func isWorthReading(titleQuality: Double, titleKnown: Bool, bandReadNumberMarks: Bool, cleanTitleQuality: Double) -> Bool {
            let titled = titleQuality > cleanTitleQuality
            return bandReadNumberMarks && (titled || (reduction > 1 && titleKnown))
        }

        var description: String {
            "\(psm)\(whitelist == nil ? "" : " constrained")\(reduction > 1 ? " at 1/\(reduction) size" : "")"
        }
    }

    /// Which way up a quad is read, as far as the way-up test and earlier readings tell.
    enum WayUp: String {
        /// The likely way up, on the main card of a photo whose way-up test was decisive.
        case sure = "sure way up"
        /// The way-up test's first choice (or a way an earlier reading settled).
        case likely = "likely way up"
        /// The other way.
        case other = "other way up"
        /// The other way, on the main card of a photo whose way-up test was decisive: its
        /// readings carry `Tuning.Orientation.overruledWayPrior`.
        case overruled = "other way up, against the test"

        /// The way the way-up test put second (`other`, `overruled`).
        var isSecond: Bool { self == .other || self == .overruled }
    }
}
