/// The render version of every component type this process knows, by type name: the types whose
/// cache keys it has computed, and any registered up front. The disk store treats a stored render
/// as outdated when a component drawn inside it is known here at another version.
///
/// Only known types can be checked, and a type becomes known when its first key is computed,
/// which for a nested child happens only when its parent draws. Register child types at start-up
/// so that a parent stored by an older build is redrawn rather than served:
///
/// ```swift
/// ComponentVersions.register(Icon.self, Badge.self)
/// ```
public enum ComponentVersions {
    /// Makes `types` known, with their current render versions.
    public static func register(_ types: any Rasterizable.Type...) {
        for type in types { record(type) }
    }

    /// Makes `Component` known with its current render version; every key plan calls it.
    static func record<Component: Rasterizable>(_: Component.Type) {
        let version = Component.renderVersion
        // The stable name, which both keys and nested canvases record types by.
        let name = TypeIdentity.stableName(of: Component.self)
        versions.withLock { $0[name] = version }
    }

    /// The current render version of the type named `typeName`, or nil when this process does
    /// not know the type.
    public static func renderVersion(of typeName: String) -> Int? {
        versions.withLock { $0[typeName] }
    }

    /// Whether any of `children` is known here at a render version other than the one recorded.
    static func containsOutdated(_ children: [ComponentVersion]) -> Bool {
        guard !children.isEmpty else { return false }
        return versions.withLock { known in
            children.contains { child in known[child.typeName].map { $0 != child.renderVersion } ?? false }
        }
    }

    private static let versions = Lock<[String: Int]>([:])
}
