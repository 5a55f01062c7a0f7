import Foundation
import Synchronization

/// A cache of images in memory, bounded by total byte cost (pixel bytes) and by a per-item
/// limit, that evicts the least recently used images first.
///
/// Hits are served under the read side of a `ReadMostlyLock` and leave nothing shared
/// written behind, so threads hitting the cache at once — even for the same image — run in
/// parallel. Recency is kept as a "second chance" (CLOCK) order: a hit only sets its entry's
/// reference mark, and eviction moves marked entries to the recent end instead of evicting them.
/// An image hit since it was stored, or since eviction last passed it, outlives every image that
/// was not.
public final class MemoryCache: @unchecked Sendable {
    /// Counters since the cache was made.
    public struct Statistics: Hashable, Sendable {
        /// Lookups that found their image.
        public var hits = 0
        /// Lookups that found nothing.
        public var misses = 0
        /// Images removed to stay within the cost limit.
        public var evictions = 0
        /// Images currently held.
        public var count = 0
        /// Bytes currently held.
        public var totalCost = 0
    }

    /// The most bytes of pixels the cache holds; change it with ``setCostLimit(_:)``.
    public var costLimit: Int { lock.withReadLock { limits.cost } }
    /// Images larger than this are returned to the caller but not kept; change it with
    /// ``setItemCostLimit(_:)``.
    public var itemCostLimit: Int { lock.withReadLock { limits.itemCost } }

    /// Both limits; changed at run time, so read and written under `lock` like the table.
    struct Limits {
        var cost: Int
        /// What the caller asked for; nil follows `cost` (a quarter of it).
        var requestedItemCost: Int?
        var itemCost: Int { min(requestedItemCost ?? cost / 4, cost) }
    }

    private let lock = ReadMostlyLock()
    /// Guarded by `lock`, like `table`.
    private var limits: Limits
    /// Wall-clock seconds, for the time an image is stored (removal by age); tests replace it.
    let clock: @Sendable () -> Double
    /// Guarded by `lock`: read under its read side, changed under its write side.
    private let table = MemoryTable()
    private let counters = StripedCounters(width: 2)
    private enum Counter { static let hits = 0, misses = 1 }
    // The hit path's view of the three, which costs no reference counting (see ``Borrowed``).
    private let borrowedLock: Borrowed<ReadMostlyLock>
    private let borrowedTable: Borrowed<MemoryTable>
    private let borrowedCounters: Borrowed<StripedCounters>

    /// - Parameters:
    ///   - costLimit: total bytes of pixels to keep (default 64 MiB).
    ///   - itemCostLimit: the largest single image kept (default a quarter of `costLimit`).
    public convenience init(costLimit: Int = 64 << 20, itemCostLimit: Int? = nil) {
        self.init(costLimit: costLimit, itemCostLimit: itemCostLimit, clock: { Date().timeIntervalSince1970 })
    }

    init(costLimit: Int, itemCostLimit: Int?, clock: @escaping @Sendable () -> Double) {
        precondition(costLimit >= 0, "MemoryCache costLimit must not be negative")
        limits = Limits(cost: costLimit, requestedItemCost: itemCostLimit)
        self.clock = clock
        borrowedLock = Borrowed(lock)
        borrowedTable = Borrowed(table)
        borrowedCounters = Borrowed(counters)
    }

    /// The image for `key`, marked as recently used.
    public func image(for key: CacheKey) -> RasterImage? { image(for: key.value) }

    /// The image for `digest`, marked as recently used, counting a hit or a miss.
    @inline(__always)
    func image(for digest: StableDigest) -> RasterImage? {
        let image = borrowedLock { lock in borrowedTable { table in lock.withReadLock { table.image(for: digest, marking: true) } } }
        borrowedCounters { $0.add(to: image == nil ? Counter.misses : Counter.hits) }
        return image
    }

    /// The image for `digest` with the components drawn inside it, counting a hit or a miss.
    func entry(for digest: StableDigest) -> (image: RasterImage, children: [ComponentVersion])? {
        let entry = lock.withReadLock { table.entry(for: digest, marking: true) }
        counters.add(to: entry == nil ? Counter.misses : Counter.hits)
        return entry
    }

    /// The entry for `digest` without counting a hit or miss or changing its recency.
    func peek(_ digest: StableDigest) -> (image: RasterImage, children: [ComponentVersion])? {
        lock.withReadLock { table.entry(for: digest, marking: false) }
    }

    /// Whether an image for `key` is held, without counting a hit or changing the order.
    public func contains(_ key: CacheKey) -> Bool { lock.withReadLock { table.slot(of: key.value) != nil } }

