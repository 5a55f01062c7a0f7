import Foundation
import Synchronization

/// Draws components and caches each unique state: a request computes the component's
/// ``CacheKey`` and returns the cached image, or draws it exactly once — however many threads,
/// tasks and parent components ask at the same time — and caches the result.
///
/// ```swift
/// let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 64 << 20))
/// let image = try rasterizer.image(for: badge, size: Size(width: 120, height: 32), scale: 2)
/// let later = try await rasterizer.image(for: badge, size: size, scale: 2, priority: .urgent)
/// let fresh = try rasterizer.render(RenderRequest(badge, size: size, scale: 2, options: .reloadIgnoringCachedData))
/// ```
public final class Rasterizer: Sendable {
    /// Components nested deeper than this stop with ``RenderError/nestingTooDeep(typeName:depth:)``.
    public static let nestingLimit = 32

    /// Where renders are kept.
    public let cache: RasterCache
    /// What each draw may allocate and how long it may take.
    public let limits: ResourceLimits
    /// The pixel memory this rasterizer's renders hold while they draw, kept under `limits`.
    let memory: MemoryBudget
    let scheduler: RenderScheduler
    let counters: RenderCounters
    /// Failed primaries not to retry yet, and renders made with a fallback (see ``Fallback``).
    let fallbackRecords = FallbackRecords()
    // The memory-hit path's view of the memory cache and the counters (see ``Borrowed``).
    private let borrowedMemory: Borrowed<MemoryCache>
    private let borrowedCounters: Borrowed<RenderCounters>

    /// - Parameters:
    ///   - cache: the memory (and optional disk) cache renders are served from.
    ///   - limits: what each draw may allocate and how long it may take (see ``ResourceLimits``).
    ///   - maxConcurrentDraws: how many asynchronous urgent draws run at once on RasterKit's own
    ///     threads (default: the number of active processors).
    public init(cache: RasterCache = RasterCache(), limits: ResourceLimits = .default,
                maxConcurrentDraws: Int = Processors.available) {
        self.cache = cache
        self.limits = limits
        memory = MemoryBudget(limit: limits.memoryBudget)
        let counters = RenderCounters()
        self.counters = counters
        borrowedMemory = Borrowed(cache.memory)
        borrowedCounters = Borrowed(counters)
        scheduler = RenderScheduler(maxConcurrentDraws: max(1, maxConcurrentDraws)) {
            counters.count(.cancellations)
        }
    }

    deinit { scheduler.shutDown() }

    /// How many asynchronous urgent draws may run at once; change it with ``setMaxConcurrentDraws(_:)``.
    public var maxConcurrentDraws: Int { scheduler.maxConcurrentDraws }

    /// Counters since the rasterizer was made.
    public var statistics: RenderStatistics {
        counters.snapshot(evictions: cache.memory.statistics.evictions)
    }

    /// The key a request for `component` at `size` and `scale` is cached under, computed from the
    /// component's current state. Throws ``StateKeyError`` when the state holds a value that
    /// cannot be keyed faithfully (see ``StateHashable`` for what is refused).
    public func cacheKey<Component: Rasterizable>(for component: Component, size: Size, scale: Double = 1) throws(StateKeyError) -> CacheKey {
        try CacheKey.make(for: component, size: size, scale: scale)
    }

    /// The image of `component` at `size` points and `scale`, from the cache or drawn now on the
    /// calling thread: the shorthand of `try render(RenderRequest(component, size: size, scale:
    /// scale)).image`, whose memory hit needs only the key's digest. A nine-slice component drawn
    /// at its minimum frame returns that small image, carrying its cap insets; `stretched(to:)`
    /// gives the full-size pixels.
    public func image<Component: Rasterizable>(for component: Component, size: Size, scale: Double = 1) throws -> RasterImage {
        // A memory hit needs only the key's digest: no names, no description, no draw environment.
        let geometry = try RenderGeometry(for: component, size: size, scale: scale)
        if let image = memoryHit(try CacheKey.digest(for: component, size: size, scale: scale)) { return image }
        return try resolveMiss(component, key: try cacheKey(for: component, size: size, scale: scale), geometry: geometry,
                               scale: scale, environment: DrawEnvironment(nestedRenderer: self, limits: limits, memory: memory)).image
    }

    /// Serves `request` on the calling thread: from the cache, drawn now, or taken from the draw
    /// another thread started for the same key; the result says which. A synchronous request
    /// draws at once, so its ``RenderRequest/priority`` is not used.
    ///
    /// ```swift
    /// let rendered = try rasterizer.render(RenderRequest(badge, size: size, scale: 2))
    /// let huge = try rasterizer.render(RenderRequest(poster, size: Size(width: 4000, height: 3000),
    ///                                                options: .disableMemoryCacheWrites))
    /// ```
    ///
    /// - Throws: ``RenderError`` for a size, scale or cap insets no surface can have and for a
    ///   draw that fails or exceeds the ``limits``; ``StateKeyError`` for a state that cannot be
    ///   keyed.
    public func render<Component: Rasterizable>(_ request: RenderRequest<Component>) throws -> RenderedImage {
        let geometry = try request.geometry()
        return try resolveSynchronously(request.component, key: try request.key(), geometry: geometry, scale: request.scale,
                                        environment: DrawEnvironment(nestedRenderer: self, limits: limits, memory: memory),
                                        options: request.options)
    }

