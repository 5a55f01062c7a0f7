import Foundation

/// Coalesces, orders and runs renders. Every request for a key, synchronous or asynchronous,
/// top-level or nested, goes through the one in-flight job for that key, so a key is drawn
/// once however many ask. Asynchronous jobs run on threads the scheduler owns (never on the
/// Swift concurrency pool): urgent jobs in parallel up to `maxConcurrentDraws`, prefetch jobs
/// one at a time and only while no urgent job is queued or running. Synchronous requests run
/// on their caller's thread.
final class RenderScheduler: @unchecked Sendable {
    /// How many worker threads may run jobs at once; changed at run time by `setMaxConcurrentDraws`.
    var maxConcurrentDraws: Int {
        condition.lock()
        defer { condition.unlock() }
        return maximumThreads
    }
    /// Guards every field below and every job's mutable fields.
    private let condition = NSCondition()
    private var maximumThreads: Int
    private var jobs: [StableDigest: RenderJob] = [:]
    private var urgentQueue: [RenderJob] = []
    /// Urgent work that is not a render of a key (see ``run(_:)``), in the order it came.
    private var urgentTasks: [@Sendable () -> Void] = []
    /// Which urgent queue a worker takes from first when both hold work, turn about.
    private var tasksFirst = false
    private var prefetchQueue: [RenderJob] = []
    private var runningUrgent = 0
    private var runningPrefetch = 0
    private var threads = 0
    private var idleThreads = 0
    private var isShutDown = false
    private var nextWaiterID: UInt64 = 0
    /// Waiters whose task was cancelled before they were registered.
    private var cancelledWaiters: Set<UInt64> = []
    /// The job each thread is blocked on, to refuse a wait that would close a cycle.
    private var blockedOn: [pthread_t: RenderJob] = [:]
    /// Called when a job is abandoned because every request for it was cancelled.
    let onCancelledJob: @Sendable () -> Void

    init(maxConcurrentDraws: Int, onCancelledJob: @escaping @Sendable () -> Void) {
        precondition(maxConcurrentDraws > 0, "maxConcurrentDraws must be at least 1")
        maximumThreads = maxConcurrentDraws
        self.onCancelledJob = onCancelledJob
    }

