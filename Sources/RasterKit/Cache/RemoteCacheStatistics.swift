import Foundation

/// What a cache's remote tier has done since the cache was made.
public struct RemoteCacheStatistics: Hashable, Sendable, Codable {
    /// Lookups the remote store answered with a verified object.
    public var hits = 0
    /// Lookups it answered with nothing (`404`).
    public var misses = 0
    /// Lookups that failed (a timeout, a refused connection, a `5xx`): drawn instead.
    public var errors = 0
    /// Objects received that were not whole and intact objects of the key asked for (truncated,
    /// damaged, foreign, or not a PNG): never served, counted as misses too.
    public var rejected = 0
    /// Lookups not made because the circuit breaker was open.
    public var skipped = 0
    /// Renders uploaded.
    public var uploads = 0
    /// Uploads that failed, or were refused by a read-only store.
    public var uploadErrors = 0
    /// Renders not uploaded: the queue was full, the breaker open, or the store read-only.
    public var uploadsDropped = 0
    /// Whether the store refused an upload (`403`), so no more are tried.
    public var isReadOnly = false

    /// Statistics with every count at zero.
    public init() {}
}

/// The remote tier's counts, shared by its lookups and its uploader.
final class RemoteCounters: Sendable {
    private let state = SanitizerVisibleMutex(RemoteCacheStatistics())

    func withLock<Result: Sendable>(_ body: (inout RemoteCacheStatistics) -> Result) -> Result {
        state.withLock(body)
    }
}
