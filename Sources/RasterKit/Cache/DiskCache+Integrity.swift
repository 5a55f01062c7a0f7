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

    /// Decodes a stored PNG and checks it against the entry's columns: pixel size, scale and
    /// cap insets. The checksum already vouches for the bytes; this guards the metadata chunks
    /// libpng would drop without a word if they were ever written wrong.
    func decodeChecked(_ stored: DiskCacheStore.StoredEntry) throws -> RasterImage {
        let image = try RasterImage(pngData: stored.png)
        guard image.pixelWidth == stored.pixelWidth, image.pixelHeight == stored.pixelHeight else {
            throw PNGError.corrupt(reason: "decoded \(image.pixelWidth)×\(image.pixelHeight) pixels, "
                + "stored as \(stored.pixelWidth)×\(stored.pixelHeight)")
        }
        guard Self.isClose(image.scale, stored.scale) else {
            throw PNGError.corrupt(reason: "decoded scale \(image.scale), stored as \(stored.scale)")
        }
        guard Self.areClose(image.capInsets, stored.capInsets) else {
            throw PNGError.corrupt(reason: "decoded cap insets \(image.capInsets.map { "\($0)" } ?? "none"), "
                + "stored as \(stored.capInsets.map { "\($0)" } ?? "none")")
        }
        return image
    }

    /// Equal up to the rounding of a number written as text in a PNG chunk.
    private static func isClose(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    private static func areClose(_ a: EdgeInsets?, _ b: EdgeInsets?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): isClose(a.top, b.top) && isClose(a.left, b.left) && isClose(a.bottom, b.bottom)
            && isClose(a.right, b.right)
        default: false
        }
    }
}
