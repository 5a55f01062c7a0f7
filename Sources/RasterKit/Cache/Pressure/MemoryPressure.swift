/// How hard the machine (or the process's cgroup) is pressed for memory, and so how much of the
/// memory cache to give back.
public enum MemoryPressureLevel: String, Hashable, Sendable, CaseIterable {
    /// Memory is getting short (the cgroup went over `memory.high`, or tasks stall on memory):
    /// the memory cache evicts until it holds half of what it held, least recently used first.
    case warning
    /// Memory has run out (the cgroup hit `memory.max`, the OOM killer ran, or every task
    /// stalls on memory): the memory cache drops every image.
    case critical
}

extension MemoryCache {
    /// Gives memory back: evicts least recently used images down to half the bytes held for
    /// ``MemoryPressureLevel/warning``, all of them for ``MemoryPressureLevel/critical``.
    /// Evicted images count as evictions in ``statistics``. Returns the bytes freed.
    @discardableResult
    public func handleMemoryPressure(level: MemoryPressureLevel) -> Int {
        let before = totalCost
        switch level {
        case .warning: trim(toCost: before / 2)
        case .critical: trim(toCost: 0)
        }
        return max(0, before - totalCost)
    }
}

extension RasterCache {
    /// Gives the memory tier's memory back, as ``MemoryCache/handleMemoryPressure(level:)``
    /// does; the disk store is left alone. Caches made with `respondsToMemoryPressure` (the
    /// default) are called like this when the process's cgroup reports pressure; call it
    /// yourself for any other signal. Returns the bytes freed.
    @discardableResult
    public func handleMemoryPressure(level: MemoryPressureLevel) -> Int {
        memory.handleMemoryPressure(level: level)
    }

    /// The cgroup v2 files this process watches for memory pressure (`memory.pressure` with a
    /// PSI trigger, `memory.events`); empty when there is no cgroup v2 hierarchy or none of its
    /// files can be watched, and then only ``handleMemoryPressure(level:)`` trims the caches.
    public static var watchedMemoryPressureFiles: [String] { MemoryPressureMonitor.shared.sourceNames }
}
