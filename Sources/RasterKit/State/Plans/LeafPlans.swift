/// Plans for the standard library's most common state values, written without a generic call:
/// a `StateHashable` type's plan calls its `hashState` through a witness table, which for a
/// `String` also copies (and so retains) the string. Each writes what the type's own
/// `hashState` writes.
enum LeafPlans {
    static func plan(for type: Any.Type) -> TypePlan? {
        if type == String.self { return StringPlan(type: type) }
        if type == Int.self { return IntPlan(type: type) }
        if type == Double.self { return DoublePlan(type: type) }
        if type == Bool.self { return BoolPlan(type: type) }
        return nil
    }
}

final class StringPlan: TypePlan, @unchecked Sendable {
    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .string)
        hasher.write(value.assumingMemoryBound(to: String.self).pointee)
    }
}

final class IntPlan: TypePlan, @unchecked Sendable {
    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .int)
        hasher.write(value.load(as: Int.self))
    }
}

final class DoublePlan: TypePlan, @unchecked Sendable {
    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .double)
        hasher.write(value.load(as: Double.self))
    }
}

final class BoolPlan: TypePlan, @unchecked Sendable {
    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .bool)
        hasher.sip.write(value.load(as: Bool.self) ? 1 as UInt8 : 0)
    }
}
