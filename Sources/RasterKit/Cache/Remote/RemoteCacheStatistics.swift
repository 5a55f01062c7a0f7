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
    /// Why lookups failed, as the store said (`HTTP 503`, `timed out`, a connection error), with
    /// how many times each: what a summary names when ``errors`` is not zero.
    public var lookupFailures: [String: Int] = [:]
    /// Why uploads failed (`HTTP 500`, `forbidden (HTTP 403)`, `timed out`), with how many
    /// times each; uploads dropped afterwards because the store kept failing count under
    /// ``uploadsDropped``.
    public var uploadFailures: [String: Int] = [:]

    /// Statistics with every count at zero.
    public init() {}

    /// Lookups made of the store: each is a hit, a miss or an error.
    public var lookups: Int { hits + misses + errors }

    /// Whether anything went wrong talking to the store: a lookup or an upload failed, or an
    /// upload was dropped.
    public var hasFailures: Bool { errors > 0 || uploadErrors > 0 || uploadsDropped > 0 }

    mutating func noteLookupError(_ error: any Error) {
        lookupFailures[Self.reason(error), default: 0] += 1
    }

    mutating func noteUploadError(_ error: RemoteStoreError) {
        uploadErrors += 1
        uploadFailures[error.description, default: 0] += 1
    }

    private static func reason(_ error: any Error) -> String {
        (error as? RemoteStoreError)?.description ?? "\(error)"
    }
}

/// The remote tier's counts, shared by its lookups and its uploader.
final class RemoteCounters: Sendable {
    private let state = Lock(RemoteCacheStatistics())

    func withLock<Result: Sendable>(_ body: (inout RemoteCacheStatistics) -> Result) -> Result {
        state.withLock(body)
    }
}
