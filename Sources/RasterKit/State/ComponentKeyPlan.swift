import Foundation
import Observation

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
    private let describedNames = Lock<[String]?>(nil)
    /// A value the component's state reaches that cannot be keyed, found when the plan is made:
    /// every key of the component is then refused, before any value is read.
    private let refusal: KeyFailure?
    /// Whether a key reads an `@Observable` object's stored properties directly, which
    /// observation tracking does not see (``RasterHost`` then tracks a draw instead).
    let readsObservableStorage: Bool

    /// Where a key failed: the fault, the step whose value holds it, and the properties below
    /// that step's key path that lead to it (when known).
    private struct KeyFailure: Error {
        let fault: KeyFault
        let step: Int
        let path: String
    }

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
        refusal = Self.findRefusal(in: UnsafeBufferPointer(steps))
        readsObservableStorage = Self.reachesObservableObject(from: UnsafeBufferPointer(steps))
    }

    private static func reachesObservableObject(from steps: UnsafeBufferPointer<Step>) -> Bool {
        var searched: Set<ObjectIdentifier> = []
        func search(_ plan: PlanRef) -> Bool {
            guard searched.insert(plan.identity).inserted else { return false }
            return plan.withPlan { typePlan in
                (typePlan is ObjectPlan && typePlan.type is any Observable.Type) || typePlan.parts.contains { search($0.plan) }
            }
        }
        return steps.contains { search($0.plan) }
    }

    /// The first refused plan any step reaches through the plans its values are written with
    /// (not through existentials or conformances, whose types are known only at run time), and
    /// the properties leading to it.
    private static func findRefusal(in steps: UnsafeBufferPointer<Step>) -> KeyFailure? {
        var searched: Set<ObjectIdentifier> = []
        func search(_ plan: PlanRef, path: String) -> (String, KeyFault)? {
            guard searched.insert(plan.identity).inserted else { return nil }
            return plan.withPlan { typePlan in
                if let refused = typePlan as? RefusedPlan { return (path, KeyFault(kind: .refused, plan: PlanRef(refused))) }
                for part in typePlan.parts {
                    if let found = search(part.plan, path: path + part.label) { return found }
                }
                return nil
            }
        }
        for (index, step) in steps.enumerated() {
            if let (path, fault) = search(step.plan, path: "") { return KeyFailure(fault: fault, step: index, path: path) }
        }
        return nil
    }

    /// The error for a failure: the key path is the component's, then the properties below it.
    private func error(for failure: KeyFailure) -> StateKeyError {
        let names = propertyNames
        let name = failure.step < names.count ? names[failure.step] : "self"
        // `\Card.self` is the whole value: its properties follow the root directly.
        let root = "\\" + TypeIdentity.shortName(of: typeName) + (name == "self" ? "" : "." + name)
        return failure.fault.error(keyPath: root + failure.path)
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

    /// The digest of `component` at `size` and `scale`, or ``StateKeyError`` when its state
    /// holds a value that cannot be keyed.
    @inline(__always)
    static func digest<Component: Rasterizable>(of component: Component, size: Size, scale: Double) throws(StateKeyError) -> StableDigest {
        let caps = component.capInsets
        let minimumFrame = caps != nil && component.usesMinimumFrameForCaps
        let plan = shared(Component.self)
        let result = plan._withUnsafeGuaranteedRef { plan in
            withUnsafePointer(to: component) { base in
                plan.digest(ofComponentAt: UnsafeRawPointer(base), capInsets: caps, minimumFrame: minimumFrame,
                            size: size, scale: scale)
            }
        }
        switch result {
        case .success(let digest): return digest
        case .failure(let failure): throw plan.takeUnretainedValue().error(for: failure)
        }
    }

    /// The digest of a component's type, render version and state (with a fixed size and
    /// scale), for components made of others; or the fault that refused it.
    static func stateDigest<Component: Rasterizable>(of component: Component) -> Result<StableDigest, KeyFault> {
        let caps = component.capInsets
        let minimumFrame = caps != nil && component.usesMinimumFrameForCaps
        return shared(Component.self)._withUnsafeGuaranteedRef { plan in
            withUnsafePointer(to: component) { base in
                plan.digest(ofComponentAt: UnsafeRawPointer(base), capInsets: caps, minimumFrame: minimumFrame,
                            size: Size(width: 1, height: 1), scale: 1).mapError(\.fault)
            }
        }
    }

    private func digest(ofComponentAt base: UnsafeRawPointer, capInsets caps: EdgeInsets?, minimumFrame: Bool,
                        size: Size, scale: Double) -> Result<StableDigest, KeyFailure> {
        if let refusal { return .failure(refusal) }
        var hasher = seed
        for step in steps { write(step, of: base, into: &hasher) }
        if let fault = hasher.fault { return .failure(runtimeFailure(for: fault, base: base)) }
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
        return .success(hasher.digest)
    }

    @inline(__always)
    private func write(_ step: Step, of base: UnsafeRawPointer, into hasher: inout StateHasher) {
        if step.offset >= 0 {
            step.plan.write(base + step.offset, into: &hasher, depth: 0)
        } else if let read = step.read {
            read(base, &hasher)
        }
    }

    /// Where a value found at run time failed: each step is written again alone to find the key
    /// path that holds it.
    private func runtimeFailure(for fault: KeyFault, base: UnsafeRawPointer) -> KeyFailure {
        for (index, step) in steps.enumerated() {
            var single = StateHasher()
            write(step, of: base, into: &single)
            if let found = single.fault { return KeyFailure(fault: found, step: index, path: "") }
        }
        return KeyFailure(fault: fault, step: 0, path: "")
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
