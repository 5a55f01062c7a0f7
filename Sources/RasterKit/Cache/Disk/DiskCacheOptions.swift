import Foundation
internal import Logging

/// How a ``DiskCache`` batches, waits and logs. Internal: tests tune it; users get the defaults.
struct DiskCacheOptions: Sendable {
    /// Entries per write transaction.
    var batchSize = 64
    /// The longest an entry waits before its batch is written, in seconds.
    var batchInterval: TimeInterval = 0.25
    /// How long a statement waits for another connection's lock (another process writing)
    /// before failing with `SQLITE_BUSY`.
    var busyTimeout: TimeInterval = 5
    /// Pixel bytes of renders waiting for the writer beyond which new renders are not stored
    /// (and are counted as write failures), so a slow disk cannot make memory grow without bound.
    var maximumQueuedBytes = 256 << 20
    /// A hit is written to the LRU order only when the stored last access is at least this
    /// many seconds old, so hot entries do not rewrite their pages in every batch.
    var touchInterval: TimeInterval = 60
    /// Unix time in seconds: tests move it to expire entries without waiting.
    var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
    var logger = Logger(label: "RasterKit.DiskCache")
    /// Caps the database at this many pages, so tests can make writes fail as on a full disk.
    var maximumPageCount: Int?

    init() {}
}
