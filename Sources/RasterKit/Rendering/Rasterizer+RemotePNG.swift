import Foundation

extension Rasterizer {
    /// The PNG the remote store holds for `key` when it is byte for byte what the encoder named
    /// `encoding` writes, kept in the disk store without being decoded, and counted as a remote
    /// hit; nil otherwise (then render as usual: an object in another encoding is already in
    /// memory). What a batch asks before rendering an output it writes as the render's own PNG.
    package func remotePNG(for key: CacheKey, encoding: String, expecting expected: ExpectedRender) -> Data? {
        guard let png = cache.remotePNG(for: key, encoding: encoding, expecting: expected) else { return nil }
        counters.count(.remoteHits)
        return png
    }
}
