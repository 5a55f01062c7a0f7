import Foundation

/// How ``RasterCache`` uses its remote store: when to stop asking it, and how much may wait to
/// be uploaded.
public struct RemoteCacheOptions: Sendable {
    /// Faults in a row (timeouts, refused connections, `5xx`) after which the store is not asked
    /// for `retryInterval` seconds. Default 1: a store that never answers costs one timeout.
    public var failureThreshold = 1
    /// Seconds before a store that failed is asked again (default 30); each failed retry doubles
    /// it, up to `maximumRetryInterval` (default 600).
    public var retryInterval: Double = 30
    /// The longest wait between retries, in seconds.
    public var maximumRetryInterval: Double = 600
    /// Renders waiting to be uploaded, at most (default 1024); more are not uploaded.
    public var maximumQueuedUploads = 1024
    /// Bytes of pixels waiting to be uploaded, at most (default 128 MiB).
    public var maximumQueuedBytes = 128 << 20
    /// Objects sent to the store in one batch (default 16): the uploader's requests in flight.
    public var uploadBatchSize = 16
    /// Seconds a fresh render waits before it is uploaded (default 0.05), so that a batch can
    /// hand over the PNG it writes for it: other machines then copy those exact bytes instead of
    /// decoding and encoding again. 0 uploads at once, with the quick encoding.
    public var uploadDelay: Double = 0.05

    /// Objects asked for at once when a run fetches the renders it is about to look up (default
    /// 32): what hides the store's round trips. 1 asks one at a time.
    public var prefetchWindow = 32
    /// Bytes of fetched objects held until their lookups claim them, at most (default 64 MiB);
    /// past that the oldest are dropped, and their lookups ask the store again.
    public var maximumPrefetchedBytes = 64 << 20

    /// A secret shared by the machines that use the store: objects are signed with it
    /// (HMAC-SHA-256 of their name and bytes) and only objects it signed are read, so a store
    /// others can write to cannot hand this cache a render it did not make. Nil (the default)
    /// signs nothing and trusts whoever may write to the store. The command line reads it from
    /// `RASTERKIT_REMOTE_CACHE_KEY`.
    public var signingKey: Data?

    /// The defaults.
    public init() {}
}
