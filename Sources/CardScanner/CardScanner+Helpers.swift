import CardReader
import CardScanOCR

/// A photo's work shared with idle workers' engines (`CardScanner.helpers`, `ScanHelpers`).
extension CardScanner {
    /// Reads `photo` as `PhotoRead.readEach` does, the main card on this engine while the other
    /// located regions are read ahead on the helpers', then each region decided in turn on this
    /// thread, with every region known read ahead of its turn (the located regions do not overlap,
    /// and proposals are made only when their turn comes, so few are passed over); a region's
    /// confirmation (when its read wants one and card texts are read) is made ahead too, and each
    /// card kept is identified as soon as it is. The same regions are decided in the same order
    /// on the same readings as one by one, so the cards are the same: work made ahead for a
    /// region passed over, or a confirmation a card read since made needless, is dropped.
    /// Once every region is decided, the titles outside the cards (`CardReader.titleCards`, the
    /// photo's longest read) start first on whichever engine is free (`TitlesAhead`), while the
    /// cards still to identify share the other engines.
    /// Returns the cards identified ahead, each with the reading it was identified from
    /// (`fitted` gives them the photo's final timings); the confirmed cards and the titles read
    /// ahead go to `identified`.
    func readSharing(_ photo: PhotoRead, with helpers: ScanHelpers, confirmed identified: Identified) throws -> [(then: CardReading, card: Card)] {
        let jobs = helpers.group(of: identified)
        defer { jobs.close() }
        let readsText = self.readsText
        typealias Ahead = ScanHelpers.Task<(read: PhotoRead.RegionRead, confirmation: ScanHelpers.Task<Card?>?)>
        var ahead: [Int: Ahead] = [:]
        var early: [(then: CardReading, card: ScanHelpers.Task<Card>)] = []

        func readAhead() {
            for region in photo.upcoming(Int.max) where ahead[region.order] == nil {
                ahead[region.order] = jobs.submit { scanner in
                    let read = try photo.read(region, with: scanner.reader)
                    let confirmation = readsText && read.wantsConfirmation
                        ? jobs.submit { try $0.confirmedCard(read.reading, photo.gray) } : nil
                    return (read, confirmation)
                }
            }
        }
        func identifyAhead(_ reading: CardReading) {
            early.append((reading, jobs.submit { try $0.identify(reading) { photo.gray } }))
        }

        readAhead()
        try photo.readMainCard(with: reader)
        identifyAhead(photo.readings[0])
        if readsText {
            let main = early[0].card
            photo.confirmMain { [self] in try jobs.value(main, running: self).match.name != nil }
        }
        var mainQuad = photo.readings[0].quad
        while let region = try photo.next() {
            for (order, job) in ahead where order < region.order {
                jobs.cancel(job)
                ahead[order] = nil
            }
            readAhead()
            let (read, confirmation) = try ahead.removeValue(forKey: region.order).map { try jobs.value($0, running: self) }
                ?? (photo.read(region, with: reader), nil)
            let kept = photo.readings.count
            var asked = false, isConfirmed = false
            try photo.decide(read, confirm: readsText ? { [self] reading, gray in
                asked = true
                let found: Card?? = try confirmation.map { try jobs.value($0, running: self) }
                guard let card = try found ?? confirmedCard(reading, gray) else { return false }
                identified.confirmed.append((reading, card))
                isConfirmed = true
                return true
            } : nil)
            if !asked, let confirmation { jobs.cancel(confirmation) }
            if photo.readings.count > kept, !isConfirmed { identifyAhead(photo.readings[photo.readings.count - 1]) }
            // A part of the main region kept in its place (`PhotoRead.decide`).
            else if photo.readings[0].quad != mainQuad, !isConfirmed { identifyAhead(photo.readings[0]) }
            mainQuad = photo.readings[0].quad
        }
        // The photo's titles outside its cards, read on the first engine free while the cards
        // are identified (not where a stack's cards will stand in for a reading: read outside them).
        if readsPhotoTitles, photo.readings.count >= reader.options.tuning.photoTitles.minimumCards,
           !(readsStacks && photo.readings.contains(where: reader.mayBeStack)) {
            identified.titlesAhead = TitlesAhead(outside: photo.readings, in: photo.image, gray: photo.gray, jobs: helpers.group(of: identified))
        }
        return try early.map { ($0.then, try jobs.value($0.card, running: self)) }
    }

    /// Cards identified ahead (`readSharing`) with the timings of the readings `readAll` returned:
    /// each the final reading's stages plus what identifying it added (the main card's reading
    /// gains the photo's decoding and the time spent on regions that held no card after it was
    /// identified).
    static func fitted(_ early: [(then: CardReading, card: Card)], to readings: [CardReading]) -> [Card] {
        early.compactMap { then, card in
            guard let final = readings.first(where: { $0.quad == then.quad }) else { return nil }
            var fitted = card
            let (t, added, was) = (final.timings, card.reading.timings, then.timings)
            fitted.reading.timings.decode = t.decode + added.decode - was.decode
            fitted.reading.timings.locate = t.locate + added.locate - was.locate
            fitted.reading.timings.ocr = t.ocr + added.ocr - was.ocr
            fitted.reading.timings.match = t.match + added.match - was.match
            fitted.reading.timings.total = t.total + added.total - was.total
            return fitted
        }
    }
}
