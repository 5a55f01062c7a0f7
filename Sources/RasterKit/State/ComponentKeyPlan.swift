import Foundation

/// Everything about a component type that its cache keys need and that never changes: its
/// names, a hasher already seeded with the type header, and for each state key path where its
/// value lies and the plan that writes it. Made once per component type and found without a
/// lock afterwards.
///
/// Not generic, on purpose: generic code instantiates the metadata of the generic types it
/// touches on every call, a hash-table lookup in the runtime that costs as much as the rest of
/// a key. Only ``digest(of:size:scale:)`` knows the component's type.
final class ComponentKeyPlan: @unchecked Sendable {
    /// How one state key path's value is written: read at its offset inside the component (a
    /// stored property, however deeply nested in structs), or through the key path.
    private struct Step {
        /// The value's offset in the component, or -1 to read it through `read`.
        let offset: Int
        let plan: PlanRef
        let read: (@Sendable (UnsafeRawPointer, inout StateHasher) -> Void)?
    }

    /// The readable, fully qualified type name.
    let typeName: String
    /// A hasher that has absorbed the format version, type identity and render version.
    private let seed: StateHasher
    private let steps: UnsafeBufferPointer<Step>
    private let makePropertyNames: @Sendable () -> [String]
    private let describedNames = SanitizerVisibleMutex<[String]?>(nil)

    private init<Component: Rasterizable>(_: Component.Type) {
        typeName = TypeIdentity.stableName(of: Component.self)
        ComponentVersions.record(Component.self)
        var seed = StateHasher()
        seed.write(tag: .header)
        seed.write(UInt64(CacheKey.formatVersion))
        seed.write(TypeIdentity.stableID(of: Component.self))
        seed.write(Component.renderVersion)
        let keyPaths = Component.stateKeyPaths
        seed.write(keyPaths.count)
        self.seed = seed
        let steps = UnsafeMutableBufferPointer<Step>.allocate(capacity: keyPaths.count)
        _ = steps.initialize(from: keyPaths.map { Self.step(for: $0) })
        self.steps = UnsafeBufferPointer(steps)
        makePropertyNames = { Self.propertyNames(of: Component.self) }
    }

    deinit {
        UnsafeMutableBufferPointer(mutating: steps).deinitialize().deallocate()
    }

    /// The plan for `Component`, made on first use; unmanaged, since it lives for the whole
    /// process and retaining it on every key would make threads share a cache line.
    @inline(__always)
    static func shared<Component: Rasterizable>(_: Component.Type) -> Unmanaged<ComponentKeyPlan> {
        if let plan = componentPlans.value(for: Component.self) { return plan }
        return componentPlans.add(ComponentKeyPlan(Component.self), for: Component.self)
    }

    /// The digest of `component` at `size` and `scale`.
    @inline(__always)
    static func digest<Component: Rasterizable>(of component: Component, size: Size, scale: Double) -> StableDigest {
        let caps = component.capInsets
        let minimumFrame = caps != nil && component.usesMinimumFrameForCaps
        return shared(Component.self)._withUnsafeGuaranteedRef { plan in
            withUnsafePointer(to: component) { base in
                plan.digest(ofComponentAt: UnsafeRawPointer(base), capInsets: caps, minimumFrame: minimumFrame,
                            size: size, scale: scale)
            }
        }
    }

    private func digest(ofComponentAt base: UnsafeRawPointer, capInsets caps: EdgeInsets?, minimumFrame: Bool,
                        size: Size, scale: Double) -> StableDigest {
        var hasher = seed
        for step in steps {
            if step.offset >= 0 {
                step.plan.write(base + step.offset, into: &hasher, depth: 0)
            } else if let read = step.read {
                read(base, &hasher)
            }
        }
        if let caps {
            hasher.write(tag: minimumFrame ? .minimumFrame : .capInsets)
            hasher.write(caps.top)
            hasher.write(caps.left)
            hasher.write(caps.bottom)
            hasher.write(caps.right)
        }
        if !minimumFrame {
            hasher.write(tag: .size)
            hasher.write(size.width)
            hasher.write(size.height)
        }
        hasher.write(tag: .scale)
        hasher.write(scale)
        return hasher.digest
    }

    /// Each key path's property name, for descriptions. Worked out on the first description
    /// rather than with the plan: describing types and key paths makes the runtime search every
    /// protocol conformance in the binary the first time, which a run served from the cache
    /// never needs.
    var propertyNames: [String] {
        describedNames.withLock { names in
            if let names { return names }
            let made = makePropertyNames()
            names = made
            return made
        }
    }

    private static func propertyNames<Component: Rasterizable>(of _: Component.Type) -> [String] {
        let prefix = "\\" + String(describing: Component.self) + "."
        return Component.stateKeyPaths.map { keyPath in
            let text = String(describing: keyPath)
            return withoutAddresses(text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
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

    /// Chooses, once per key path, how its value is found and which plan writes it. A stored
    /// property of a struct is read at its offset: projecting a key path through generic code
    /// looks up runtime metadata on every call, which costs more than all the hashing of a
    /// typical key.
    private static func step<Component: Rasterizable>(for keyPath: PartialKeyPath<Component> & Sendable) -> Step {
        func typed<Value>(_: Value.Type) -> Step {
            let plan = PlanRef(KeyPlans.plan(for: Value.self))
            guard let typed = keyPath as? KeyPath<Component, Value> else {
                // A key path whose value type could not be named: its value is read as `Any`.
                let erased = SendableBox(keyPath)
                return Step(offset: -1, plan: plan) { base, hasher in
                    let component = base.assumingMemoryBound(to: Component.self).pointee
                    KeyPlans.write(dynamic: component[keyPath: erased.value], into: &hasher, depth: 0)
                }
            }
            if let offset = MemoryLayout<Component>.offset(of: typed) { return Step(offset: offset, plan: plan, read: nil) }
            let box = SendableBox(typed)
            return Step(offset: -1, plan: plan) { base, hasher in
                let value = base.assumingMemoryBound(to: Component.self).pointee[keyPath: box.value]
                withUnsafePointer(to: value) { plan.write(UnsafeRawPointer($0), into: &hasher, depth: 0) }
            }
        }
        return _openExistential(type(of: keyPath).valueType, do: typed)
    }
}

/// Component plans by component type; read without a lock.
private let componentPlans = TypeTable<ComponentKeyPlan>()

/// Carries a key path the protocol declared `Sendable` through a cast that drops the marker.
private struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
