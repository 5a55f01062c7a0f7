import Foundation
internal import Logging

/// The bytes a batch wrote to its files, kept with the renders they were made from.
///
/// A batch into a folder that has none of its outputs yet (a CI job on a fresh checkout with the
/// store restored) would otherwise decode every stored PNG and encode it again, only to write
/// the same bytes the last run wrote: most of such a run's time went to zlib. Instead, a batch
/// hands the store what it wrote — the render's own PNG, which then replaces the store's quicker
/// encoding, or a file made from the render (a nine-patch with its marker border) — named by the
/// encoder's identifier; the next run asks for those bytes and copies them. Either way the bytes
/// are checksummed with the key, and an entry that fails its checksum is drawn again, never copied.
extension DiskCache {
    /// What a batch wrote to a file for the render of `key` with the encoder named `encoding`, or
    /// nil when the store holds no such bytes (then the caller renders as usual). Counts a hit when
    /// it answers; a missing entry counts a miss, like ``pngData(for:)``. Bytes `accepting`
    /// refuses (not the render the key names: an image of another size, from a store someone else
    /// wrote) are removed with their entry and answered as a miss.
    package func encodedOutput(for key: CacheKey, encoding: String, accepting isRender: (Data) -> Bool = { _ in true }) -> Data? {
        let now = options.clock()
        if let pending = writer.unwrittenEntry(for: key.value), pending.expires > now {
            guard pending.pngEncoding == encoding, let png = pending.png, isRender(png) else { return nil }
            counters.withLock { $0.hits += 1 }
            return png
        }
        guard let (stored, _) = servableEntry(for: key, now: now) else { return nil }
        let bytes: Data
        if stored.pngEncoding == encoding {
            bytes = stored.png
        } else {
            guard let kept = keptOutput(for: key, encoding: encoding) else { return nil }
            bytes = kept
        }
        guard isRender(bytes) else {
            options.logger.warning("removing a stored render whose bytes are not the render its key names",
                                   metadata: ["key": "\(key)", "encoding": "\(encoding)"])
            counters.withLock { $0.integrityFailures += 1; $0.misses += 1 }
            writer.delete(DiskCacheDeletion(digest: key.value, created: stored.created))
            return nil
        }
        counters.withLock { $0.hits += 1 }
        touch(key, stored, now: now)
        return bytes
    }

    /// Keeps `bytes`, what a batch wrote to a file for the render of `key` with the encoder named
    /// `encoding`. `isRenderPNG`: the bytes are a PNG of exactly the render's pixels, with its
    /// scale and caps (RasterKit's PNG encoder), which the entry then stores instead of its own
    /// encoding; otherwise they are kept beside the entry and go with it. Returns at once; the
    /// writer stores them with its next batch, and drops them when the entry is not stored.
    package func keepEncodedOutput(_ bytes: Data, encoding: String, isRenderPNG: Bool, for key: CacheKey) {
        guard !isClosed.withLock({ $0 }) else { return }
        if isRenderPNG, writer.adoptEncoding(bytes, encoding: encoding, for: key.value) { return }
        let checksum = isRenderPNG ? DiskCacheChecksum.of(digest: key.value, png: bytes)
            : DiskCacheChecksum.of(digest: key.value, encoding: encoding, bytes: bytes)
        writer.keep(DiskCacheEncodedOutput(digest: key.value, encoding: encoding, bytes: bytes, checksum: checksum,
                                           isRenderPNG: isRenderPNG))
    }

    /// The bytes kept beside the entry of `key` for `encoding`, checked against their checksum;
    /// damaged ones are removed and answered as a miss.
    private func keptOutput(for key: CacheKey, encoding: String) -> Data? {
        let kept: (checksum: Int64, bytes: Data)?
        do { kept = try store.encodedOutput(for: key.value, encoding: encoding) } catch {
            options.logger.debug("cannot read a kept output; rendering instead", metadata: ["error": "\(error)"])
            return nil
        }
        guard let kept else { return nil }
        guard kept.checksum == DiskCacheChecksum.of(digest: key.value, encoding: encoding, bytes: kept.bytes) else {
            options.logger.warning("removing a kept output whose checksum does not match its key and bytes",
                                   metadata: ["key": "\(key)", "encoding": "\(encoding)"])
            counters.withLock { $0.integrityFailures += 1 }
            writer.forgetEncodedOutput(digest: key.value, encoding: encoding)
            return nil
        }
        return kept.bytes
    }
}

/// Bytes a batch wrote to a file, on their way to the store (see `DiskCache.keepEncodedOutput`).
struct DiskCacheEncodedOutput: Sendable {
    let digest: StableDigest
    /// The encoder's identifier.
    let encoding: String
    let bytes: Data
    let checksum: Int64
    /// Whether the bytes replace the entry's own PNG rather than being kept beside it.
    let isRenderPNG: Bool
}
