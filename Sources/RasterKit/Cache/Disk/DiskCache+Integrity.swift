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

    /// Decodes a stored PNG once its columns and its header match what the key's render must be
    /// (`expected`: pixel size, scale, cap insets, the pixel limits), and checks the pixels
    /// against the columns. The checksum vouches for the bytes against damage, not against a
    /// store written by someone else (an imported file), so nothing of an entry is trusted
    /// before it is known to be the key's render: a forged 16384² PNG under a 24-point key is
    /// never decoded.
    func decodeChecked(_ stored: DiskCacheStore.StoredEntry, expecting expected: ExpectedRender) throws -> RasterImage {
        let columns = StoredRenderGeometry(pixelWidth: stored.pixelWidth, pixelHeight: stored.pixelHeight, scale: stored.scale,
                                           capInsets: stored.capInsets)
        if let mismatch = expected.mismatch(columns) { throw PNGError.corrupt(reason: "stored as \(mismatch)") }
        let image = try expected.decode(stored.png)
        guard image.pixelWidth == stored.pixelWidth, image.pixelHeight == stored.pixelHeight else {
            throw PNGError.corrupt(reason: "decoded \(image.pixelWidth)×\(image.pixelHeight) pixels, "
                + "stored as \(stored.pixelWidth)×\(stored.pixelHeight)")
        }
        guard ExpectedRender.isClose(image.scale, stored.scale) else {
            throw PNGError.corrupt(reason: "decoded scale \(image.scale), stored as \(stored.scale)")
        }
        guard ExpectedRender.areClose(image.capInsets, stored.capInsets) else {
            throw PNGError.corrupt(reason: "decoded cap insets \(image.capInsets.map { "\($0)" } ?? "none"), "
                + "stored as \(stored.capInsets.map { "\($0)" } ?? "none")")
        }
        return image
    }
}
