import Foundation

/// Asks the remote store for the objects a run is about to look up, many at once, ahead of the
/// lookups.
///
/// A lookup on its own waits one round trip per render, and a batch has only as many lookups in
/// flight as it has workers: a batch served entirely by a remote store on loopback spent most of
/// its time waiting, and was barely faster than drawing. Keys given to ``enqueue(_:)`` are
/// fetched on a thread of the prefetcher's own, `window` at a time (one call of the store's
/// `get(_:)` of many names, which a store may overlap), in order; a lookup then ``claim(_:)``s
/// its key's result instead of asking again.
///
/// Bounded: at most `window` requests are in flight, each object fetched ahead is at most a
/// window's share of `maximumHeldBytes` (a larger one is left to its lookup, so a store that
/// answers with huge objects costs no more memory than the bound), and objects fetched but not
/// yet claimed are held up to `maximumHeldBytes`; past that the oldest are dropped (their lookups
/// simply ask themselves). A lookup for a key that is still queued takes it off the queue and asks itself,
/// so nothing ever waits for the queue. The circuit breaker is asked before each window and told
/// each answer, like any request: a store that is down costs one window of failures, not one
/// per key.
final class RemotePrefetcher: @unchecked Sendable {
    /// What ``claim(_:)`` found.
    enum Claim {
        /// The key was fetched: the object, nil for none (`404`), or the fault.
        case fetched(Result<Data?, any Error>)
        /// The key is not prefetched (never queued, dropped, or skipped while the breaker was
        /// open): the caller asks the store itself.
        case notPrefetched
        /// The store answered "none" for the key earlier in this run: not asked again.
        case knownMissing
    }

    private let store: any RemoteStore
    private let breaker: RemoteCircuitBreaker
    private let window: Int
    private let maximumHeldBytes: Int

    /// Guards every field below.
    private let condition = NSCondition()
    /// Keys to fetch, in order; `queueStart` is the next one. Keys claimed while queued are
    /// removed from `queued` and skipped when their turn comes.
    private var queue: [StableDigest] = []
    private var queueStart = 0
    private var queued: Set<StableDigest> = []
    private var inFlight: Set<StableDigest> = []
    private var fetched: [StableDigest: Result<Data?, any Error>] = [:]
    /// Fetched keys, oldest first, for dropping past `maximumHeldBytes`.
    private var fetchedOrder: [StableDigest] = []
    private var heldBytes = 0
    private var isFetching = false
    /// Keys lookups asked for themselves while a run prefetches (from ``begin()`` or the first
    /// ``enqueue(_:)`` to ``cancel()``): a lookup can run ahead of the keys handed over, and such a key is not
    /// fetched again when it comes.
    private var askedByLookups: Set<StableDigest> = []
    private var isPrefetching = false
    /// Keys the store had no object for, this run: a batch asks for a render before drawing it,
    /// and the rasterizer would otherwise ask again.
    private var missing: Set<StableDigest> = []
    /// Bumped by ``cancel()``: answers to requests made before it are dropped.
    private var generation = 0

    init(store: any RemoteStore, breaker: RemoteCircuitBreaker, window: Int, maximumHeldBytes: Int) {
        self.store = store
        self.breaker = breaker
        self.window = max(1, window)
        self.maximumHeldBytes = max(0, maximumHeldBytes)
    }

    /// The most bytes of one object fetched ahead: a window's share of what may be held, so a
    /// window of objects is never more than that however large the store's answers. A larger
    /// object is left to its lookup.
    private var maximumObjectBytes: Int { max(64 << 10, maximumHeldBytes / window) }

    /// Starts a run that prefetches: from now until ``cancel()``, keys lookups ask for themselves
    /// are remembered and not fetched again. Call it before the run's lookups begin.
    func begin() {
        condition.lock()
        isPrefetching = true
        condition.unlock()
    }

    /// Queues `keys` to be fetched (those already queued, in flight or fetched are left as they
    /// are) and starts fetching when nothing is. Returns at once.
    func enqueue(_ keys: some Sequence<StableDigest>) {
        condition.lock()
        isPrefetching = true
        for key in keys where !queued.contains(key) && !inFlight.contains(key) && fetched[key] == nil
            && !askedByLookups.contains(key) {
            queue.append(key)
            queued.insert(key)
        }
        let starts = !isFetching && !queued.isEmpty
        if starts { isFetching = true }
        condition.unlock()
        if starts {
            let thread = Thread { [self] in fetchAll() }
            thread.name = "RasterKit.RemoteCache.prefetch"
            thread.start()
        }
    }

