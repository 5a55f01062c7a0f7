/// The digest of a component's type, render version and state (without a size or scale), for
/// components made of other components (``Processed``, ``Fallback``). A value-type component is
/// digested once, when the composite is made: the composite holds its own copy, which cannot
/// change, and a cached composite is then served as fast as a plain component. A class is
/// digested on every key, since its properties can change (and ``RasterHost`` observes them).
struct StateDigest: Sendable {
    private let snapshot: Result<StableDigest, KeyFault>?

    init<Component: Rasterizable>(of component: Component) {
        snapshot = Component.self is AnyClass ? nil : ComponentKeyPlan.stateDigest(of: component)
    }

    /// Writes the digest of `component`, the value this was made from; a state that cannot be
    /// keyed refuses the composite's key too.
    @inline(__always)
    func write<Component: Rasterizable>(for component: Component, into hasher: inout StateHasher) {
        switch snapshot ?? ComponentKeyPlan.stateDigest(of: component) {
        case .success(let digest):
            hasher.write(digest.high)
            hasher.write(digest.low)
        case .failure(let fault):
            hasher.fail(fault)
        }
    }
}