    /// The image the cache holds for `request`, from the tiers its options let it read (memory,
    /// then the disk store and the remote store behind it), or nil. Never draws, and does not
    /// wait for a draw under way; a disk or remote hit is kept in memory unless the options
    /// disable memory writes.
    ///
    /// - Throws: ``RenderError/conflictingOptions(_:reason:)`` for a request that may read no
    ///   tier (a reload, or both reads disabled); and what `render(_:)` throws for a request that
    ///   cannot be made.
    public func cachedRender<Component: Rasterizable>(_ request: RenderRequest<Component>) throws -> RenderedImage? {
        let options = request.options
        if options.readTiers.isEmpty {
            let reason = options.contains(.reloadIgnoringCachedData)
                ? "a cache-only request cannot reload: one forbids drawing, the other reading"
                : "a cache-only request with both memory and disk reads disabled can find nothing"
            throw RenderError.conflictingOptions(options, reason: reason)
        }
        let geometry = try request.geometry()
        let key = try request.key()
        if options.readTiers.contains(.memory), let image = cache.memory.image(for: key.value) {
            counters.count(.memoryHits)
            return RenderedImage(image: image, key: key, origin: .memory)
        }
        let expected = try ExpectedRender(geometry: geometry, scale: request.scale,
                                          composed: request.component is any ComposedRendering, limits: limits)
        return storedRender(key, expecting: expected, options: options)
    }

    /// The image memory holds for `digest`, counted as a memory hit.
    @inline(__always)
    func memoryHit(_ digest: StableDigest) -> RasterImage? {
        guard let image = borrowedMemory({ $0.image(for: digest) }) else { return nil }
        borrowedCounters { $0.count(.memoryHits) }
        return image
    }

    /// Memory, then a claim on the key: draw it here, or wait for the thread drawing it.
    /// `options` steer this request only, not the components nested in it.
    func resolveSynchronously<Component: Rasterizable>(_ component: Component, key: CacheKey, geometry: RenderGeometry,
                                                       scale: Double, environment: DrawEnvironment,
                                                       options: RenderOptions = []) throws -> RenderedImage {
        if options.readTiers.contains(.memory), let entry = cache.memory.entry(for: key.value) {
            counters.count(.memoryHits)
            environment.children.record(contentsOf: entry.children)
            return RenderedImage(image: entry.image, key: key, origin: .memory)
        }
        return try resolveMiss(component, key: key, geometry: geometry, scale: scale, environment: environment, options: options)
    }

    /// A claim on a key memory did not have: draw it here, or wait for the thread drawing it.
    private func resolveMiss<Component: Rasterizable>(_ component: Component, key: CacheKey, geometry: RenderGeometry,
                                                      scale: Double, environment: DrawEnvironment, options: RenderOptions = [],
                                                      joinsRunning: Bool = true) throws -> RenderedImage {
        if joinsRunning { counters.count(.misses) }
        switch scheduler.claim(key: key, options: options, joinsRunning: joinsRunning) {
        case .run(let job):
            let plan = scheduler.plan(of: job)
            let result = Result {
                try produce(component, key: key, geometry: geometry, scale: scale, environment: environment, job: job, plan: plan)
            }
            scheduler.finish(job, with: result.map { drawn($0, job: job, plan: plan, children: environment.children.versions) })
            return try result.get()
        case .wait(let job):
            counters.count(.coalesced)
            let drawn = try scheduler.waitSynchronously(for: job)
            guard options.accepts(drawn.origin) else {
                // The render it joined was served from a tier this request must not read.
                return try resolveMiss(component, key: key, geometry: geometry, scale: scale, environment: environment,
                                       options: options, joinsRunning: false)
            }
            environment.children.record(contentsOf: drawn.children)
            if let fallback = drawn.fallback { environment.children.noteFallback(fallback) }
            storeJoined(drawn, key: key, options: options)
            return RenderedImage(image: drawn.image, key: key, origin: .joined, fallback: drawn.fallback)
        }
    }

