import Synchronization

/// A least-recently-used cache of images bounded by total byte cost (pixel bytes) and by a
/// per-item limit. Linux has no memory-pressure notifications, so the bounds are the only
/// thing keeping it from growing: nothing is kept beyond them.
public final class MemoryCache: Sendable {
    /// Counters since the cache was made.
    public struct Statistics: Hashable, Sendable {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        /// Images currently held.
        public var count = 0
        /// Bytes currently held.
        public var totalCost = 0
    }

    /// The most bytes of pixels the cache holds.
    public let costLimit: Int
    /// Images larger than this are returned to the caller but not kept.
    public let itemCostLimit: Int

    private let state: SanitizerVisibleMutex<LRUList>

    /// - Parameters:
    ///   - costLimit: total bytes of pixels to keep (default 64 MiB).
    ///   - itemCostLimit: the largest single image kept (default a quarter of `costLimit`).
    public init(costLimit: Int = 64 << 20, itemCostLimit: Int? = nil) {
        precondition(costLimit >= 0, "MemoryCache costLimit must not be negative")
        self.costLimit = costLimit
        self.itemCostLimit = min(itemCostLimit ?? costLimit / 4, costLimit)
        state = SanitizerVisibleMutex(LRUList())
    }

    /// The image for `key`, marked as most recently used.
    public func image(for key: CacheKey) -> RasterImage? { image(for: key.value) }

    func image(for digest: StableDigest) -> RasterImage? { entry(for: digest)?.image }

    /// The image for `digest` with the components drawn inside it, counting a hit or a miss.
    func entry(for digest: StableDigest) -> (image: RasterImage, children: [ComponentVersion])? {
        state.withLock { list in
            if let entry = list.touch(digest) {
                list.statistics.hits += 1
                return entry
            }
            list.statistics.misses += 1
            return nil
        }
    }

    /// Whether an image for `key` is held, without counting a hit or changing the order.
    public func contains(_ key: CacheKey) -> Bool { state.withLock { $0.contains(key.value) } }

    /// Keeps `image` for `key`, evicting the least recently used images to stay within
    /// `costLimit`. Returns false when the image is over `itemCostLimit` and was not kept.
    @discardableResult
    public func insert(_ image: RasterImage, for key: CacheKey) -> Bool { insert(image, for: key.value) }

    /// Keeps `image` with the versions of the components drawn inside it, which a later hit
    /// reports to the render that nests it.
    @discardableResult
    func insert(_ image: RasterImage, children: [ComponentVersion] = [], for digest: StableDigest) -> Bool {
        let cost = image.byteCount
        guard cost <= itemCostLimit else { return false }
        state.withLock { list in
            list.insert(image, children: children, cost: cost, for: digest)
            list._trim(toCost: costLimit)
        }
        return true
    }

    public func removeImage(for key: CacheKey) {
        state.withLock { $0.remove(key.value) }
    }

    public func removeAll() {
        state.withLock { list in
            let statistics = list.statistics
            list = LRUList()
            list.statistics.hits = statistics.hits
            list.statistics.misses = statistics.misses
            list.statistics.evictions = statistics.evictions
        }
    }

    /// Evicts least recently used images until at most `cost` bytes remain.
    public func trim(toCost cost: Int) {
        state.withLock { $0._trim(toCost: max(0, cost)) }
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    public var totalCost: Int { state.withLock { $0.statistics.totalCost } }
}

/// The LRU order as a doubly linked list over an array of slots, with a free list: no
/// allocation per hit, one per new key at most. Not thread-safe; `MemoryCache` locks it.
struct LRUList {
    private struct Slot {
        var digest: StableDigest
        var image: RasterImage?
        var children: [ComponentVersion]
        var cost: Int
        var newer: Int
        var older: Int
    }

    private var slots: [Slot] = []
    private var index: [StableDigest: Int] = [:]
    private var free: [Int] = []
    /// Most and least recently used slots, -1 when empty.
    private var newest = -1
    private var oldest = -1
    var statistics = MemoryCache.Statistics()

    func contains(_ digest: StableDigest) -> Bool { index[digest] != nil }

    mutating func touch(_ digest: StableDigest) -> (image: RasterImage, children: [ComponentVersion])? {
        guard let slot = index[digest], let image = slots[slot].image else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return (image, slots[slot].children)
    }

    mutating func insert(_ image: RasterImage, children: [ComponentVersion], cost: Int, for digest: StableDigest) {
        if let slot = index[digest] {
            statistics.totalCost += cost - slots[slot].cost
            slots[slot].image = image
            slots[slot].children = children
            slots[slot].cost = cost
            unlink(slot)
            linkAsNewest(slot)
            return
        }
        let entry = Slot(digest: digest, image: image, children: children, cost: cost, newer: -1, older: -1)
        let slot: Int
        if let reused = free.popLast() {
            slots[reused] = entry
            slot = reused
        } else {
            slots.append(entry)
            slot = slots.count - 1
        }
        index[digest] = slot
        linkAsNewest(slot)
        statistics.count += 1
        statistics.totalCost += cost
    }

    mutating func remove(_ digest: StableDigest) {
        guard let slot = index.removeValue(forKey: digest) else { return }
        unlink(slot)
        statistics.count -= 1
        statistics.totalCost -= slots[slot].cost
        slots[slot].image = nil
        slots[slot].children = []
        free.append(slot)
    }

    /// Evicts from the old end; the caller holds the lock.
    mutating func _trim(toCost limit: Int) {
        while statistics.totalCost > limit, oldest >= 0 {
            remove(slots[oldest].digest)
            statistics.evictions += 1
        }
    }

    private mutating func unlink(_ slot: Int) {
        let newer = slots[slot].newer, older = slots[slot].older
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }

    private mutating func linkAsNewest(_ slot: Int) {
        slots[slot].older = newest
        slots[slot].newer = -1
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    /// Digests from most to least recently used, for tests.
    var order: [StableDigest] {
        var result: [StableDigest] = []
        var slot = newest
        while slot >= 0 {
            result.append(slots[slot].digest)
            slot = slots[slot].older
        }
        return result
    }
}

extension MemoryCache {
    /// The entry for `digest` without counting a hit or miss or changing the order.
    func peek(_ digest: StableDigest) -> (image: RasterImage, children: [ComponentVersion])? {
        state.withLock { $0.peek(digest) }
    }
}

extension LRUList {
    func peek(_ digest: StableDigest) -> (image: RasterImage, children: [ComponentVersion])? {
        guard let slot = index[digest], let image = slots[slot].image else { return nil }
        return (image, slots[slot].children)
    }
}
