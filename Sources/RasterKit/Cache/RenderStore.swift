import Foundation

/// The persistent tier of a ``RasterCache``: renders that outlive the process, asked after
/// memory and before the remote store. ``DiskCache``, one SQLite file shared by every process
/// that opens it, is RasterKit's.
///
/// A store keeps renders and hands them back; it does not vouch for them. What
/// ``storedRender(for:)`` returns is checked by the cache against what the key's render must be
/// — its pixel size (when the component is known), scale and cap insets, within the
/// rasterizer's pixel limits — on the PNG's header before a pixel is decoded and again once it
/// is, and against the render versions of the components drawn inside it; one that fails is
/// handed back through ``discard(_:for:reason:)`` and drawn again. So a store written by someone
/// else (a file copied from another machine) can cost a redraw, or serve pixels of the right
/// geometry that it changed, but never an image of another size or scale, nor the memory of
/// decoding a forged one.
///
/// A conforming type must be safe to call from many threads at once; ``store(_:for:lifetime:)``
/// should return at once, leaving the write to a background queue that ``flush()`` waits for.
public protocol RenderStore: AnyObject, Sendable {
    /// The render stored for `key`, or nil for a miss (absent, expired, or not to be trusted by
    /// the store's own checks). Counted by the store as a hit or a miss.
    func storedRender(for key: CacheKey) -> StoredRender?

    /// Whether a render for `key` is stored (or waiting to be written), without counting a hit or
    /// a miss and without reading it.
    func contains(_ key: CacheKey) -> Bool

    /// Keeps `render` under `key` for `lifetime` seconds (nil: the store's default; 0 or less
    /// keeps nothing), replacing what was there. Should return at once.
    func store(_ render: StoredRender, for key: CacheKey, lifetime: TimeInterval?)

    /// Removes `render`, which ``storedRender(for:)`` returned for `key` and the cache found not
    /// to be the key's render (`reason` says how), and counts it as a miss rather than a hit. A
    /// render stored for `key` since then is kept.
    func discard(_ render: StoredRender, for key: CacheKey, reason: String)

    /// Writes every render handed to the store so far, and returns once they are kept.
    func flush() throws

    /// Starts writing every render handed to the store so far, and returns at once; a later
    /// ``flush()`` waits for what is left.
    func startWriting()

    /// Removes the render stored for `key`; returns whether there was one.
    func remove(_ key: CacheKey) throws -> Bool

    /// Removes every render `filter` picks, waiting ones included (see
    /// ``CacheEntryFilter/resolvedTypeName(among:)`` and
    /// ``CacheEntryFilter/matches(_:stored:now:resolvedTypeName:)``); returns how many there were.
    /// Throws ``CacheRemovalError`` for a filter ``CacheEntryFilter/validate()`` refuses.
    func removeAll(where filter: CacheEntryFilter) throws -> Int
}
