import Foundation
internal import Logging

extension DiskCache {
    /// Writes every render handed to the cache so far, and returns once they are committed.
    /// Throws the first write failure since the previous flush (the renders themselves were
    /// served; they are just not on disk).
    public func flush() throws {
        // A closed cache wrote everything when it closed.
        guard (try? checkOpen(.write)) != nil else { return }
        try writer.flush()
    }

    /// Starts writing every render and last use handed to the cache so far, on the cache's
    /// writer, and returns at once; a later ``flush()`` waits for what is left. A batch calls it
    /// as soon as its workers finish, so that these writes (on a warm run, the last use of every
    /// render it served) overlap saving its index and publishing its folder instead of following
    /// them.
    public func startWriting() {
        guard (try? checkOpen(.write)) != nil else { return }
        writer.startDraining()
    }

    /// Writes everything pending and closes the database. Lookups then miss, stores are
    /// dropped, and the other methods throw. Called by deinit; closing twice does nothing.
    public func close() throws {
        guard markClosed() else { return }
        let failure = writer.close()
        try store.close()
        if let failure { throw failure }
    }

    /// Removes expired entries, then least recently used ones until the store is within
    /// `byteLimit`, and gives the freed pages back to the file system.
    @discardableResult
    public func prune() throws -> PruneReport {
        try checkOpen(.write)
        let report = try writer.exclusively { try store.prune(byteLimit: byteLimit, now: options.clock()) }
        counters.withLock { $0.evictions += report.removedCount }
        return report
    }

    /// Metadata of every entry of the component type named `typeName` (as in
    /// ``CacheKey/typeName``), oldest first. Pending renders are written first.
    public func entries(typeName: String) throws -> [DiskCacheEntryInfo] {
        try checkOpen(.read)
        writer.exclusively {}
        return try store.entries(typeName: typeName)
    }

    /// Metadata of every entry created more than `age` seconds ago, oldest first.
    public func entries(olderThan age: TimeInterval) throws -> [DiskCacheEntryInfo] {
        try checkOpen(.read)
        writer.exclusively {}
        return try store.entries(createdBefore: options.clock() - age)
    }

    /// Entries and bytes per component type, largest first.
    public func typeSummaries() throws -> [DiskCacheTypeSummary] {
        try checkOpen(.read)
        return try store.typeSummaries()
    }

    /// Removes every entry, pending ones included; returns how many were stored.
    @discardableResult
    public func removeAll() throws -> Int {
        try checkOpen(.write)
        return try writer.exclusively {
            writer.discardUnwritten { _ in true }
            return try store.removeAll()
        }
    }

    /// The store's size (all processes' entries) and this process's counters.
    public var statistics: DiskCacheStatistics {
        get throws {
            try checkOpen(.read)
            let totals = try store.totals(now: options.clock())
            var statistics = counters.snapshot
            statistics.count = totals.count
            statistics.totalBytes = totals.bytes
            statistics.expiredCount = totals.expired
            statistics.pendingWrites = writer.pendingCount
            return statistics
        }
    }
}
