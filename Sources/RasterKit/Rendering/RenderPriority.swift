/// How soon an asynchronous render is wanted.
public enum RenderPriority: Int, Hashable, Sendable, Comparable, CaseIterable {
    /// Wanted ahead of time: runs one at a time, only while no urgent work is queued or running.
    case prefetch
    /// Wanted now: runs in parallel, up to the rasterizer's `maxConcurrentDraws`.
    case urgent

    public static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a rasterizer has done since it was made.
public struct RenderStatistics: Hashable, Sendable {
    /// Times a component's `draw` ran.
    public var draws = 0
    /// Requests served from the memory cache.
    public var memoryHits = 0
    /// Requests served from the disk store.
    public var diskHits = 0
    /// Requests not found in memory: each is then served from disk, drawn, or joins a draw.
    public var misses = 0
    /// Requests that waited on a draw another request had started.
    public var coalesced = 0
    /// Images evicted from the memory cache.
    public var evictions = 0
    /// Draws that threw.
    public var failures = 0
    /// Renders abandoned because every request for them was cancelled.
    public var cancellations = 0

    public init() {}
}
