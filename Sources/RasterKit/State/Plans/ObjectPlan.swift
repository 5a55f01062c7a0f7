/// Class instances, by content and never by address: the instance's dynamic type, then the
/// stored properties of its class and superclasses. An instance the key has met before — a
/// cycle, or a second reference to one object — is written as the ordinal of its first
/// appearance (see ``ObjectOrdinals``), so each object is written once.
///
/// A reference whose instance is of a subclass is written by the subclass's plan, found by the
/// instance's metadata pointer without a lock.
final class ObjectPlan: TypePlan, @unchecked Sendable {
    private let metadata: UnsafeRawPointer
    private var fields = FieldList()

    override init(type: Any.Type) {
        metadata = RuntimeABI.address(of: type)
        super.init(type: type)
    }

    func setFields(_ fields: [StructPlan.Field], names: [String]) { self.fields = FieldList(fields, names: names) }

    override var parts: [(label: String, plan: PlanRef)] { fields.parts }

    /// `value` holds a strong reference.
    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        let object = value.load(as: UnsafeRawPointer.self)
        // A native Swift object starts with its class's metadata pointer.
        let dynamicType = object.load(as: UnsafeRawPointer.self)
        guard dynamicType == metadata else {
            return KeyPlans.plan(for: RuntimeABI.type(at: dynamicType))._withUnsafeGuaranteedRef {
                $0.write(value, into: &hasher, depth: depth)
            }
        }
        let identity = UInt(bitPattern: object)
        if let ordinal = hasher.objects.ordinal(of: identity) {
            hasher.write(tag: .backReference)
            return hasher.write(ordinal)
        }
        hasher.objects.add(identity)
        hasher.write(tag: .object)
        hasher.write(typeID)
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        for field in fields.buffer { field.plan.write(object + field.offset, into: &hasher, depth: depth + 1) }
    }
}

/// A `weak` stored property: written as an optional reference to the instance it still holds.
final class WeakReferencePlan<Object: AnyObject>: TypePlan, @unchecked Sendable {
    private struct Storage { weak var object: Object? }
    private let objectPlan: PlanRef

    init(objectPlan: TypePlan) {
        self.objectPlan = PlanRef(objectPlan)
        super.init(type: Object?.self)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("?", objectPlan)] }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        writeOptionalReference(value.assumingMemoryBound(to: Storage.self).pointee.object, plan: objectPlan,
                               into: &hasher, depth: depth)
    }
}

/// An `unowned` stored property: written as the instance it refers to (which must be alive, as
/// for any use of an unowned reference).
final class UnownedReferencePlan<Object: AnyObject>: TypePlan, @unchecked Sendable {
    private struct Storage { unowned let object: Object }
    private let objectPlan: PlanRef

    init(objectPlan: TypePlan) {
        self.objectPlan = PlanRef(objectPlan)
        super.init(type: Object.self)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("", objectPlan)] }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        var object = value.assumingMemoryBound(to: Storage.self).pointee.object
        withUnsafePointer(to: &object) { objectPlan.write(UnsafeRawPointer($0), into: &hasher, depth: depth) }
    }
}

/// An optional `unowned` stored property.
final class OptionalUnownedReferencePlan<Object: AnyObject>: TypePlan, @unchecked Sendable {
    private struct Storage { unowned let object: Object? }
    private let objectPlan: PlanRef

    init(objectPlan: TypePlan) {
        self.objectPlan = PlanRef(objectPlan)
        super.init(type: Object?.self)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("?", objectPlan)] }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        writeOptionalReference(value.assumingMemoryBound(to: Storage.self).pointee.object, plan: objectPlan,
                               into: &hasher, depth: depth)
    }
}

/// A reference read out of a `weak` or optional `unowned` field, written as an optional is.
@inline(__always)
private func writeOptionalReference<Object: AnyObject>(_ object: Object?, plan: PlanRef, into hasher: inout StateHasher,
                                                       depth: Int) {
    guard var object else { return hasher.write(tag: .none) }
    hasher.write(tag: .some)
    withUnsafePointer(to: &object) { plan.write(UnsafeRawPointer($0), into: &hasher, depth: depth + 1) }
}

/// `Any`, `any P`, `AnyObject` and `any Error`: the dynamic type of the value inside, then the
/// value, written by the plan of that type (found without a lock). The type comes first because
/// values of different types can write the same bytes: an empty `[Int]` and an empty `[String]`.
final class ExistentialPlan<Existential>: TypePlan, @unchecked Sendable {
    init() { super.init(type: Existential.self) }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        // Erasing a generic value whose type is itself an existential wraps it once more;
        // `write(dynamic:)` looks through every layer.
        KeyPlans.write(dynamic: value.assumingMemoryBound(to: Existential.self).pointee, into: &hasher, depth: depth + 1)
    }
}
