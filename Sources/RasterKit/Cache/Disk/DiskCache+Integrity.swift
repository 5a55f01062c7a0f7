import Foundation
internal import Logging

extension DiskCache {
    /// Whether a stored entry's checksum matches its key and its PNG. A mismatch (a flipped bit
    /// in the blob, a blob moved to another row) is deleted, logged once, and counted as a miss,
    /// so the render is drawn again and replaced. Entries written before checksums existed are
    /// redrawn the same way, quietly: nothing is wrong with them but they cannot be trusted.
    func hasIntegrity(_ stored: DiskCacheStore.StoredEntry, for key: CacheKey) -> Bool {
        let actual = DiskCacheChecksum.of(digest: key.value, png: stored.png)
        guard stored.checksum != actual else { return true }
        if stored.checksum == nil {
            options.logger.debug("redrawing a stored render written without a checksum", metadata: ["key": "\(key)"])
            counters.withLock { $0.misses += 1 }
        } else {
            options.logger.warning("removing a stored render whose checksum does not match its key and PNG",
                                   metadata: ["key": "\(key)"])
            counters.withLock { $0.integrityFailures += 1; $0.misses += 1 }
        }
        writer.delete(DiskCacheDeletion(digest: key.value, created: stored.created))
        return false
    }
}