    /// Keeps `image` for `key`, evicting the least recently used images to stay within
    /// `costLimit`. Returns false when the image is over `itemCostLimit` and was not kept.
    @discardableResult
    public func insert(_ image: RasterImage, for key: CacheKey) -> Bool { insert(image, children: [], for: key) }

    /// Keeps `image` with the versions of the components drawn inside it, which a later hit
    /// reports to the render that nests it.
    @discardableResult
    func insert(_ image: RasterImage, children: [ComponentVersion], for key: CacheKey) -> Bool {
        let cost = image.byteCount
        let now = clock()
        return lock.withWriteLock {
            // Read under the lock: a limit lowered meanwhile applies to this insertion too.
            guard cost <= limits.itemCost else { return false }
            table.insert(image, children: children, cost: cost, for: key, now: now)
            table._trim(toCost: limits.cost)
            return true
        }
    }

    /// Keeps `image` only when no image is held for `key`: a request that joined a render
    /// fills in a tier without replacing a newer render stored meanwhile.
    func insertIfAbsent(_ image: RasterImage, children: [ComponentVersion], for key: CacheKey) {
        let cost = image.byteCount
        let now = clock()
        lock.withWriteLock {
            guard cost <= limits.itemCost, table.slot(of: key.value) == nil else { return }
            table.insert(image, children: children, cost: cost, for: key, now: now)
            table._trim(toCost: limits.cost)
        }
    }

    /// Changes ``costLimit`` now; lowering it evicts the least recently used images at once.
    /// An ``itemCostLimit`` never set explicitly follows it (a quarter of it).
    ///
    /// - Throws: ``InvalidLimitError`` for a negative limit, which is then left as it was.
    public func setCostLimit(_ limit: Int) throws {
        try InvalidLimitError.check(limit, "costLimit")
        lock.withWriteLock {
            limits.cost = limit
            table._trim(toCost: limit)
        }
    }

    /// Changes ``itemCostLimit`` now (never above ``costLimit``); nil makes it follow the cost
    /// limit again. Images already held stay until evicted.
    ///
    /// - Throws: ``InvalidLimitError`` for a negative limit, which is then left as it was.
    public func setItemCostLimit(_ limit: Int?) throws {
        if let limit { try InvalidLimitError.check(limit, "itemCostLimit") }
        lock.withWriteLock { limits.requestedItemCost = limit }
    }

    /// Removes the image for `key`, if held.
    public func removeImage(for key: CacheKey) {
        lock.withWriteLock { table.remove(key.value) }
    }

    /// Removes every image; the hit, miss and eviction counts are kept.
    public func removeAll() {
        lock.withWriteLock { table.removeAll() }
    }

    /// Removes the images `filter` picks (by type name, or stored more than an age ago);
    /// returns how many were removed.
    ///
    /// - Throws: ``CacheRemovalError`` for a filter that cannot pick anything meaningfully (an
    ///   empty type name, a negative or NaN age), before anything is removed.
    @discardableResult
    public func removeAll(where filter: CacheEntryFilter) throws -> Int {
        try filter.validate()
        let now = clock()
        return try lock.withWriteLock {
            let typeName = try filter.resolvedTypeName(among: Set(table.infos(now: CoarseClock.Reading()).map(\.key.typeName)))
            return table.removeAll { key, stored in filter.matches(key, stored: stored, now: now, resolvedTypeName: typeName) }
        }
    }

    /// What memory holds, for debugging: each image's key, bytes, and when it was stored and
    /// last used, from the next to be evicted (unless marked recent) to the newest.
    public var entries: [MemoryCacheEntryInfo] {
        let now = CoarseClock.Reading()
        return lock.withReadLock { table.infos(now: now) }
    }

    /// Evicts least recently used images until at most `cost` bytes remain.
    public func trim(toCost cost: Int) {
        lock.withWriteLock { table._trim(toCost: max(0, cost)) }
    }

    /// Counters since the cache was made, and what it holds now.
    public var statistics: Statistics {
        var statistics = lock.withReadLock { Statistics(evictions: table.evictions, count: table.count, totalCost: table.totalCost) }
        statistics.hits = counters.value(of: Counter.hits)
        statistics.misses = counters.value(of: Counter.misses)
        return statistics
    }

    /// Bytes currently held.
    public var totalCost: Int { lock.withReadLock { table.totalCost } }

    /// Digests from the next to be evicted (unless marked) to the most recently stored, for tests.
    var evictionOrder: [StableDigest] { lock.withReadLock { table.order } }
}
