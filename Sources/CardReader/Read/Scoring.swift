/// The one scoring function of the reader's search, and the judgements made from it: how
/// plausible a reading is as the card, when it ends the search, and when one reading replaces
/// another. Its numbers are `Tuning.scoring`'s and `Tuning.alternatives`'s.
extension ReadPipeline {
    struct Scoring {
        var tuning: Tuning
        /// What counts as one place (`NeighbourCards.samePlace`).
        var neighbours: NeighbourCards { NeighbourCards(tuning: tuning.neighbours) }

        /// Title quality plus credit for collector lines that parse and for a known title, plus
        /// the hypothesis' prior. `countingNoise` false: a title band read below
        /// `Tuning.title.minimumQuality` (and no known name) holds no title and adds nothing.
        func score(_ a: Attempt, countingNoise: Bool = true) -> Double {
            let s = tuning.scoring
            let title = countingNoise || a.titleKnown || a.titleQuality >= tuning.title.minimumQuality ? a.titleQuality : 0
            return a.prior + title + (a.titleKnown ? s.knownTitleCredit : 0)
                + (a.fields.collectorNumber != nil ? s.collectorNumberCredit : 0) + (a.fields.setCode != nil ? s.setCodeCredit : 0)
        }

        /// Good enough to stop looking for where the card is: a title that reads cleanly or that
        /// the vocabulary knows (a title can read with a stray bracket), and collector lines.
        func isConvincing(_ a: Attempt) -> Bool {
            (a.titleQuality > tuning.scoring.convincingTitleQuality || a.titleKnown) && Self.readsCollectorLines(a)
        }

        /// A known title that settles where the card is and which way is up. One read at very low
        /// quality with no collector line below it does not: the vocabulary snaps fragments of
        /// noise to names, so the other way up is read too and the better reading wins.
        func settlesTitle(_ a: Attempt) -> Bool {
            a.titleKnown && (a.titleQuality >= tuning.scoring.unsettledTitleQuality || Self.readsCollectorLines(a))
        }

        /// Whether collector lines parsed below the title: a number or a set code.
        static func readsCollectorLines(_ a: Attempt) -> Bool {
            a.fields.collectorNumber != nil || a.fields.setCode != nil
        }

        /// Whether the placement round may end on `best` while `lastPlace` (the last quad it has
        /// to read: the whole photo or the located card) is still unread: a reading that convinces,
        /// or a known title that settles and would count as a title without the vocabulary
        /// (`Tuning.title.minimumQuality`). A title alone read worse settles only its own place: a
        /// fragment of noise in the photo's edge read as a whole-photo title band snaps to a name
        /// as readily as a misread title, so the other place is read too and the better reading
        /// wins (`placementTaken`).
        func endsPlacement(_ reading: Attempt, best: Attempt?, lastPlace: Quad) -> Bool {
            if isConvincing(reading) { return true }
            guard let best, settlesTitle(best) else { return false }
            return best.titleQuality >= tuning.title.minimumQuality || Self.readsCollectorLines(best) || neighbours.samePlace(lastPlace, best.corners)
        }

        /// Placement: the higher score wins. Between two places (the located card and the whole
        /// photo), a title band of noise counts as nothing, and the place read first (the located
        /// card, unless the photo is shaped like a scan) keeps a tie: scraps of a table read at
        /// 0.1 somewhere in the photo are no sign that the card is there. Between readings of one
        /// place (its two ways up, its bands) noise still counts: the band over the real title
        /// bar gathers more text-like marks than the one over the small print. The same known
        /// name read at both places is compared without its title quality (its collector lines
        /// and its prior: the standard bands before the extended ones), the place read first
        /// keeping a tie: a quad inside the card (its inner frame) reads the title as well as
        /// the card does, and more cleanly.
        func placementTaken(_ candidate: Attempt, over best: Attempt?) -> Attempt? {
            guard let best else { return candidate }
            let onePlace = neighbours.samePlace(candidate.corners, best.corners)
            if !onePlace, candidate.titleKnown, best.titleKnown, candidate.fields.title?.value == best.fields.title?.value {
                return score(candidate) - candidate.titleQuality > score(best) - best.titleQuality ? candidate : nil
            }
            return score(candidate, countingNoise: onePlace) > score(best, countingNoise: onePlace) ? candidate : nil
        }

        /// An alternative quad is taken when it scores clearly better, a title band of noise
        /// (under `title.minimumQuality`) counting as nothing (two bands of noise tell no quad
        /// from another: a card's inner frame grown by a border read 0.28 of noise over 0.02 and
        /// moved the text read off the card), or when it reads the same known name above
        /// collector lines the best reading lacks (the same card, whose bottom edge the other
        /// quad found). The better reading of the title band is kept: the quad changed under it.
        func alternativeTaken(_ candidate: Attempt, over found: Attempt) -> Attempt? {
            guard score(candidate, countingNoise: false) > score(found, countingNoise: false) + tuning.alternatives.margin
                    || found.isCompleted(by: candidate) else { return nil }
            var taken = candidate
            if (found.titleKnown && !candidate.titleKnown) || (found.titleKnown == candidate.titleKnown && found.titleQuality > candidate.titleQuality) {
                taken.fields.title = found.fields.title
                taken.titleKnown = found.titleKnown
                taken.titleQuality = found.titleQuality
                taken.observations = found.observations.filter { $0.region == .title } + candidate.observations.filter { $0.region != .title }
            }
            return taken
        }

        /// A card placed around a part of it (its art, a text box) is a guess: taken only for a
        /// known name long enough not to be what noise hits.
        func placedCardTaken(_ candidate: Attempt) -> Attempt? {
            candidate.titleKnown && (candidate.fields.title?.value.filter(\.isLetter).count ?? 0) >= tuning.title.minimumGuessedNameLetters ? candidate : nil
        }

        /// Placed cards not taken, as places the card may be instead: one reading of each place
        /// (the better of its bands; places as near as `NeighbourCards.samePlace` are one), the best scored first, up to `Tuning.lastResorts.placesElsewhere`.
        func placesElsewhere<C: Collection>(_ placed: C) -> [Attempt] where C.Element == Attempt {
            var places: [Attempt] = []
            for reading in placed.sorted(by: { score($0) > score($1) }) where places.count < tuning.lastResorts.placesElsewhere {
                if !places.contains(where: { neighbours.samePlace($0.corners, reading.corners) }) { places.append(reading) }
            }
            return places
        }
    }
}
