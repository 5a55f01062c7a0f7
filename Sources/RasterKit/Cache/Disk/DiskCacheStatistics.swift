import Foundation

/// What a ``DiskCache`` holds and what it has done. `count` and `totalBytes` describe the whole
/// store, whichever process wrote it; the counters are this process's, since the store was opened.
public struct DiskCacheStatistics: Hashable, Sendable, Codable {
    /// Entries in the store, expired ones included until they are pruned.
    public var count = 0
    /// Bytes of PNG data in the store.
    public var totalBytes = 0
    /// Entries past their expiry date, which lookups miss and `prune()` removes.
    public var expiredCount = 0
    /// Lookups served from the store (or from entries still waiting to be written).
    public var hits = 0
    /// Lookups that found nothing, or only an expired, outdated or undecodable entry.
    public var misses = 0
    /// Entries committed to the store.
    public var writes = 0
    /// Entries that could not be written (disk full, read-only store, lock held too long):
    /// logged and dropped; the renders themselves succeeded.
    public var writeFailures = 0
    /// Stored entries whose PNG did not decode; each was removed and counted as a miss.
    public var decodeFailures = 0
    /// Stored entries whose checksum did not match their key and PNG (damaged, or another
    /// entry's PNG): each was removed, counted as a miss, and drawn again.
    public var integrityFailures = 0
    /// Lookups that failed in SQLite (and were treated as misses).
    public var readFailures = 0
    /// Entries removed to keep the store within its byte limit.
    public var evictions = 0
    /// Entries handed to the writer and not yet committed.
    public var pendingWrites = 0

    /// Statistics with every count at zero.
    public init() {}
}

/// What a store holds, as ``DiskCache/contents(at:now:)`` reads it without opening it for writing.
public struct DiskCacheContents: Hashable, Sendable, Codable {
    /// Entries, expired ones included until they are pruned.
    public var count = 0
    /// Bytes of PNG data.
    public var totalBytes = 0
    /// Entries past their expiry date.
    public var expiredCount = 0
    /// Entries and bytes per component type, largest first.
    public var types: [DiskCacheTypeSummary] = []

    /// Contents with the given totals (an empty store by default).
    public init(count: Int = 0, totalBytes: Int = 0, expiredCount: Int = 0, types: [DiskCacheTypeSummary] = []) {
        self.count = count
        self.totalBytes = totalBytes
        self.expiredCount = expiredCount
        self.types = types
    }
}

/// What ``DiskCache/prune()`` removed.
public struct PruneReport: Hashable, Sendable, Codable {
    /// Entries past their expiry date.
    public var expired = 0
    /// Least recently used entries removed to get under the byte limit.
    public var evicted = 0
    /// PNG bytes removed in all.
    public var removedBytes = 0

    /// A report with the given counts (nothing removed by default).
    public init(expired: Int = 0, evicted: Int = 0, removedBytes: Int = 0) {
        self.expired = expired
        self.evicted = evicted
        self.removedBytes = removedBytes
    }

    /// Entries removed in all.
    public var removedCount: Int { expired + evicted }
}

/// How many entries, and how many bytes, one component type has in the store.
public struct DiskCacheTypeSummary: Hashable, Sendable, Codable {
    /// The component's fully qualified type name, as stored with each entry.
    public var typeName: String
    /// Entries of this type, expired ones included.
    public var count: Int
    /// Bytes of PNG data of this type's entries.
    public var totalBytes: Int

    /// A summary with the given totals.
    public init(typeName: String, count: Int, totalBytes: Int) {
        self.typeName = typeName
        self.count = count
        self.totalBytes = totalBytes
    }
}

/// The process-local counters behind ``DiskCacheStatistics``, shared by the cache and its writer.
final class DiskCacheCounters: Sendable {
    private let statistics = Lock(DiskCacheStatistics())

    func withLock<Result: Sendable>(_ body: (inout DiskCacheStatistics) -> Result) -> Result {
        statistics.withLock { body(&$0) }
    }

    var snapshot: DiskCacheStatistics { statistics.withLock { $0 } }
}
