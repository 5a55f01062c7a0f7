/// What a rasterizer has done since it was made.
public struct RenderStatistics: Hashable, Sendable {
    /// Times a component's `draw` ran.
    public var draws = 0
    /// Requests served from the memory cache.
    public var memoryHits = 0
    /// Requests served from the disk store.
    public var diskHits = 0
    /// Requests served from the remote store (a ``RasterCache`` made with `remote:`).
    public var remoteHits = 0
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
    /// Times a ``Fallback`` served its secondary component because its primary failed (now or
    /// within its retry interval).
    public var fallbacks = 0
    /// Types this process keys through `Mirror`, the slower fallback for values key plans
    /// cannot read in place (see ``StateHashable``); each is also logged at debug level under
    /// the label `RasterKit.Keys`. Counted for the whole process, not per rasterizer.
    public var mirrorFallbacks = 0
    /// What the memory cache holds, for debugging; filled in only by
    /// ``Rasterizer/statistics(listingMemory:)``, so that reading ``Rasterizer/statistics``
    /// stays a few additions.
    public var memoryEntries: [MemoryCacheEntryInfo] = []

    /// Statistics with every count at zero.
    public init() {}
}

/// The one owner of a rasterizer's counters. Every request bumps one or two of them, from many
/// threads at once, so each thread counts in a stripe of its own (see ``StripedCounters``) and
/// ``snapshot(evictions:)`` adds the stripes up.
final class RenderCounters: Sendable {
    enum Counter: Int, CaseIterable {
        case draws, memoryHits, diskHits, remoteHits, misses, coalesced, failures, cancellations, fallbacks
    }

    private let counters = StripedCounters(width: Counter.allCases.count)

    @inline(__always)
    func count(_ counter: Counter, by amount: Int = 1) { counters.add(amount, to: counter.rawValue) }

    /// The counts so far, with the memory cache's evictions.
    func snapshot(evictions: Int) -> RenderStatistics {
        var statistics = RenderStatistics()
        statistics.draws = counters.value(of: Counter.draws.rawValue)
        statistics.memoryHits = counters.value(of: Counter.memoryHits.rawValue)
        statistics.diskHits = counters.value(of: Counter.diskHits.rawValue)
        statistics.remoteHits = counters.value(of: Counter.remoteHits.rawValue)
        statistics.misses = counters.value(of: Counter.misses.rawValue)
        statistics.coalesced = counters.value(of: Counter.coalesced.rawValue)
        statistics.failures = counters.value(of: Counter.failures.rawValue)
        statistics.cancellations = counters.value(of: Counter.cancellations.rawValue)
        statistics.fallbacks = counters.value(of: Counter.fallbacks.rawValue)
        statistics.evictions = evictions
        statistics.mirrorFallbacks = KeyPlans.mirrorFallbacks
        return statistics
    }
}
