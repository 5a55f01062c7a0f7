import Foundation

/// The cache a ``Rasterizer`` serves from: a memory LRU in front of an optional persistent
/// disk store. A request looks in memory, then on disk, then draws; a disk hit is kept in
/// memory, and a drawn render goes to both.
///
/// ```swift
/// let cache = RasterCache(memoryLimit: 64 << 20)
/// let persistent = RasterCache(memoryLimit: 64 << 20, disk: try DiskCache(at: url))
/// ```
///
/// The cache counts nothing itself: what requests were served from where is
/// ``Rasterizer/statistics`` (the one owner of render counts), and each tier reports its own
/// (``MemoryCache/statistics``, ``DiskCache/statistics``).
public final class RasterCache: Sendable {
    /// The in-memory tier.
    public let memory: MemoryCache
    /// The persistent tier, or nil to keep renders in memory only.
    public let disk: DiskCache?

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

    /// The stored render for `key`, promoted to memory unless `promoting` is false, or nil when
    /// the disk has none.
    func diskHit(for key: CacheKey, promoting: Bool = true) -> DiskCacheHit? {
        guard let disk, let hit = disk.hit(for: key) else { return nil }
        if promoting { memory.insert(hit.image, children: hit.children, for: key) }
        return hit
    }

    /// Keeps a render just drawn in memory and hands it to the disk store's writer, each only
    /// when `tiers` includes it.
    func storeDrawn(_ image: RasterImage, for key: CacheKey, children: [ComponentVersion], lifetime: Double?,
                    in tiers: CacheTiers = .all) {
        if tiers.contains(.memory) { memory.insert(image, children: children, for: key) }
        if tiers.contains(.disk) { disk?.store(image, for: key, children: children, lifetime: lifetime) }
    }
}
