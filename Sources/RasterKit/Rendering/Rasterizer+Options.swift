extension Rasterizer {
    /// Like ``render(_:size:scale:)``, with `options` steering how this request uses the cache
    /// tiers (components nested in it use the cache as usual).
    ///
    /// ```swift
    /// let fresh = try rasterizer.render(badge, size: size, scale: 2, options: .reloadIgnoringCachedData)
    /// let huge = try rasterizer.render(poster, size: Size(width: 4000, height: 3000), options: [.disableMemoryCacheWrites])
    /// ```
    ///
    /// - Throws: ``RenderError/notCached(key:)`` when ``RenderOptions/returnCachedDataDontDraw``
    ///   finds nothing; ``RenderError/conflictingOptions(_:reason:)`` for options no request can
    ///   honour; and what ``render(_:size:scale:)`` throws.
    public func render<Component: Rasterizable>(_ component: Component, size: Size, scale: Double = 1,
                                                options: RenderOptions) throws -> RenderedImage {
        try options.validate()
        let geometry = try RenderGeometry(for: component, size: size, scale: scale)
        let key = try cacheKey(for: component, size: size, scale: scale)
        return try resolveSynchronously(component, key: key, geometry: geometry, scale: scale,
                                        environment: DrawEnvironment(nestedRenderer: self, limits: limits, memory: memory),
                                        options: options)
    }

    /// Like ``image(for:size:scale:)``, with `options` steering how this request uses the cache.
    public func image<Component: Rasterizable>(for component: Component, size: Size, scale: Double = 1,
                                               options: RenderOptions) throws -> RasterImage {
        try render(component, size: size, scale: scale, options: options).image
    }

    /// Changes how many asynchronous urgent draws may run at once, while requests come and go.
    /// Raising it starts draws that are queued now; lowering it lets the draws running finish,
    /// and no new one starts until fewer than `count` run.
    ///
    /// - Throws: ``InvalidLimitError`` when `count` is less than 1; the limit is then unchanged.
    public func setMaxConcurrentDraws(_ count: Int) throws {
        try InvalidLimitError.check(count, "maxConcurrentDraws", minimum: 1)
        scheduler.setMaxConcurrentDraws(count)
    }

    // MARK: Internals

    /// A cache-only request that memory did not serve: the disk store (when the options let it
    /// read there), or ``RenderError/notCached(key:)``.
    func diskOnlyLookup(_ key: CacheKey, expecting expected: ExpectedRender, options: RenderOptions,
                        environment: DrawEnvironment?) throws -> RenderedImage {
        counters.count(.misses)
        if options.readTiers.contains(.disk),
           let stored = cache.diskHit(for: key, expecting: expected, promoting: options.writeTiers.contains(.memory)) {
            counters.count(.diskHits)
            environment?.children.record(contentsOf: stored.children)
            return RenderedImage(image: stored.image, key: key, origin: .disk)
        }
        if options.readTiers.contains(.disk),
           let (stored, _, _) = cache.remoteHit(for: key, expecting: expected, storingOnDisk: options.writeTiers.contains(.disk),
                                                lifetime: nil) {
            if options.writeTiers.contains(.memory) { cache.memory.insert(stored.image, children: stored.children, for: key) }
            counters.count(.remoteHits)
            environment?.children.record(contentsOf: stored.children)
            return RenderedImage(image: stored.image, key: key, origin: .remote)
        }
        throw RenderError.notCached(key: key)
    }

    /// The shared result of a render this request ran: where the image now lives, and whether a
    /// newer render replaced it.
    func drawn(_ rendered: RenderedImage, job: RenderJob, plan: RenderPlan, children: [ComponentVersion]) -> RenderJob.Drawn {
        let superseded = scheduler.skippedStore(job)
        let heldIn: CacheTiers = switch rendered.origin {
        case .memory: .memory
        case .fallback: []
        case .disk: superseded ? .disk : plan.writes.intersection(.memory).union(.disk)
        case .remote: superseded ? plan.writes.intersection(.disk) : plan.writes
        default: superseded ? [] : plan.writes
        }
        return RenderJob.Drawn(image: rendered.image, children: children, fallback: rendered.fallback, heldIn: heldIn,
                               wasSuperseded: superseded, origin: rendered.origin)
    }

    /// Writes a joined render to the tiers this request wants and the render it joined did not
    /// write. Only where the key is still absent: a newer render stored meanwhile wins.
    func storeJoined(_ drawn: RenderJob.Drawn, key: CacheKey, options: RenderOptions) {
        // A fallback's image is never cached under the render's key.
        guard !drawn.wasSuperseded, drawn.fallback == nil else { return }
        let missing = options.writeTiers.subtracting(drawn.heldIn)
        if missing.contains(.memory) { cache.memory.insertIfAbsent(drawn.image, children: drawn.children, for: key) }
        if missing.contains(.disk), let disk = cache.disk, !disk.contains(key) {
            disk.store(drawn.image, for: key, children: drawn.children, lifetime: nil)
        }
    }
}

extension Rasterizer {
    /// ``statistics``, and with `listingMemory` what the memory cache holds (keys, bytes, when
    /// each was stored and last used: ``MemoryCache/entries``) in ``RenderStatistics/memoryEntries``.
    public func statistics(listingMemory: Bool) -> RenderStatistics {
        var statistics = statistics
        if listingMemory { statistics.memoryEntries = cache.memory.entries }
        return statistics
    }
}
