/// The identity of one render: a 128-bit stable digest of the component's type, render
/// version, state, size and scale. Equal keys mean equal pixels; the digest is the same in
/// every process, so keys can name renders stored on disk.
///
/// `description` says what went into the key, to show why two renders did or did not share one:
///
/// ```
/// MyApp.Badge(count: 3, tint: #FF3B30) 24×24 pt @2x [9f2c41d0…]
/// ```
///
/// Types are identified by their fully qualified names; a `private` type by its file's private
/// discriminator and a function-local one by its context's linker symbol, so keys are the same
/// in debug and release builds, linked statically or not (see ``StateHashable``).
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The version of RasterKit's key and render format. Changing how keys are computed, or
    /// anything that changes the pixels of existing renders, bumps it, so no store ever
    /// serves renders made by another format.
    public static let formatVersion = 4

    /// The 128-bit digest.
    public let value: StableDigest
    /// The component's fully qualified type name.
    public let typeName: String
    /// The component type's render version when the key was made.
    public let renderVersion: Int
    /// The requested size in points, or nil for a nine-slice component drawn at its minimum
    /// frame, whose render does not depend on the size.
    public let size: Size?
    /// Pixels per point.
    public let scale: Double
    private let describeState: @Sendable () -> String

    init(value: StableDigest, typeName: String, renderVersion: Int, size: Size?, scale: Double,
         describeState: @escaping @Sendable () -> String) {
        self.value = value
        self.typeName = typeName
        self.renderVersion = renderVersion
        self.size = size
        self.scale = scale
        self.describeState = describeState
    }

    /// The digest as 32 hexadecimal digits.
    public var digest: String { value.hex }

    /// Each state key path with its value, as `name: value` pairs.
    public var stateDescription: String { describeState() }

    /// The type, the state as `name: value` pairs, the size, the scale and the digest's first
    /// 8 digits: `Badge(count: 3, tint: #D93B3B) 24×24 pt @2x [1f0c…]`.
    public var description: String {
        let shortType = typeName.split(separator: ".").last.map(String.init) ?? typeName
        let sizeText = size.map { "\($0) pt" } ?? "nine-slice (any size)"
        return "\(typeName.isEmpty ? shortType : typeName)(\(stateDescription)) \(sizeText) @\(scale.compactDescription)x "
            + "[\(digest.prefix(8))…]"
    }

    /// Keys are equal when their digests are; the description is not compared.
    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool { lhs.value == rhs.value }

    /// Hashes the digest.
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// Computes the key of `component` drawn at `size` points and `scale`, or throws
    /// ``StateKeyError`` when its state holds a value that cannot be keyed.
    package static func make<Component: Rasterizable>(for component: Component, size: Size, scale: Double) throws(StateKeyError) -> CacheKey {
        let plan = ComponentKeyPlan.shared(Component.self).takeUnretainedValue()
        let minimumFrame = component.capInsets != nil && component.usesMinimumFrameForCaps
        return CacheKey(value: try ComponentKeyPlan.digest(of: component, size: size, scale: scale), typeName: plan.typeName,
                        renderVersion: Component.renderVersion, size: minimumFrame ? nil : size, scale: scale) {
            zip(plan.propertyNames, Component.stateKeyPaths).map { name, keyPath in
                "\(name): \(component[keyPath: keyPath])"
            }.joined(separator: ", ")
        }
    }

    /// Only the digest of the key of `component` at `size` and `scale`: what a memory lookup
    /// needs, without the names and the description a full key carries.
    @inline(__always)
    static func digest<Component: Rasterizable>(for component: Component, size: Size, scale: Double) throws(StateKeyError) -> StableDigest {
        try ComponentKeyPlan.digest(of: component, size: size, scale: scale)
    }
}