    /// Stops the worker threads once their current job is done.
    func shutDown() {
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Asynchronous requests

    /// The job for `key`, joined or newly queued; `joined` is true when the request coalesced
    /// with an existing one. Joining a queued prefetch job with an urgent request promotes it.
    /// A queued job takes on the request's options; a running one is joined only when it serves
    /// them (see ``RenderPlan/serves(_:)``), and is otherwise replaced by a new job.
    /// `joinsRunning` false replaces a running job instead (a request looking again, see
    /// ``RenderOptions/accepts(_:)``).
    func enqueue(key: CacheKey, priority: RenderPriority, options: RenderOptions = [], joinsRunning: Bool = true,
                 keepAlive: Bool = false,
                 work: @escaping @Sendable (RenderJob) throws -> RenderJob.Drawn) -> (job: RenderJob, joined: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if let job = jobs[key.value], job.isQueued || joinsRunning && job.plan.serves(options) {
            if job.isQueued { job.plan.merge(options) }
            if keepAlive { job.keepsAlive = true }
            // A running job keeps the priority it was started with: its slot is accounted for.
            if priority > job.priority, job.isQueued {
                job.priority = priority
                prefetchQueue.removeAll { $0 === job }
                urgentQueue.append(job)
                wakeWorker()
            }
            return (job, true)
        }
        let job = RenderJob(key: key, priority: priority, plan: RenderPlan(options), work: work)
        job.keepsAlive = keepAlive
        jobs[key.value] = job
        if priority == .urgent { urgentQueue.append(job) } else { prefetchQueue.append(job) }
        wakeWorker()
        return (job, false)
    }

    /// Waits for `job`'s result. Cancelling the calling task ends this wait at once with
    /// `CancellationError`; the job itself is cancelled only when no one else wants it.
    func result(of job: RenderJob) async throws -> RenderJob.Drawn {
        let id = makeWaiterID()
        #if DEBUG
        // A continuation resumed before its task suspended hands the result over through the
        // Swift runtime's atomics, which ThreadSanitizer does not see (the runtime is not
        // instrumented), so it reports the image's pixels as racing with the draw. Taking the
        // lock `finish` published the result under orders the two where it can see it.
        // Sanitizer runs are debug builds, as for ``Lock``.
        defer { passThroughLock() }
        #endif
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RenderJob.Drawn, any Error>) in
                condition.lock()
                if let result = job.result {
                    condition.unlock()
                    return continuation.resume(with: result)
                }
                if cancelledWaiters.remove(id) != nil {
                    abandonIfUnwanted(job)
                    condition.unlock()
                    return continuation.resume(throwing: CancellationError())
                }
                job.waiters[id] = continuation
                condition.unlock()
            }
        } onCancel: {
            condition.lock()
            let continuation = job.waiters.removeValue(forKey: id)
            if continuation == nil, job.result == nil { cancelledWaiters.insert(id) }
            abandonIfUnwanted(job)
            condition.unlock()
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Runs `work` on a render thread at urgent priority, sharing the bound on urgent draws, and
    /// returns what it returns: for work that blocks (a vector document, encoding an image) and
    /// so must not run on Swift concurrency's threads, which a server needs for answering what
    /// costs nothing. Work already running is not stopped when the calling task is cancelled;
    /// it is bounded by the rasterizer's limits.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            condition.lock()
            urgentTasks.append { continuation.resume(with: Result { try work() }) }
            wakeWorker()
            condition.unlock()
        }
    }

    /// Takes and releases the lock, for the ordering it gives (see `result(of:)`).
    private func passThroughLock() {
        condition.lock()
        condition.unlock()
    }

    private func makeWaiterID() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Moves a queued urgent job for `key` back to prefetch priority, keeping its waiters.
    func deprioritize(_ key: CacheKey) {
        condition.lock()
        defer { condition.unlock() }
        guard let job = jobs[key.value], job.isQueued, job.priority == .urgent else { return }
        job.priority = .prefetch
        urgentQueue.removeAll { $0 === job }
        prefetchQueue.append(job)
        condition.broadcast()
    }

    /// Cancels a job no one wants any more: a queued one never draws; a running one is told to
    /// stop and its result is not stored. Called with the lock held.
    private func abandonIfUnwanted(_ job: RenderJob) {
        guard job.result == nil, !job.isWanted, !job.isCancelled else { return }
        job.cancel()
        if jobs[job.key.value] === job { jobs.removeValue(forKey: job.key.value) }
        if job.isQueued {
            urgentQueue.removeAll { $0 === job }
            prefetchQueue.removeAll { $0 === job }
            job.phase = .finished
            job.result = .failure(CancellationError())
        }
        onCancelledJob()
        condition.broadcast()
    }

    // MARK: Synchronous requests

    /// What a synchronous request should do about `key`.
    enum Claim {
        /// Draw it on this thread, then call `finish`.
        case run(RenderJob)
        /// Another thread is drawing it: wait with `waitSynchronously`.
        case wait(RenderJob)
    }

    /// Claims `key` for the calling thread: a queued job is taken over and run here (so a
    /// nested draw never waits for a worker), a running one that serves `options` is waited
    /// for (unless not `joinsRunning`), and otherwise a new job is made (replacing a running one).
    func claim(key: CacheKey, options: RenderOptions = [], joinsRunning: Bool = true) -> Claim {
        condition.lock()
        defer { condition.unlock() }
        if let job = jobs[key.value] {
            if job.isQueued {
                urgentQueue.removeAll { $0 === job }
                prefetchQueue.removeAll { $0 === job }
                job.plan.merge(options)
                job.phase = .running(owner: pthread_self())
                job.hasSynchronousOwner = true
                return .run(job)
            }
            if joinsRunning, job.plan.serves(options) {
                job.synchronousWaiters += 1
                return .wait(job)
            }
        }
        let job = RenderJob(key: key, priority: .urgent, plan: RenderPlan(options), work: nil)
        job.phase = .running(owner: pthread_self())
        job.hasSynchronousOwner = true
        jobs[key.value] = job
        return .run(job)
    }

    /// Blocks until `job` finishes. Throws instead when the thread drawing `job` is itself
    /// waiting, directly or not, for a job this thread is drawing: components that nest each
    /// other across threads would otherwise wait forever.
    func waitSynchronously(for job: RenderJob) throws -> RenderJob.Drawn {
        condition.lock()
        defer { condition.unlock() }
        let me = pthread_self()
        defer { job.synchronousWaiters -= 1 }
        if job.result == nil, closesCycle(waitingOn: job, from: me) {
            throw RenderError.nestingTooDeep(typeName: job.key.typeName, depth: 0)
        }
        blockedOn[me] = job
        defer { blockedOn[me] = nil }
        while job.result == nil { condition.wait() }
        return try job.result!.get()
    }

    private func closesCycle(waitingOn job: RenderJob, from thread: pthread_t) -> Bool {
        var current = job
        var steps = 0
        while case .running(let owner) = current.phase, steps < 10_000 {
            if owner == thread { return true }
            guard let next = blockedOn[owner] else { return false }
            current = next
            steps += 1
        }
        return false
    }

    /// Publishes a job's result to everyone waiting and forgets the job. The result must already
    /// be in the cache, so a request arriving after this finds it there.
    func finish(_ job: RenderJob, with result: Result<RenderJob.Drawn, any Error>) {
        condition.lock()
        job.result = result
        let wasRunningOnWorker = job.work != nil && !job.hasSynchronousOwner
        if wasRunningOnWorker {
            if job.priority == .urgent { runningUrgent -= 1 } else { runningPrefetch -= 1 }
        }
        job.phase = .finished
        if jobs[job.key.value] === job { jobs.removeValue(forKey: job.key.value) }
        let waiters = job.waiters
        job.waiters = [:]
        condition.broadcast()
        condition.unlock()
        for continuation in waiters.values { continuation.resume(with: result) }
    }

    // MARK: Options

    /// What `job` reads and writes; fixed once it runs, which is when its drawer asks.
    func plan(of job: RenderJob) -> RenderPlan {
        condition.lock()
        defer { condition.unlock() }
        return job.plan
    }

    /// Runs `store` unless a newer job for the key replaced `job`, whose result must win: under
    /// the lock, so a replacement cannot start between the check and the store. Returns whether
    /// it ran. Stores are a memory insertion and a queued disk write: short, and they never
    /// call back into the scheduler.
    @discardableResult
    func storeUnlessSuperseded(_ job: RenderJob, _ store: () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard jobs[job.key.value] === job else {
            job.skippedStore = true
            return false
        }
        store()
        return true
    }

    /// Whether `job` skipped storing its result because a newer job replaced it.
    func skippedStore(_ job: RenderJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return job.skippedStore
    }

    /// Changes how many worker threads may run jobs at once. Raising it starts threads for
    /// queued work now; lowering it lets the extra threads end once their current job is done.
    func setMaxConcurrentDraws(_ count: Int) {
        precondition(count > 0, "maxConcurrentDraws must be at least 1")
        condition.lock()
        defer { condition.unlock() }
        maximumThreads = count
        let waiting = urgentQueue.count + urgentTasks.count + (prefetchQueue.isEmpty ? 0 : 1)
        var available = idleThreads
        while available < waiting, threads < maximumThreads {
            startThread()
            available += 1
        }
        condition.broadcast()
    }

    // MARK: Worker threads

    /// Called with the lock held after work was queued.
    private func wakeWorker() {
        if idleThreads == 0, threads < maximumThreads { startThread() }
        condition.broadcast()
    }

    /// Called with the lock held.
    private func startThread() {
        threads += 1
        let thread = Thread { [self] in workerLoop() }
        thread.name = "RasterKit render \(threads)"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// What a worker runs next.
    private enum Work {
        case job(RenderJob)
        case task(@Sendable () -> Void)
    }

    /// The next work a worker may start, removed from its queue; nil when none may start now.
    /// Urgent jobs and tasks take turns; prefetches run only when nothing urgent does.
    private func takeNextWork() -> Work? {
        if !urgentTasks.isEmpty, tasksFirst || urgentQueue.isEmpty {
            tasksFirst = false
            runningUrgent += 1
            return .task(urgentTasks.removeFirst())
        }
        if !urgentQueue.isEmpty {
            tasksFirst = true
            let job = urgentQueue.removeFirst()
            runningUrgent += 1
            return .job(job)
        }
        if !prefetchQueue.isEmpty, runningUrgent == 0, runningPrefetch == 0 {
            let job = prefetchQueue.removeFirst()
            runningPrefetch += 1
            return .job(job)
        }
        return nil
    }

    private func workerLoop() {
        condition.lock()
        // A thread over a lowered limit ends between jobs.
        while !isShutDown, threads <= maximumThreads {
            guard let work = takeNextWork() else {
                idleThreads += 1
                condition.wait()
                idleThreads -= 1
                continue
            }
            guard case .job(let job) = work else {
                if case .task(let task) = work {
                    condition.unlock()
                    task()
                    condition.lock()
                    runningUrgent -= 1
                    condition.broadcast()
                }
                continue
            }
            job.phase = .running(owner: pthread_self())
            condition.unlock()
            let result = Result { () throws -> RenderJob.Drawn in
                if job.isCancelled { throw CancellationError() }
                return try job.work!(job)
            }
            finish(job, with: result)
            condition.lock()
        }
        threads -= 1
        condition.unlock()
    }
}
