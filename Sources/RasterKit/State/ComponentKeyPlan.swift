import Synchronization

/// Everything about a component type that its cache keys need and that never changes: its
/// names, a hasher already seeded with the type header, and one writer per state key path.
final class ComponentKeyPlan<Component: Rasterizable>: Sendable {
    typealias Writer = @Sendable (Component, inout StateHasher) -> Void

    /// The readable, fully qualified type name.
    let typeName: String
    /// A hasher that has absorbed the format version, type identity and render version.
    let seed: StateHasher
    let writers: [Writer]
    /// Each key path's property name, for descriptions.
    let propertyNames: [String]

    private init() {
        typeName = TypeIdentity.stableName(of: Component.self)
        ComponentVersions.record(Component.self)
        var seed = StateHasher()
        seed.write(tag: .header)
        seed.write(UInt64(CacheKey.formatVersion))
        seed.write(ReflectionPlan.stableTypeID(Component.self))
        seed.write(Component.renderVersion)
        let keyPaths = Component.stateKeyPaths
        seed.write(keyPaths.count)
        self.seed = seed
        writers = keyPaths.map { ComponentKeyPlan.writer(for: $0) }
        let prefix = "\\" + String(describing: Component.self) + "."
        propertyNames = keyPaths.map { keyPath in
            let text = String(describing: keyPath)
            return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        }
    }

    /// The plan for `Component`, made on first use.
    static var shared: ComponentKeyPlan<Component> {
        let identifier = ObjectIdentifier(Component.self)
        if let plan = _plans.withLock({ $0[identifier] }) as? ComponentKeyPlan<Component> { return plan }
        let plan = ComponentKeyPlan<Component>()
        _plans.withLock { $0[identifier] = plan }
        return plan
    }

    /// Chooses, once per key path, the fastest way to write its value: directly for
    /// ``StateHashable`` values, through the reflection walker otherwise.
    private static func writer(for keyPath: PartialKeyPath<Component> & Sendable) -> Writer {
        func typed<Value>(_: Value.Type) -> Writer {
            guard let typed = keyPath as? KeyPath<Component, Value> else {
                let erased = SendableBox(keyPath)
                return { component, hasher in StateWalker.walk(component[keyPath: erased.value], into: &hasher) }
            }
            if let hashable = Value.self as? any StateHashable.Type {
                return hashableWriter(hashable, keyPath: typed)
            }
            let box = SendableBox(typed)
            return { component, hasher in StateWalker.walk(component[keyPath: box.value], into: &hasher) }
        }
        return _openExistential(type(of: keyPath).valueType, do: typed)
    }

    private static func hashableWriter<Value: StateHashable, Stored>(
        _: Value.Type, keyPath: KeyPath<Component, Stored>
    ) -> Writer {
        guard let exact = keyPath as? KeyPath<Component, Value> else {
            let box = SendableBox(keyPath)
            return { component, hasher in StateWalker.walk(component[keyPath: box.value], into: &hasher) }
        }
        let box = SendableBox(exact)
        return { component, hasher in component[keyPath: box.value].hashState(into: &hasher) }
    }
}

private let _plans = SanitizerVisibleMutex<[ObjectIdentifier: any Sendable]>([:])

/// Carries a key path the protocol declared `Sendable` through a cast that drops the marker.
private struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
