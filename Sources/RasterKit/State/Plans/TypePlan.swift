/// How values of one type are written into a ``StateHasher``: worked out once per type from the
/// runtime's metadata (see ``TypePlanBuilder``), then used for every value of that type.
///
/// A plan writes the value at a raw address, so a value is never copied, boxed into `Any` or
/// reflected with `Mirror` to be keyed. Plans live for the whole process (``KeyPlans`` keeps
/// them) and never change once published, so they are shared by every thread without locks;
/// plans refer to each other through ``PlanRef``, which costs no reference counting.
class TypePlan: @unchecked Sendable {
    /// Values nested deeper than this are refused (``StateKeyError/Reason/tooDeep``) rather than
    /// cut short or allowed to overflow the stack; an object met again adds no level, since it
    /// is written as a reference.
    static let depthLimit = StateKeyError.depthLimit

    /// The type this plan writes.
    let type: Any.Type
    /// The type's stable identity (see ``TypeIdentity``), written in front of structures,
    /// tuples, objects and opaque values so that different types never share a key.
    let typeID: UInt64

    init(type: Any.Type) {
        self.type = type
        typeID = TypeIdentity.stableID(of: type)
    }

    /// Writes the value of this plan's type stored at `value`.
    func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        preconditionFailure("\(Self.self) must override write(_:into:depth:)")
    }

    /// The plans this one writes values with, each with how it is reached (`.name` for a
    /// property, `[]` for an element): what ``ComponentKeyPlan`` searches for a refusal before
    /// any value is keyed. Plans that find their value's type at run time (existentials,
    /// `Mirror`, conformances) have none.
    var parts: [(label: String, plan: PlanRef)] { [] }
}

/// A reference from one plan to another that is never retained or released: plans live as long
/// as the process, and a retain is an atomic write to the plan, which threads writing keys at
/// the same time would pass between their cores on every value (`unowned(unsafe)` would still
/// retain the plan around each call).
struct PlanRef: @unchecked Sendable {
    private let plan: Unmanaged<TypePlan>

    init(_ plan: TypePlan) { self.plan = Unmanaged.passUnretained(plan) }
    init(_ plan: Unmanaged<TypePlan>) { self.plan = plan }

    @inline(__always)
    func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        plan._withUnsafeGuaranteedRef { $0.write(value, into: &hasher, depth: depth) }
    }

    var typeID: UInt64 { plan._withUnsafeGuaranteedRef { $0.typeID } }

    func withPlan<Result>(_ body: (TypePlan) -> Result) -> Result { plan._withUnsafeGuaranteedRef(body) }

    var identity: ObjectIdentifier { ObjectIdentifier(plan.takeUnretainedValue()) }
}

/// A type whose values cannot be keyed faithfully (see ``StateKeyError/Reason``): a component
/// whose state reaches it is refused before any key is made, and a value of it met at run time
/// (behind an existential) fails the key it is in.
final class RefusedPlan: TypePlan, @unchecked Sendable {
    let reason: StateKeyError.Reason
    /// The refused type's name, when `type` is not it (a non-copyable field's, which reflection
    /// reports as `()`).
    let typeName: String?

    init(type: Any.Type, reason: StateKeyError.Reason, typeName: String? = nil) {
        self.reason = reason
        self.typeName = typeName
        super.init(type: type)
    }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.fail(.refused, at: self)
    }
}

/// A `StateHashable` type: the value writes itself.
final class HashablePlan<Value: StateHashable>: TypePlan, @unchecked Sendable {
    init() { super.init(type: Value.self) }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        value.assumingMemoryBound(to: Value.self).pointee.hashState(into: &hasher)
    }
}

/// A struct's or tuple's stored properties, each written by its own type's plan.
final class StructPlan: TypePlan, @unchecked Sendable {
    struct Field {
        let offset: Int
        let plan: PlanRef

        init(offset: Int, plan: TypePlan) {
            self.offset = offset
            self.plan = PlanRef(plan)
        }
    }

    private let tag: StateTag
    /// Filled in once, while the plan is built (a recursive type's fields may refer to it).
    private var fields = FieldList()

    init(type: Any.Type, tag: StateTag) {
        self.tag = tag
        super.init(type: type)
    }

    func setFields(_ fields: [Field], names: [String]) { self.fields = FieldList(fields, names: names) }

    override var parts: [(label: String, plan: PlanRef)] { fields.parts }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: tag)
        hasher.write(typeID)
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        for field in fields.buffer { field.plan.write(value + field.offset, into: &hasher, depth: depth + 1) }
    }
}

/// The stored properties a struct, tuple or object plan writes, and their names for messages.
struct FieldList {
    private(set) var buffer = UnsafeBufferPointer<StructPlan.Field>(start: nil, count: 0)
    private var names: [String] = []

    init() {}

    init(_ fields: [StructPlan.Field], names: [String]) {
        let storage = UnsafeMutableBufferPointer<StructPlan.Field>.allocate(capacity: fields.count)
        _ = storage.initialize(from: fields)
        buffer = UnsafeBufferPointer(storage)
        self.names = names
    }

    var parts: [(label: String, plan: PlanRef)] { zip(names, buffer).map { ("." + $0, $1.plan) } }
}

/// A metatype value (`Int.self` held as an `Any.Type`, say): keyed by the type it names.
///
/// The metatype of a struct, enum or tuple has exactly one value, and a stored property of such
/// a type may take no storage at all (a "thin" metatype), so it is never read: the type it
/// names is known from the plan. Class metatypes (a subclass may be stored) and existential
/// metatypes are read.
final class MetatypePlan<Metatype>: TypePlan, @unchecked Sendable {
    /// The type every value names, when there is only one.
    private let onlyValueID: UInt64?

    init() {
        let metadata = RuntimeABI.address(of: Metatype.self)
        if RuntimeABI.Kind(of: Metatype.self) == .metatype {
            let instance = RuntimeABI.type(at: metadata.load(fromByteOffset: RuntimeABI.word, as: UnsafeRawPointer.self))
            onlyValueID = RuntimeABI.Kind(of: instance) == .class ? nil : TypeIdentity.stableID(of: instance)
        } else {
            onlyValueID = nil
        }
        super.init(type: Metatype.self)
    }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .metatype)
        if let onlyValueID { return hasher.write(onlyValueID) }
        let named = value.assumingMemoryBound(to: Metatype.self).pointee as? Any.Type
        hasher.write(named.map { KeyPlans.plan(for: $0)._withUnsafeGuaranteedRef { $0.typeID } } ?? typeID)
    }
}
