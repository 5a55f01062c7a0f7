import Foundation
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
    private let describedNames = SanitizerVisibleMutex<[String]?>(nil)

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
    }

    /// Each key path's property name, for descriptions. Worked out on the first description
    /// rather than with the plan: describing types and key paths makes the runtime search every
    /// protocol conformance in the binary the first time, which a run served from the cache
    /// never needs.
    var propertyNames: [String] {
        describedNames.withLock { names in
            if let names { return names }
            let prefix = "\\" + String(describing: Component.self) + "."
            let made = Component.stateKeyPaths.map { keyPath in
                let text = String(describing: keyPath)
                return Self.withoutAddresses(text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
            }
            names = made
            return made
        }
    }

    /// The runtime describes a computed property by its getter's address, `<computed 0x… (Type)>`,
    /// which differs between processes; descriptions keep only `<computed Type>`.
    private static func withoutAddresses(_ name: String) -> String {
        var result = name
        while let start = result.range(of: "<computed 0x"),
              let space = result[start.upperBound...].firstIndex(of: " ") {
            result.replaceSubrange(start.lowerBound...space, with: "<computed ")
        }
        return result.replacingOccurrences(of: "<computed (", with: "<computed ").replacingOccurrences(of: ")>", with: ">")
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
            if let hashable = Value.self as? any StateHashable.Type {
                return hashableWriter(hashable, for: keyPath)
            }
            guard let read = reader(for: keyPath, as: Value.self) else { return walkingWriter(for: keyPath) }
            return { component, hasher in StateWalker.walk(read(component), into: &hasher) }
        }
        return _openExistential(type(of: keyPath).valueType, do: typed)
    }

    private static func hashableWriter<Value: StateHashable>(
        _: Value.Type, for keyPath: PartialKeyPath<Component> & Sendable
    ) -> Writer {
        guard let read = reader(for: keyPath, as: Value.self) else { return walkingWriter(for: keyPath) }
        return { component, hasher in read(component).hashState(into: &hasher) }
    }

    /// Reads the value `keyPath` names, or nil when it is not a key path to a `Value`. A stored
    /// property of a struct is read at its offset: projecting a key path through generic code
    /// looks up runtime metadata on every call, which costs more than all the hashing of a
    /// typical key.
    private static func reader<Value>(for keyPath: PartialKeyPath<Component> & Sendable,
                                      as _: Value.Type) -> (@Sendable (Component) -> Value)? {
        guard let typed = keyPath as? KeyPath<Component, Value> else { return nil }
        if let offset = MemoryLayout<Component>.offset(of: typed) {
            return { component in
                withUnsafePointer(to: component) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self) }
            }
        }
        let box = SendableBox(typed)
        return { component in component[keyPath: box.value] }
    }

    /// Walks whatever `keyPath` yields, for a key path whose value type could not be named.
    private static func walkingWriter(for keyPath: PartialKeyPath<Component> & Sendable) -> Writer {
        let erased = SendableBox(keyPath)
        return { component, hasher in StateWalker.walk(component[keyPath: erased.value], into: &hasher) }
    }
}

private let _plans = SanitizerVisibleMutex<[ObjectIdentifier: any Sendable]>([:])

/// Carries a key path the protocol declared `Sendable` through a cast that drops the marker.
private struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