    /// The result fetched for `key`, waiting for it while its request is in flight (each request
    /// is bounded by the store's timeouts), or ``Claim/notPrefetched``. A result is handed out once.
    func claim(_ key: StableDigest) -> Claim {
        condition.lock()
        defer { condition.unlock() }
        while inFlight.contains(key) { condition.wait() }
        if missing.contains(key) { return .knownMissing }
        guard let result = fetched.removeValue(forKey: key) else {
            queued.remove(key)
            if isPrefetching { askedByLookups.insert(key) }
            return .notPrefetched
        }
        heldBytes -= Self.size(of: result)
        if isPrefetching, case .success(nil) = result { missing.insert(key) }
        return .fetched(result)
    }

    /// Remembers, while a run prefetches, that the store had no object for `key`.
    func recordMiss(_ key: StableDigest) {
        condition.lock()
        if isPrefetching { missing.insert(key) }
        condition.unlock()
    }

    /// Drops everything queued and every result not claimed yet; requests in flight finish and
    /// are dropped too. The end of a run: its lookups are over.
    func cancel() {
        condition.lock()
        queue = []
        queueStart = 0
        queued = []
        fetched = [:]
        fetchedOrder = []
        heldBytes = 0
        askedByLookups = []
        missing = []
        isPrefetching = false
        generation += 1
        condition.unlock()
    }

    /// Whether keys are queued or in flight (for tests).
    var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isFetching
    }

    // MARK: Fetching

    private func fetchAll() {
        while let (keys, generation) = nextWindow() {
            guard breaker.mayAsk() else {
                // Down: nothing more is asked for now; lookups see the open breaker themselves.
                finish(keys, with: nil, generation: generation)
                dropQueue()
                continue
            }
            let results = store.get(keys.map { RemoteObjectName(digest: $0) }, maximumBytes: maximumObjectBytes)
            var answered = false, failed = false
            for result in results {
                switch result {
                case .failure(RemoteStoreError.tooLarge): answered = true
                case .failure: failed = true
                case .success: answered = true
                }
            }
            // One outcome per window, as for one request: a window of refused connections opens
            // the breaker once, and any answer shows the store is up.
            if answered { breaker.recordSuccess() } else if failed { breaker.recordFailure() }
            finish(keys, with: results, generation: generation)
        }
    }

    /// Up to `window` queued keys, now in flight, and the generation they belong to; nil (and
    /// fetching over) when none are left.
    private func nextWindow() -> (keys: [StableDigest], generation: Int)? {
        condition.lock()
        defer { condition.unlock() }
        var keys: [StableDigest] = []
        while keys.count < window, queueStart < queue.count {
            let key = queue[queueStart]
            queueStart += 1
            if queued.remove(key) != nil { keys.append(key) }
        }
        if queueStart == queue.count {
            queue = []
            queueStart = 0
        }
        guard !keys.isEmpty else {
            isFetching = false
            return nil
        }
        inFlight.formUnion(keys)
        return (keys, generation)
    }

    /// Records each key's result (nil: not fetched) and wakes the lookups waiting for them.
    private func finish(_ keys: [StableDigest], with results: [Result<Data?, any Error>]?, generation: Int) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        for (index, key) in keys.enumerated() {
            inFlight.remove(key)
            guard let results, index < results.count, generation == self.generation else { continue }
            let result = results[index]
            // Too large to hold ahead: its lookup asks for it alone, bounded by what it expects.
            if case .failure(RemoteStoreError.tooLarge) = result { continue }
            fetched[key] = result
            fetchedOrder.append(key)
            heldBytes += Self.size(of: result)
        }
        // Past the bound, the oldest results not claimed yet go: their lookups ask themselves.
        var dropped = 0
        while heldBytes > maximumHeldBytes, dropped < fetchedOrder.count {
            if let result = fetched.removeValue(forKey: fetchedOrder[dropped]) { heldBytes -= Self.size(of: result) }
            dropped += 1
        }
        fetchedOrder.removeFirst(dropped)
        // Claimed keys leave stale names behind; compact when they dominate.
        if fetchedOrder.count > 2 * max(fetched.count, window) {
            fetchedOrder.removeAll { fetched[$0] == nil }
        }
    }

    private func dropQueue() {
        condition.lock()
        queue = []
        queueStart = 0
        queued = []
        condition.unlock()
    }

    private static func size(of result: Result<Data?, any Error>) -> Int {
        if case .success(let data?) = result { return data.count }
        return 0
    }
}
