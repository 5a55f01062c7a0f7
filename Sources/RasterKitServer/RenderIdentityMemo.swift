import RasterKit
import Synchronization

/// What a request resolves to before anything is drawn: its key's digest, its tag identity and
/// whether it stretches a nine-slice render.
struct RenderIdentity: Sendable {
    /// The render key's digest (`X-RasterKit-Key`).
    let keyDigest: String
    /// What the ETag and the encoded-response cache name: the digest, and for a stretched
    /// nine-slice render the size and scale too.
    let identity: String
    let stretches: Bool

    /// Throws ``StateKeyError`` for a component whose state cannot be keyed.
    init<Component: Rasterizable>(_ component: Component, size: Size, scale: Double, rasterizer: Rasterizer) throws(StateKeyError) {
        let key = try rasterizer.cacheKey(for: component, size: size, scale: scale)
        // A nine-slice component's key leaves out the size (one render serves every size); its
        // responses are stretched, so their tag names the size as well.
        stretches = component.capInsets != nil && component.usesMinimumFrameForCaps
        keyDigest = key.digest
        identity = stretches ? "\(key.digest)-\(RenderQuery.format(size))@\(scale)" : key.digest
    }
}

/// Render identities by request (route, names, size, scale, tint), for one catalog: hashing a
/// component's layer tree costs more than serving a warm hit, so a request seen before skips it.
/// The catalog is replaced on every change, and this memo with it, so it is never stale; it is
/// emptied when full rather than grown, so many distinct requests cannot exhaust memory.
final class RenderIdentityMemo: Sendable {
    private let entries = Mutex<[String: RenderIdentity]>([:])
    private let limit: Int

    init(limit: Int = 65_536) { self.limit = limit }

    func identity(for request: String) -> RenderIdentity? { entries.withLock { $0[request] } }

    func store(_ identity: RenderIdentity, for request: String) {
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[request] = identity
        }
    }
}
