extension Rasterizer {
    /// The image of `component`, drawn on RasterKit's render threads when it is not cached.
    /// Concurrent requests for one key share one draw. Cancelling the calling task ends the wait
    /// with `CancellationError` at once; the draw is cancelled when no request wants it any more.
    public func image<Component: Rasterizable>(for component: Component, size: Size, scale: Double = 1,
                                               priority: RenderPriority) async throws -> RasterImage {
        let geometry = try RenderGeometry(for: component, size: size, scale: scale)
        if let image = memoryHit(try CacheKey.digest(for: component, size: size, scale: scale)) { return image }
        try Task.checkCancellation()
        let key = try cacheKey(for: component, size: size, scale: scale)
        counters.count(.misses)
        let (job, joined) = scheduler.enqueue(key: key, priority: priority,
                                              work: work(for: component, key: key, geometry: geometry, scale: scale))
        if joined { counters.count(.coalesced) }
        let drawn = try await scheduler.result(of: job)
        if joined { storeJoined(drawn, key: key, options: []) }
        return drawn.image
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
