internal import Logging
import Synchronization

/// The key plan of every type met so far, found without a lock once made. The first request for
/// a type builds its plan, and the plans of the types inside it, under one lock; every later one
/// is a lookup in a ``TypeTable``.
enum KeyPlans {
    private static let table = TypeTable<TypePlan>()
    private static let mirrorFallbackCount = Atomic<Int>(0)
    private static let logger = Logger(label: "RasterKit.Keys")

    /// How many types this process keys through `Mirror` (see ``MirrorPlan``).
    static var mirrorFallbacks: Int { mirrorFallbackCount.load(ordering: .relaxed) }

    /// Counts and logs a type keyed through `Mirror`: slower, and never silent.
    static func recordMirrorFallback(_ type: Any.Type) {
        mirrorFallbackCount.add(1, ordering: .relaxed)
        logger.debug("keying \(TypeIdentity.stableName(of: type)) through Mirror: it holds a weak or unowned reference to a protocol existential, which key plans cannot read in place")
    }
    /// Builders take turns: a type's plans are published together, once complete. Holds the
    /// plans no type maps to (see ``TypePlanBuilder/fieldOnly``), to keep them alive.
    private static let building = Lock<[TypePlan]>([])

    /// The plan for `type`.
    @inline(__always)
    static func plan(for type: Any.Type) -> Unmanaged<TypePlan> {
        if let plan = table.value(for: type) { return plan }
        return build(type)
    }

    private static func build(_ type: Any.Type) -> Unmanaged<TypePlan> {
        let made: TypePlan = building.withLock { fieldOnly in
            if let plan = table.value(for: type) { return plan.takeUnretainedValue() }
            var builder = TypePlanBuilder(published: table)
            let plan = builder.plan(for: type)
            fieldOnly += builder.fieldOnly
            for (madeType, madePlan) in builder.made { table.add(madePlan, for: madeType) }
            return plan
        }
        return table.value(for: type) ?? table.add(made, for: type)
    }

    /// Writes `value` by its static type's plan.
    @inline(__always)
    static func write<Value>(_ value: Value, into hasher: inout StateHasher, depth: Int = 0) {
        plan(for: Value.self)._withUnsafeGuaranteedRef { plan in
            withUnsafePointer(to: value) { plan.write(UnsafeRawPointer($0), into: &hasher, depth: depth) }
        }
    }

    /// Writes the dynamic type of the value inside `value`, then the value by that type's plan.
    static func write(dynamic value: Any, into hasher: inout StateHasher, depth: Int) {
        func open<Value>(_ opened: Value) {
            guard RuntimeABI.Kind(of: Value.self) == .existential else { return writeTyped(opened, into: &hasher, depth: depth) }
            // An existential inside the `Any` (a generic value erased to `Any` whose type was
            // itself `any P`): `type(of:)` sees through every layer, and a cast to that type
            // takes the value out.
            let dynamicType = type(of: value)
            func cast<Dynamic>(_: Dynamic.Type) {
                guard let inner = value as? Dynamic, RuntimeABI.Kind(of: Dynamic.self) != .existential else {
                    return hasher.fail(.refused, at: plan(for: Dynamic.self).takeUnretainedValue())
                }
                writeTyped(inner, into: &hasher, depth: depth)
            }
            _openExistential(dynamicType, do: cast)
        }
        _openExistential(value, do: open)
    }

    /// The dynamic type's identity, then the value.
    @inline(__always)
    private static func writeTyped<Value>(_ value: Value, into hasher: inout StateHasher, depth: Int) {
        plan(for: Value.self)._withUnsafeGuaranteedRef { plan in
            hasher.write(tag: .existential)
            hasher.write(plan.typeID)
            withUnsafePointer(to: value) { plan.write(UnsafeRawPointer($0), into: &hasher, depth: depth) }
        }
    }
}
