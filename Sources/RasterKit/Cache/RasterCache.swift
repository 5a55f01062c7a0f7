import Foundation

/// The cache a ``Rasterizer`` serves from: a memory LRU in front of an optional persistent
/// disk store. A request looks in memory, then on disk, then draws; a disk hit is kept in
/// memory, and a drawn render goes to both.
///
/// ```swift
/// let cache = RasterCache(memoryLimit: 64 << 20)
/// let persistent = RasterCache(memoryLimit: 64 << 20, disk: try DiskCache(at: url))
/// ```
public final class RasterCache: Sendable {
    /// Where the renders served through this cache came from.
    public struct Statistics: Hashable, Sendable {
        /// Requests served from memory.
        public var memoryHits = 0
        /// Requests served from the disk store (then kept in memory).
        public var diskHits = 0
        /// Renders that had to be drawn (then stored in memory and on disk).
        public var draws = 0

        /// Statistics with every count at zero.
        public init() {}
    }

    /// The in-memory tier.
    public let memory: MemoryCache
    /// The persistent tier, or nil to keep renders in memory only.
    public let disk: DiskCache?
    private let counters = SanitizerVisibleMutex(Statistics())

    /// - Parameters:
    ///   - memoryLimit: bytes of pixels kept in memory (default 64 MiB).
    ///   - disk: the persistent store renders are also read from and written to (default none).
    ///   - respondsToMemoryPressure: trim the memory tier when the process's cgroup reports
    ///     memory pressure (see ``handleMemoryPressure(level:)``); default true.
    public init(memoryLimit: Int = 64 << 20, disk: DiskCache? = nil, respondsToMemoryPressure: Bool = true) {
        memory = MemoryCache(costLimit: memoryLimit)
        self.disk = disk
        if respondsToMemoryPressure { MemoryPressureRegistry.shared.register(self) }
    }

    /// A cache over a given memory tier (tests give one with their own clock).
    init(memory: MemoryCache, disk: DiskCache?) {
        self.memory = memory
        self.disk = disk
    }

    /// Drops every image held in memory. The disk store keeps its entries: see
    /// ``DiskCache/removeAll()``.
    public func removeAll() {
        memory.removeAll()
    }

    /// Writes every render pending for the disk store now, and returns once they are committed.
    /// Call it before the process exits. Does nothing without a disk store.
    public func flush() throws {
        try disk?.flush()
    }

    /// Memory hits, disk hits and draws so far.
    public var statistics: Statistics {
        var statistics = counters.withLock { $0 }
        statistics.memoryHits = memory.statistics.hits
        return statistics
    }

    /// The stored render for `key`, promoted to memory unless `promoting` is false, or nil when
    /// the disk has none.
    func diskHit(for key: CacheKey, promoting: Bool = true) -> DiskCacheHit? {
        guard let disk, let hit = disk.hit(for: key) else { return nil }
        if promoting { memory.insert(hit.image, children: hit.children, for: key) }
        counters.withLock { $0.diskHits += 1 }
        return hit
    }

    /// Keeps a render just drawn in memory and hands it to the disk store's writer, each only
    /// when `tiers` includes it.
    func storeDrawn(_ image: RasterImage, for key: CacheKey, children: [ComponentVersion], lifetime: Double?,
                    in tiers: CacheTiers = .all) {
        if tiers.contains(.memory) { memory.insert(image, children: children, for: key) }
        counters.withLock { $0.draws += 1 }
        if tiers.contains(.disk) { disk?.store(image, for: key, children: children, lifetime: lifetime) }
    }
}