    /// Draws a render this request has claimed, stores it, and returns it. Run by exactly one
    /// thread per key at a time.
    func produce<Component: Rasterizable>(_ component: Component, key: CacheKey, geometry: RenderGeometry,
                                          scale: Double, environment: DrawEnvironment,
                                          job: RenderJob, plan: RenderPlan) throws -> RenderedImage {
        // Another request may have stored it between our cache miss and our claim: served from
        // memory after all, and counted so (a busy batch otherwise lost a hit in its statistics).
        if plan.reads.contains(.memory), let entry = cache.memory.peek(key.value) {
            counters.count(.memoryHits)
            environment.children.record(contentsOf: entry.children)
            return RenderedImage(image: entry.image, key: key, origin: .memory)
        }
        try environment.checkContinuing()
        // What a stored or fetched render of this key must be, checked before it is decoded.
        let expected = try ExpectedRender(geometry: geometry, scale: scale, composed: component is any ComposedRendering,
                                          limits: limits)
        // Stored by an earlier run or another process: decoded instead of drawn.
        if plan.reads.contains(.disk), let stored = cache.diskHit(for: key, expecting: expected, promoting: false) {
            // Promoted like a drawn render: not over a newer render (a reload) stored meanwhile.
            if plan.writes.contains(.memory) {
                scheduler.storeUnlessSuperseded(job) { cache.memory.insert(stored.image, children: stored.children, for: key) }
            }
            environment.children.record(contentsOf: stored.children)
            counters.count(.diskHits)
            return RenderedImage(image: stored.image, key: key, origin: .disk)
        }
        // Drawn by another machine: verified, then kept on disk too. Bounded by the remote
        // store's timeouts and skipped while its circuit breaker is open.
        if plan.reads.contains(.disk),
           let (stored, png, encoding) = cache.remoteHit(for: key, expecting: expected, storingOnDisk: plan.writes.contains(.disk),
                                                         lifetime: component.diskCacheLifetime) {
            if plan.writes.contains(.memory) {
                scheduler.storeUnlessSuperseded(job) { cache.memory.insert(stored.image, children: stored.children, for: key) }
            }
            environment.children.record(contentsOf: stored.children)
            counters.count(.remoteHits)
            var rendered = RenderedImage(image: stored.image, key: key, origin: .remote)
            rendered.remotePNG = encoding.map { (png, $0) }
            return rendered
        }
        counters.count(.draws)
        let image: RasterImage, fallback: FallbackEvent?
        do {
            (image, fallback) = try environment.children.trackingFallbacks {
                try geometry.draw(component, scale: scale, environment: environment)
            }
        } catch let error as CancellationError {
            throw error
        } catch let error as RenderError {
            counters.count(.failures)
            if case .nestingTooDeep = error { throw error }
            throw RenderError.drawFailed(typeName: key.typeName, key: key, underlying: error)
        } catch {
            counters.count(.failures)
            throw RenderError.drawFailed(typeName: key.typeName, key: key, underlying: error)
        }
        // A render every requester gave up on, or one past its time limit (whose draw may have
        // returned early), is not stored.
        try environment.checkContinuing()
        // Made with a fallback: not stored, so the primary is retried once its interval is over.
        if let fallback {
            return RenderedImage(image: image, key: key, origin: .fallback, fallback: fallback)
        }
        // The recorder is shared with the enclosing render, so a nested render's list may also
        // name siblings drawn before it: that can only cause an extra redraw, never a stale hit.
        // Unless a newer render of the key (a reload) has replaced this one: its result wins.
        scheduler.storeUnlessSuperseded(job) {
            cache.storeDrawn(image, for: key, children: environment.children.versions,
                             lifetime: component.diskCacheLifetime, in: plan.writes)
        }
        return RenderedImage(image: image, key: key, origin: .drawn)
    }
}

/// An image with the key it was cached under and where it came from.
public struct RenderedImage: Sendable {
    /// Where a rendered image came from.
    public enum Origin: String, Hashable, Sendable, Codable {
        /// Drawn for this request.
        case drawn
        /// Served from the memory cache.
        case memory
        /// Served from the disk store.
        case disk
        /// Served from the remote store shared with other machines (and now on disk too).
        case remote
        /// Drawn for another request that was already under way.
        case joined
        /// Made with a ``Fallback``'s secondary component, because its primary failed (now or
        /// within its retry interval); not cached under the render's key.
        case fallback

        /// Whether no draw was needed for this request.
        public var wasCached: Bool { self == .memory || self == .disk || self == .remote }
    }

    /// The rendered image.
    public let image: RasterImage
    /// The cache key the image is stored under.
    public let key: CacheKey
    /// Whether the image was drawn, served from memory, disk or the remote store, or shared with
    /// another request.
    public let origin: Origin
    let fallback: FallbackEvent?
    /// The PNG the image was decoded from when it came from the remote store, and the name of
    /// that PNG's encoding when the machine that drew it knew it (`png1`): a batch whose encoder
    /// has that name writes these bytes as they are instead of encoding the image again.
    package var remotePNG: (png: Data, encoding: String)?

    init(image: RasterImage, key: CacheKey, origin: Origin, fallback: FallbackEvent? = nil) {
        self.image = image
        self.key = key
        self.origin = origin
        self.fallback = fallback
    }

    /// What the primary component of a ``Fallback`` threw when this image was made with its
    /// secondary (directly or in a nested component); nil otherwise.
    public var fallbackError: (any Error)? { fallback?.error }
}

extension Rasterizer: NestedRendering {
    func renderNested<Component: Rasterizable>(_ component: Component, size: Size, scale: Double,
                                                environment: DrawEnvironment) throws -> RasterImage {
        let geometry = try RenderGeometry(for: component, size: size, scale: scale)
        let key = try cacheKey(for: component, size: size, scale: scale)
        return try resolveSynchronously(component, key: key, geometry: geometry, scale: scale, environment: environment).image
    }
}
