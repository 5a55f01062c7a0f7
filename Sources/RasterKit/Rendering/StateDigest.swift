/// The digest of a component's type, render version and state (without a size or scale), for
/// components made of other components (``Processed``, ``Fallback``). A value-type component is
/// digested once, when the composite is made: the composite holds its own copy, which cannot
/// change, and a cached composite is then served as fast as a plain component. A class is
/// digested on every key, since its properties can change (and ``RasterHost`` observes them).
struct StateDigest: Sendable {
    private let snapshot: StableDigest?

    init<Component: Rasterizable>(of component: Component) {
        snapshot = Component.self is AnyClass ? nil : Self.compute(component)
    }

    /// The digest of `component`, the value this was made from.
    @inline(__always)
    func value<Component: Rasterizable>(for component: Component) -> StableDigest {
        snapshot ?? Self.compute(component)
    }

    private static func compute<Component: Rasterizable>(_ component: Component) -> StableDigest {
        // Constants for the size and scale: the composite's own key adds its real ones.
        ComponentKeyPlan.digest(of: component, size: Size(width: 1, height: 1), scale: 1)
    }
}
