import Foundation
import Synchronization

/// One render in flight, shared by every request for its key. Its mutable fields are guarded
/// by the scheduler's lock; only `isCancelled` is read without it, by the drawing thread.
final class RenderJob: @unchecked Sendable {
    enum Phase {
        case queued
        case running(owner: pthread_t)
        case finished
    }

    let key: CacheKey
    var priority: RenderPriority
    var phase: Phase = .queued
    /// What the render reads and writes, merged from its requests' options while it is queued;
    /// fixed once it runs.
    var plan: RenderPlan
    /// Set when a later request replaced this job (a reload, or a request that must not read a
    /// tier this job reads) and it skipped storing its result, which would be the older one.
    var skippedStore = false
    /// Async requests waiting, by waiter id.
    var waiters: [UInt64: CheckedContinuation<Drawn, any Error>] = [:]
    /// Threads blocked in the synchronous API waiting for this job.
    var synchronousWaiters = 0
    /// Prefetches keep a job alive with no one waiting for it.
    var keepsAlive = false
    /// Set while running on behalf of a synchronous caller, who cannot cancel.
    var hasSynchronousOwner = false
    /// The image and the components nested in it: a nested request that joins this job
    /// records them in its own parent, as it would had it drawn the image itself.
    var result: Result<Drawn, any Error>?
    /// Runs the render on a scheduler thread (async jobs only).
    let work: (@Sendable (RenderJob) throws -> Drawn)?
    private let cancelled = Atomic<Bool>(false)

    /// A finished render: the image and the versions of the components nested in it.
    struct Drawn {
        var image: RasterImage
        var children: [ComponentVersion]
        /// The fallback the render was made with, if any: a nested request that joins it does
        /// not cache its parent either.
        var fallback: FallbackEvent? = nil
        /// The tiers holding the image once the render is done: a request that joined it and
        /// wants another tier written writes that one itself.
        var heldIn: CacheTiers = .all
        /// Whether a newer render of the key replaced this one: its image is then stored nowhere.
        var wasSuperseded = false
        /// Where the request that ran the job got the image: drawn, or found in a tier.
        var origin: RenderedImage.Origin = .drawn
    }

    init(key: CacheKey, priority: RenderPriority, plan: RenderPlan = RenderPlan([]),
         work: (@Sendable (RenderJob) throws -> Drawn)?) {
        self.key = key
        self.priority = priority
        self.plan = plan
        self.work = work
    }

    /// True once every request for the job has been cancelled; checked by the draw between
    /// nested children and before the result is stored.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() { cancelled.store(true, ordering: .releasing) }

    var isQueued: Bool {
        if case .queued = phase { return true }
        return false
    }

    /// Whether anyone still wants the result.
    var isWanted: Bool { !waiters.isEmpty || synchronousWaiters > 0 || keepsAlive || hasSynchronousOwner }
}
