extension Rasterizer {
    /// The image of `component`, drawn on RasterKit's render threads at `priority` when it is not
    /// cached: the shorthand of `try await render(RenderRequest(component, size: size, scale:
    /// scale, priority: priority)).image`, whose memory hit needs only the key's digest.
    public func image<Component: Rasterizable>(for component: Component, size: Size, scale: Double = 1,
                                               priority: RenderPriority) async throws -> RasterImage {
        _ = try RenderGeometry(for: component, size: size, scale: scale)
        if let image = memoryHit(try CacheKey.digest(for: component, size: size, scale: scale)) { return image }
        return try await render(RenderRequest(component, size: size, scale: scale, priority: priority)).image
    }

    /// Serves `request` on RasterKit's render threads at its ``RenderRequest/priority`` when it
    /// is not cached, and says where the image came from. Concurrent requests for one key share
    /// one draw. Cancelling the calling task ends the wait with `CancellationError` at once; the
    /// draw is cancelled when no request wants it any more.
    ///
    /// ```swift
    /// let rendered = try await rasterizer.render(RenderRequest(badge, size: size, scale: 2, priority: .prefetch))
    /// ```
    public func render<Component: Rasterizable>(_ request: RenderRequest<Component>) async throws -> RenderedImage {
        let options = request.options
        let geometry = try request.geometry()
        let key = try request.key()
        if options.readTiers.contains(.memory), let image = memoryHit(key.value) {
            return RenderedImage(image: image, key: key, origin: .memory)
        }
        try Task.checkCancellation()
        counters.count(.misses)
        var joinsRunning = true
        while true {
            let (job, joined) = scheduler.enqueue(key: key, priority: request.priority, options: options, joinsRunning: joinsRunning,
                                                  work: work(for: request.component, key: key, geometry: geometry, scale: request.scale))
            if joined { counters.count(.coalesced) }
            let drawn = try await scheduler.result(of: job)
            guard joined else { return RenderedImage(image: drawn.image, key: key, origin: drawn.origin, fallback: drawn.fallback) }
            // The render it joined was served from a tier this request must not read: once more,
            // on a render of its own (a queued one it joins reads only what it may).
            guard options.accepts(drawn.origin) else {
                joinsRunning = false
                continue
            }
            storeJoined(drawn, key: key, options: options)
            return RenderedImage(image: drawn.image, key: key, origin: .joined, fallback: drawn.fallback)
        }
    }

    /// Starts rendering `component` at low priority, so that a later request finds it cached.
    /// Prefetches run one at a time, only while no urgent render is queued or running. Invalid
    /// requests are ignored: a prefetch has no one to report to.
    public func prefetch<Component: Rasterizable>(_ component: Component, size: Size, scale: Double = 1) {
        guard let geometry = try? RenderGeometry(for: component, size: size, scale: scale),
              let key = try? cacheKey(for: component, size: size, scale: scale) else { return }
        if cache.memory.contains(key) { return }
        _ = scheduler.enqueue(key: key, priority: .prefetch, keepAlive: true,
                              work: work(for: component, key: key, geometry: geometry, scale: scale))
    }

    /// Runs `work` on the rasterizer's render threads, sharing their bound with urgent draws, and
    /// returns its result: for blocking work a server does beside renders (a vector document,
    /// encoding an image), which must not hold Swift concurrency's threads.
    package func onRenderThreads<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await scheduler.run(work)
    }

    /// Moves a queued urgent render back to prefetch priority; its requests keep waiting.
    public func deprioritize(_ key: CacheKey) {
        scheduler.deprioritize(key)
    }

    func work<Component: Rasterizable>(for component: Component, key: CacheKey, geometry: RenderGeometry,
                                       scale: Double) -> @Sendable (RenderJob) throws -> RenderJob.Drawn {
        { [self] job in
            let environment = DrawEnvironment(nestedRenderer: self, limits: limits, memory: memory, isCancelled: { job.isCancelled })
            let plan = scheduler.plan(of: job)
            let rendered = try produce(component, key: key, geometry: geometry, scale: scale, environment: environment,
                                       job: job, plan: plan)
            return drawn(rendered, job: job, plan: plan, children: environment.children.versions)
        }
    }
}
