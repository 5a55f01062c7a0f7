/// The cache a ``Rasterizer`` serves from: a memory LRU in front of an optional persistent
/// disk store.
///
/// ```swift
/// let cache = RasterCache(memoryLimit: 64 << 20)
/// ```
public final class RasterCache: Sendable {
    /// The in-memory tier.
    public let memory: MemoryCache

    /// - Parameter memoryLimit: bytes of pixels kept in memory (default 64 MiB).
    public init(memoryLimit: Int = 64 << 20) {
        memory = MemoryCache(costLimit: memoryLimit)
    }

    /// Drops every image held in memory.
    public func removeAll() {
        memory.removeAll()
    }
}
