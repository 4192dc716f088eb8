import Foundation

/// The engines of workers that have no photo left, lent to the photos still being read: a photo
/// of several cards has its regions read ahead of their turn and its cards identified on them
/// (`CardScanner.helpers`), while its own worker decides each region in turn.
///
/// Each worker of a batch reads photos until none is left, then lends its scanner until every
/// worker has finished its photos (`work(photos:lending:)`). While there are at least as many
/// photos as workers, every engine reads a photo of its own, as without helpers (no thread more,
/// no read made twice: a photo's worker runs its own jobs when nobody has taken them); when fewer
/// photos are left than workers, the idle engines join the photos still being read. A worker
/// never waits on a job nobody has started: it runs it itself, and while a job it needs runs
/// elsewhere, it runs its photo's other jobs.
public final class ScanHelpers: @unchecked Sendable {
    /// How many workers share the engines (a photo reads that many times as many regions ahead).
    public let workers: Int
    private let condition = NSCondition()
    private var queue: [Job] = []
    /// Workers still reading photos: while there are any, the others lend their engines.
    private var reading: Int
    private var lent = 0

    /// How many jobs lent engines have run so far (a photo's worker runs the others).
    public var jobsRunByLentEngines: Int {
        condition.lock(); defer { condition.unlock() }
        return lent
    }

    /// How many photos took the titles outside their cards as read ahead (`CardScanner.TitlesAhead`)
    /// rather than reading them again.
    public var readsAheadTaken: Int {
        condition.lock(); defer { condition.unlock() }
        return taken
    }
    private var taken = 0

    func countReadAheadTaken() {
        condition.lock()
        taken += 1
        condition.unlock()
    }

    public init(workers: Int) {
        self.workers = max(1, workers)
        reading = self.workers
    }

    /// One worker's part: `photos` (its loop over the batch's photos, with `helpers` set on its
    /// scanner), then its engine lent (`scanner`, made when needed) until every worker has
    /// finished its photos. Call it once from each of the `workers` threads; a worker that
    /// throws stops reading and lends nothing, and the others go on.
    public func work(photos: () throws -> Void, lending scanner: () throws -> CardScanner) throws {
        do { try photos() } catch {
            finishedPhotos()
            throw error
        }
        finishedPhotos()
        lend(scanner)
    }

    private func finishedPhotos() {
        condition.lock()
        reading -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Runs other workers' jobs with `make()`'s scanner until no worker reads photos.
    private func lend(_ make: () throws -> CardScanner) {
        condition.lock()
        let needed = reading > 0
        condition.unlock()
        // (A scanner that cannot be made lends nothing: the photos' workers run their jobs themselves.)
        guard needed, let scanner = try? make() else { return }
        condition.lock()
        while reading > 0 {
            guard !queue.isEmpty else {
                condition.wait()
                continue
            }
            let job = queue.removeFirst()
            job.state = .running
            lent += 1
            condition.unlock()
            run(job, on: scanner)
            condition.lock()
        }
        condition.unlock()
    }

    /// Runs a job taken from the queue (state `.running`) and marks it done.
    private func run(_ job: Job, on scanner: CardScanner) {
        job.execute(scanner)
        condition.lock()
        job.state = .done
        condition.broadcast()
        condition.unlock()
    }

    /// A new group of jobs of the photo `photo` stands for (any object of the photo's, the same
    /// for all its groups).
    func group(of photo: AnyObject) -> Group { Group(helpers: self, photo: ObjectIdentifier(photo)) }

    /// Jobs of one photo: submitted by its worker (or by its jobs), waited for by its worker, and
    /// dropped when they are no longer needed (`close`). A photo's worker waiting on a job runs
    /// the photo's other jobs, of any of its groups.
    final class Group: @unchecked Sendable {
        let helpers: ScanHelpers
        fileprivate let photo: ObjectIdentifier
        /// Closed: the group's jobs are done with; jobs submitted now are never run.
        fileprivate var closed = false

        fileprivate init(helpers: ScanHelpers, photo: ObjectIdentifier) {
            self.helpers = helpers
            self.photo = photo
        }

        /// Queues `work` for the first engine free: a helper's, or the photo's worker's when it
        /// waits (`value`). Any thread. `first`: ahead of every job queued (a long job that
        /// others wait on, started while the rest is shared out).
        func submit<T>(first: Bool = false, _ work: @escaping (CardScanner) throws -> T) -> Task<T> {
            let job = Task(group: self, work: work)
            helpers.condition.lock()
            if closed { job.state = .cancelled } else if first { helpers.queue.insert(job, at: 0) } else { helpers.queue.append(job) }
            helpers.condition.broadcast()
            helpers.condition.unlock()
            return job
        }

        /// The result of `task` (what its work returned or threw), run on `scanner` when nobody
        /// has started it; while it runs elsewhere, this photo's other queued jobs (of any of its
        /// groups, the first queued first) are run on `scanner`. From the photo's worker only.
        func value<T>(_ task: Task<T>, running scanner: CardScanner) throws -> T {
            let h = helpers
            h.condition.lock()
            while true {
                switch task.state {
                case .done:
                    h.condition.unlock()
                    return try task.result!.get()
                case .queued:
                    h.queue.removeAll { $0 === task }
                    task.state = .running
                    h.condition.unlock()
                    h.run(task, on: scanner)
                    h.condition.lock()
                case .running:
                    if let index = h.queue.firstIndex(where: { $0.group.photo == photo }) {
                        let other = h.queue.remove(at: index)
                        other.state = .running
                        h.condition.unlock()
                        h.run(other, on: scanner)
                        h.condition.lock()
                    } else {
                        h.condition.wait()
                    }
                case .cancelled:
                    h.condition.unlock()
                    preconditionFailure("a cancelled job is not waited for")
                }
            }
        }

        /// Drops `task` unless it has started (its result is not needed).
        func cancel(_ task: Job) {
            helpers.condition.lock()
            if task.state == .queued {
                helpers.queue.removeAll { $0 === task }
                task.state = .cancelled
            }
            helpers.condition.unlock()
        }

        /// The group's jobs are done with: those not started are dropped, and any submitted later.
        func close() {
            helpers.condition.lock()
            closed = true
            for job in helpers.queue where job.group === self { job.state = .cancelled }
            helpers.queue.removeAll { $0.group === self }
            helpers.condition.unlock()
        }
    }

    /// A job of some photo (`Task` holds its result).
    class Job: @unchecked Sendable {
        enum State { case queued, running, done, cancelled }
        /// Changed under the helpers' lock only.
        fileprivate(set) var state = State.queued
        let group: Group

        fileprivate init(group: Group) { self.group = group }

        /// Runs the work on `scanner` and keeps its outcome.
        func execute(_ scanner: CardScanner) { fatalError("a Task runs") }
    }

    /// A job with its result.
    final class Task<T>: Job, @unchecked Sendable {
        private let work: (CardScanner) throws -> T
        /// Set once, before the job is marked done.
        fileprivate var result: Result<T, Error>?

        fileprivate init(group: Group, work: @escaping (CardScanner) throws -> T) {
            self.work = work
            super.init(group: group)
        }

        override func execute(_ scanner: CardScanner) {
            result = Result { try work(scanner) }
        }
    }
}
