import Foundation

/// One image the memory cache holds, as ``MemoryCache/entries`` lists it for debugging: which
/// state it is, what it costs, and when it was stored and last used.
public struct MemoryCacheEntryInfo: Hashable, Sendable {
    /// The key the image is cached under; its `description` names the type and the state.
    public var key: CacheKey
    /// Bytes of pixels the entry counts against ``MemoryCache/costLimit``.
    public var byteCount: Int
    /// The image's width in pixels.
    public var pixelWidth: Int
    /// The image's height in pixels.
    public var pixelHeight: Int
    /// When the image entered memory (drawn, decoded from disk, or inserted).
    public var stored: Date
    /// The last hit, or when it was stored if it has not been hit; accurate to about 20 ms.
    public var lastUse: Date
    /// Whether the image was hit since eviction last passed it: it then gets a second chance.
    public var isMarkedRecent: Bool
}
