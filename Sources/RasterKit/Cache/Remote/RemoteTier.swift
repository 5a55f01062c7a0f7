import Foundation

/// The remote tier of a ``RasterCache``: verified lookups that never throw and are skipped while
/// the store is failing, and uploads in the background.
final class RemoteTier: Sendable {
    let store: any RemoteStore
    let breaker: RemoteCircuitBreaker
    let counters = RemoteCounters()
    private let uploader: RemoteUploader
    private let prefetcher: RemotePrefetcher
    /// Objects that failed a check: not asked for again while remembered, so a forged or
    /// damaged object costs one fetch, not one per lookup (a server would otherwise fetch it on
    /// every request). Bounded, oldest forgotten first.
    private let rejected = Lock(RecentDigests(capacity: 4_096))
    /// Signs what is stored and checks what is read, with the options' secret.
    let seal: RemoteObjectSeal

    init(store: any RemoteStore, options: RemoteCacheOptions, clock: @escaping @Sendable () -> Double = RemoteTier.now) {
        self.store = store
        seal = RemoteObjectSeal(key: options.signingKey)
        breaker = RemoteCircuitBreaker(failureThreshold: options.failureThreshold, retryInterval: options.retryInterval,
                                       maximumRetryInterval: options.maximumRetryInterval, clock: clock)
        uploader = RemoteUploader(store: store, options: options, breaker: breaker, counters: counters, seal: seal)
        prefetcher = RemotePrefetcher(store: store, breaker: breaker, window: options.prefetchWindow,
                                      maximumHeldBytes: options.maximumPrefetchedBytes)
    }

    @Sendable static func now() -> Double { Date().timeIntervalSinceReferenceDate }

    /// The verified render stored remotely under `key`, with its PNG and that PNG's encoding when
    /// known, or nil for a miss, a fault or an object that fails verification.
    func hit(for key: CacheKey, expecting expected: ExpectedRender) -> (hit: VerifiedRender, png: Data, encoding: String?)? {
        guard let contents = object(for: key, expecting: expected) else { return nil }
        guard let image = decoded(contents, for: key, expecting: expected) else { return nil }
        return (VerifiedRender(image: image, children: contents.children), contents.png, contents.encoding)
    }

    /// The object stored remotely under `key`, whole, of that key, intact, of current render
    /// versions and with a PNG whose header is `expected`'s (so a forged image of another size,
    /// or over the pixel limits, is never decoded), its pixels not yet decoded; nil for a miss, a
    /// fault or a failed check. Counts all but a hit: the caller counts it with
    /// ``decoded(_:for:expecting:)`` or ``countHit()``. A rejected object is remembered as missing
    /// for the rest of a prefetching run, so it is neither fetched nor counted twice.
    func object(for key: CacheKey, expecting expected: ExpectedRender) -> RemoteCacheObject.Contents? {
        if rejected.withLock({ $0.contains(key.value) }) {
            counters.withLock { $0.misses += 1 }
            return nil
        }
        let object: Data?
        switch prefetcher.claim(key.value) {
        case .knownMissing:
            // Asked and counted earlier in this run.
            return nil
        case .fetched(.success(let fetched)):
            object = fetched
        case .fetched(.failure):
            // The prefetcher told the breaker already.
            counters.withLock { $0.errors += 1 }
            return nil
        case .notPrefetched:
            guard let answer = ask(RemoteObjectName(key: key), maximumBytes: expected.maximumObjectBytes) else { return nil }
            object = answer
            if object == nil { prefetcher.recordMiss(key.value) }
        }
        guard let object else {
            counters.withLock { $0.misses += 1 }
            return nil
        }
        guard let opened = seal.open(object, name: RemoteObjectName(key: key)),
              let contents = RemoteCacheObject.decode(opened, digest: key.value),
              !ComponentVersions.containsOutdated(contents.children),
              let geometry = try? StoredRenderGeometry(png: contents.png), expected.mismatch(geometry) == nil else {
            reject(key)
            return nil
        }
        return contents
    }

    /// Counts an object that failed a check and remembers it. The breaker is not told: the store
    /// answered, and the redraw's upload is what replaces a damaged object.
    private func reject(_ key: CacheKey) {
        counters.withLock { $0.rejected += 1; $0.misses += 1 }
        rejected.withLock { $0.insert(key.value) }
        prefetcher.recordMiss(key.value)
    }

    /// The store's answer for `name` — the object, or nil when it has none (not counted here) —
    /// or nil when it was not asked (its breaker open: counted as skipped) or failed (counted,
    /// and told to the breaker). An object over `maximumBytes` is a fault, read no further.
    func ask(_ name: RemoteObjectName, maximumBytes: Int) -> Data?? {
        guard breaker.mayAsk() else {
            counters.withLock { $0.skipped += 1 }
            return nil
        }
        do {
            let object = try store.get(name, maximumBytes: maximumBytes)
            breaker.recordSuccess()
            return .some(object)
        } catch {
            breaker.recordFailure()
            counters.withLock { $0.errors += 1; $0.noteLookupError(error) }
            return nil
        }
    }

    /// The pixels of a verified object, decoded under `expected`'s limits and counted as a hit;
    /// nil (counted as rejected) when its PNG does not decode.
    func decoded(_ contents: RemoteCacheObject.Contents, for key: CacheKey, expecting expected: ExpectedRender) -> RasterImage? {
        guard let image = try? expected.decode(contents.png) else {
            reject(key)
            return nil
        }
        countHit()
        return image
    }

    /// Counts a verified object used without decoding it.
    func countHit() { counters.withLock { $0.hits += 1 } }

    /// Starts fetching the objects of `keys`, many at once, for the lookups about to ask for
    /// them (see ``RemotePrefetcher``). Returns at once.
    func prefetch(_ keys: some Sequence<StableDigest>) {
        // While the store is failing, nothing is fetched ahead: the lookups' probe decides.
        guard !breaker.isOpen else { return }
        prefetcher.enqueue(keys)
    }

    /// Marks the start of a run that will prefetch, before its lookups begin.
    func beginPrefetch() { prefetcher.begin() }

    /// Drops what is queued or fetched and not yet looked up: the run that asked is over.
    func endPrefetch() { prefetcher.cancel() }

    /// Offers the PNG a batch wrote for the render of `key` (`encoding`: its encoder's name) to
    /// the upload still queued for it, which then sends these bytes instead of its quick
    /// encoding: another machine can write them as they are.
    func offer(_ png: Data, encoding: String, for key: CacheKey) {
        uploader.attach(png, encoding: encoding, for: key)
    }

    /// Queues a fresh render for upload; returns at once.
    func upload(_ image: RasterImage, for key: CacheKey, children: [ComponentVersion]) {
        uploader.enqueue(RemoteUploader.Pending(key: key, image: image, children: children))
    }

    /// Waits up to `timeout` seconds for queued uploads; false when some were still waiting.
    func flush(timeout: Double) -> Bool { uploader.flush(timeout: timeout) }

    /// The counts so far.
    var statistics: RemoteCacheStatistics { counters.withLock { $0 } }
}
