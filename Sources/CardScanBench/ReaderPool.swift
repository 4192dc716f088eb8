import CardReader
import CardScanOCR
import CardScanner
import Foundation

/// What happened to one photo in one pass.
public struct PhotoOutcome: Sendable, Codable {
    /// Index into the pass's photo list.
    public var index: Int
    /// The reading of the photo's first card (the most card-like region), when the reader
    /// succeeded. Its timings cover the whole photo: every card read in it, as `cardscan scan` does.
    public var reading: CardReading?
    /// The identification of the reading (stand-in or matcher).
    public var identification: Identification?
    /// The other cards found in the photo (several-card photos), each with its identification.
    public var others: [OtherCard] = []
    /// Why reading (or identifying) failed.
    public var error: String?
    /// Wall time seen by the harness around read + identify, ms.
    public var wallMs: Double
}

/// A card read in a photo besides its first.
public struct OtherCard: Sendable, Codable {
    /// What was read.
    public var reading: CardReading
    /// Its identification (nil when identifying failed).
    public var identification: Identification?
}

/// The result of running every photo through N readers.
public struct PoolRun: Sendable {
    /// Worker threads that started (each with its own reader).
    public var jobs: Int
    /// One outcome per photo, in photo order.
    public var outcomes: [PhotoOutcome]
    /// Wall time from the moment all readers were ready until the queue was empty, seconds.
    public var wallSeconds: Double
    /// Time to create each worker's reader + identifier, ms.
    public var initMilliseconds: [Double]
    /// Workers whose reader could not be created.
    public var initErrors: [String]

    /// Photos per second over the whole pass (errors included: they cost time too).
    public var photosPerSecond: Double? { wallSeconds > 0 ? Double(outcomes.count) / wallSeconds : nil }
}

/// Runs photos through `jobs` worker threads over one shared queue. Each thread creates its own
/// `CardReader` (not Sendable; one Tesseract engine each) and identifier, then takes the next photo
/// until none is left (largest file first on several jobs, as `cardscan scan` does; outcomes keep
/// the photos' order). Timing starts once every reader is initialised.
enum ReaderPool {
    /// Errors that stop a pass.
    struct NoReader: Error, CustomStringConvertible {
        let reasons: [String]
        var description: String { "no reader could be created: " + Set(reasons).sorted().joined(separator: "; ") }
    }

    static func run(photos: [BenchPhoto], jobs: Int, options: CardReader.Options, identifier: IdentifierFactory,
                    onEach: @escaping @Sendable (_ photo: BenchPhoto, _ outcome: PhotoOutcome, _ finished: Int) -> Void) throws -> PoolRun {
        let jobs = max(1, jobs)
        // Taken in the order `cardscan scan` takes them (largest file first on several jobs).
        let order = PhotoSchedule.order(photos.map(\.path), workers: jobs)
        let next = LockedBox(0)
        let finished = LockedBox(0)
        let results = LockedBox([PhotoOutcome?](repeating: nil, count: photos.count))
        let initTimes = LockedBox([Double]())
        let initErrors = LockedBox([String]())
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()

        for worker in 0..<jobs {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                let t0 = BenchClock.nanos
                var reader: CardReader?
                var ident: (any CardIdentifier)?
                do {
                    reader = try CardReader(options: options)
                    ident = try identifier.make()
                } catch {
                    initErrors.update { $0.append(String(describing: error)) }
                }
                initTimes.update { $0.append(BenchClock.ms(t0, BenchClock.nanos)) }
                ready.signal()
                go.wait()
                guard let reader, let ident else { return }
                while true {
                    let taken = next.update { value -> Int in defer { value += 1 }; return value }
                    guard taken < photos.count else { break }
                    let i = order[taken]
                    let outcome = readOne(photos[i], index: i, reader: reader, identifier: ident)
                    results.update { $0[i] = outcome }
                    let n = finished.update { value -> Int in value += 1; return value }
                    onEach(photos[i], outcome, n)
                }
            }
            thread.name = "bench-worker-\(worker)"
            thread.stackSize = 16 << 20
            thread.start()
        }
        for _ in 0..<jobs { ready.wait() }
        let errors = initErrors.get()
        let start = BenchClock.nanos
        for _ in 0..<jobs { go.signal() }
        done.wait()
        let wall = BenchClock.ms(start, BenchClock.nanos) / 1000
        if errors.count == jobs { throw NoReader(reasons: errors) }
        let outcomes = results.get().enumerated().map { i, o in
            o ?? PhotoOutcome(index: i, reading: nil, identification: nil, error: "not processed", wallMs: 0)
        }
        return PoolRun(jobs: jobs - errors.count, outcomes: outcomes, wallSeconds: wall,
                       initMilliseconds: initTimes.get(), initErrors: errors)
    }

    private static func readOne(_ photo: BenchPhoto, index: Int, reader: CardReader, identifier: any CardIdentifier) -> PhotoOutcome {
        let t0 = BenchClock.nanos
        var readings: [CardReading]
        let image: Image
        var identifications: [Identification?] = []
        var failure: String?
        do {
            // The matcher finds the photo's cards as `cardscan scan` does (`CardScanner`).
            if let cards = try identifier.scan(photo.path, reader: reader) {
                readings = cards.map(\.reading)
                identifications = cards.map(\.identification)
                return outcome(index: index, readings: readings, identifications: identifications, failure: nil, since: t0)
            }
            // Every card in the photo, as `cardscan scan` reads it: decoded once, the decoding
            // charged to the first card.
            (readings, image) = try reader.readAllKeepingImage(contentsOf: photo.path)
        } catch {
            return PhotoOutcome(index: index, reading: nil, identification: nil, error: String(describing: error),
                                wallMs: BenchClock.ms(t0, BenchClock.nanos))
        }
        for i in readings.indices {
            let m0 = BenchClock.nanos
            do {
                let identified = try identifier.identify(readings[i], in: image, reader: reader)
                readings[i] = identified.reading
                identifications.append(identified.identification)
            } catch {
                identifications.append(nil)
                if failure == nil { failure = "identify: \(error)" }
            }
            if readings[i].timings.match == 0 {
                let matchMs = BenchClock.ms(m0, BenchClock.nanos)
                readings[i].timings.match = matchMs
                readings[i].timings.total += matchMs
            }
        }
        return outcome(index: index, readings: readings, identifications: identifications, failure: failure, since: t0)
    }

    /// One photo's outcome from its cards (the first is the main card).
    private static func outcome(index: Int, readings: [CardReading], identifications: [Identification?], failure: String?,
                                since t0: UInt64) -> PhotoOutcome {
        var reading = readings[0]
        // The photo's cost: the other cards' reading and matching count in its stage times.
        for other in readings.dropFirst() {
            reading.timings.ocr += other.timings.ocr
            reading.timings.match += other.timings.match
            reading.timings.total += other.timings.total // an other card's total is its reading and matching
        }
        let others = zip(readings.dropFirst(), identifications.dropFirst()).map { OtherCard(reading: $0, identification: $1) }
        return PhotoOutcome(index: index, reading: reading, identification: identifications[0], others: others, error: failure,
                            wallMs: BenchClock.ms(t0, BenchClock.nanos))
    }
}
