import Foundation

/// A render a store handed back and the cache checked: the key's render, decoded.
struct VerifiedRender: Sendable {
    let image: RasterImage
    let children: [ComponentVersion]
}

extension RenderStore {
    /// The render stored for `key`, checked against the key's scale and the default pixel
    /// limits and decoded, or nil for a miss. One that fails the check is discarded.
    public func image(for key: CacheKey) -> RasterImage? {
        verifiedRender(for: key, expecting: ExpectedRender(key: key))?.image
    }

    /// Keeps `image` under `key` for `lifetime` seconds (nil: the store's default).
    public func store(_ image: RasterImage, for key: CacheKey, lifetime: TimeInterval? = nil) {
        store(StoredRender(image: image), for: key, lifetime: lifetime)
    }

    /// The render stored for `key` once it is known to be what the key's render must be
    /// (`expected`), decoded under its limits, and drawn with the current render version of
    /// every component inside it that this process knows; nil for a miss. The one place stored
    /// pixels come from: a render that is not the key's is discarded before anything of it is used.
    func verifiedRender(for key: CacheKey, expecting expected: ExpectedRender) -> VerifiedRender? {
        guard let stored = storedRender(for: key) else { return nil }
        if ComponentVersions.containsOutdated(stored.children) {
            discard(stored, for: key, reason: "drawn with an older render version of a component inside it")
            return nil
        }
        do {
            return VerifiedRender(image: try expected.image(from: stored), children: stored.children)
        } catch {
            discard(stored, for: key, reason: "\(error)")
            return nil
        }
    }
}
