import CardCatalog
import CardMatcher
import CardReader
import CardScanTerminal
import CardScanner
import Foundation

/// What a photo of many cards costs (issue 23): against single-card photos of its size on one
/// engine, and on two engines sharing its cards as `cardscan scan --jobs 2` shares them.
public struct SeveralCardsFigures: Sendable, Codable {
    /// The photo of many cards (as in the labels file).
    public var file: String
    /// Its labelled cards.
    public var cards: Int
    /// Its size, `WxH`.
    public var size: String
    /// Wall time of `scan` on one engine, median of the rounds (ms).
    public var oneJobMs: Double
    /// Wall time of `scan` on two engines sharing the photo, median of the rounds (ms).
    public var twoJobsMs: Double
    /// The single-card photos of the same size read in the same rounds, and the median of their
    /// wall times on one engine (ms).
    public var singleCardPhotos: [String]
    public var singleCardMs: Double
    /// Rounds (each times the photo on one engine, on two, and each single-card photo once).
    public var rounds: Int
    /// Scans that failed (left out of the medians), and the first failure's message.
    public var failures: Int
    public var firstFailure: String?
    /// Jobs the lent engine ran over the two-engine rounds (0: the photo was not shared).
    public var lentJobs: Int

    /// How many single-card photos the photo costs on one engine (nil when a side was not timed).
    public var costRatio: Double? { oneJobMs > 0 ? Stats.ratio(oneJobMs, singleCardMs) : nil }
    /// How much faster two engines read it (nil when a side was not timed).
    public var speedup: Double? { twoJobsMs > 0 ? Stats.ratio(oneJobMs, twoJobsMs) : nil }
}

/// Times the photos of many cards against single-card photos of the same size (see
/// `SeveralCardsFigures`), in rounds that alternate them so that the machine's drift falls on
/// all alike.
enum SeveralCards {
    /// A photo is timed as one of many cards from this many labelled cards (a binder page).
    static let minimumCards = 9

    /// The photos to time: each photo of `minimumCards` labelled cards or more, with the
    /// single-card photos (one label, not a flat scan) of the same pixel count that were read
    /// without error, all of them (a few chosen gave a median 37% higher than all 19 of the
    /// synthetic fixtures': the photos differ more than the rounds; a photo with none is not
    /// timed: there is nothing to compare it with).
    static func pairs(_ photos: [BenchPhoto], _ outcomes: [PhotoOutcome]) -> [(several: Int, singles: [Int])] {
        func pixels(_ i: Int) -> Int? { outcomes[i].reading.map { $0.imageWidth * $0.imageHeight } }
        let singles = photos.indices.filter { i in
            photos[i].labels.count == 1 && photos[i].kind != "scan" && photos[i].labels[0].attributes["variant"] != "flat"
                && outcomes[i].error == nil && pixels(i) != nil
        }
        return photos.indices.compactMap { i in
            guard photos[i].labels.count >= minimumCards, let size = pixels(i) else { return nil }
            let same = singles.filter { pixels($0) == size }
            return same.isEmpty ? nil : (i, same)
        }
    }

    /// Each pair of `pairs` timed over `rounds` rounds with scanners over `catalog` made before
    /// the clock starts (as `cardscan scan` makes them: the reader's tuning for the matcher too).
    /// A scan that fails is counted and left out of the medians.
    static func run(_ photos: [BenchPhoto], _ outcomes: [PhotoOutcome], catalog: CardCatalog, options: CardReader.Options,
                    rounds: Int = 3) throws -> [SeveralCardsFigures] {
        let chosen = pairs(photos, outcomes)
        guard !chosen.isEmpty else { return [] }
        let scanners = Engines(try (0..<2).map { _ in
            try CardScanner(reader: CardReader(options: options), matcher: CardMatcher(catalog: catalog, tuning: options.tuning))
        })
        var failures = 0, firstFailure: String?
        func timed(_ body: () throws -> Void) -> Double? {
            let t = BenchClock.nanos
            do { try body() } catch {
                failures += 1
                if firstFailure == nil { firstFailure = String(describing: error) }
                return nil
            }
            return BenchClock.ms(t, BenchClock.nanos)
        }
        func oneJob(_ path: String) -> Double? {
            scanners.all[0].helpers = nil
            return timed { _ = try scanners.all[0].scan(contentsOf: path) }
        }
        // As `cardscan scan --jobs 2` reads one photo: the worker with no photo left lends its engine.
        var lent = 0
        func twoJobs(_ path: String) -> Double? {
            let taken = LockedBox(0)
            return timed {
                let helpers = try WorkerThreads.scanSharing([path], jobs: 2, make: {
                    scanners.all[taken.update { n -> Int in defer { n += 1 }; return n } % scanners.all.count]
                }, scanner: { $0 }, each: { scanner, file in _ = try scanner.scan(contentsOf: file) })
                lent += helpers?.jobsRunByLentEngines ?? 0
            }
        }
        return chosen.map { several, singles in
            var one: [Double] = [], two: [Double] = [], single: [Double] = []
            failures = 0
            firstFailure = nil
            lent = 0
            for round in 0..<max(1, rounds) {
                StandardError.line("cardscan-bench: several cards, round \(round + 1)/\(rounds): \(photos[several].file)")
                one += [oneJob(photos[several].path)].compactMap { $0 }
                two += [twoJobs(photos[several].path)].compactMap { $0 }
                single += singles.compactMap { oneJob(photos[$0].path) }
            }
            let size = outcomes[several].reading.map { "\($0.imageWidth)x\($0.imageHeight)" } ?? ""
            return SeveralCardsFigures(file: photos[several].file, cards: photos[several].labels.count, size: size,
                                       oneJobMs: Stats.median(one) ?? 0, twoJobsMs: Stats.median(two) ?? 0,
                                       singleCardPhotos: singles.map { photos[$0].file }, singleCardMs: Stats.median(single) ?? 0,
                                       rounds: max(1, rounds), failures: failures, firstFailure: firstFailure, lentJobs: lent)
        }
    }
}

/// The scanners made before the clock starts, handed to the worker threads: each thread takes
/// its own (one engine per thread, as `cardscan scan` has), and none is used by two at once.
private final class Engines: @unchecked Sendable {
    let all: [CardScanner]
    init(_ all: [CardScanner]) { self.all = all }
}
