extension Rasterizer {
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

    /// What the disk store (and the remote store behind it) holds for a cache-only request that
    /// memory did not serve, when the options let it read there; nil otherwise.
    func storedRender(_ key: CacheKey, expecting expected: ExpectedRender, options: RenderOptions) -> RenderedImage? {
        counters.count(.misses)
        guard options.readTiers.contains(.disk) else { return nil }
        if let stored = cache.diskHit(for: key, expecting: expected, promoting: options.writeTiers.contains(.memory)) {
            counters.count(.diskHits)
            return RenderedImage(image: stored.image, key: key, origin: .disk)
        }
        if let (stored, _, _) = cache.remoteHit(for: key, expecting: expected, storingOnDisk: options.writeTiers.contains(.disk),
                                                lifetime: nil) {
            if options.writeTiers.contains(.memory) { cache.memory.insert(stored.image, children: stored.children, for: key) }
            counters.count(.remoteHits)
            return RenderedImage(image: stored.image, key: key, origin: .remote)
        }
        return nil
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
            disk.store(StoredRender(image: drawn.image, children: drawn.children), for: key, lifetime: nil)
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
