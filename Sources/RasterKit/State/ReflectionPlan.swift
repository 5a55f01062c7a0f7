import Synchronization

/// What the state walker does with one type, worked out from `Mirror` the first time a value of
/// that type is seen and then reused: the expensive questions (which kind of value, what is
/// its stable type identity) are answered once per type, not once per value.
final class ReflectionPlan: Sendable {
    enum Kind: Sendable {
        /// Writes itself: the cast to ``StateHashable`` is made once, here.
        case hashable(@Sendable (Any, inout StateHasher) -> Void)
        case structure, enumeration, tuple, optional, collection, dictionary, set, object
        /// No stored properties to walk (metatypes, functions): identified by type name only.
        case opaque
    }

    let kind: Kind
    /// A stable 64-bit identity of the type, so different types with the same fields differ.
    let typeID: UInt64
    /// For enums and optionals: their cases as read from the runtime's metadata, when that can
    /// be done safely, so values are walked without `Mirror`.
    let enumLayout: EnumLayout?

    private init(kind: Kind, typeID: UInt64, enumLayout: EnumLayout? = nil) {
        self.kind = kind
        self.typeID = typeID
        self.enumLayout = enumLayout
    }

    private static let cache = SanitizerVisibleMutex<[ObjectIdentifier: ReflectionPlan]>([:])

    /// The plan for the dynamic type of `value`.
    static func plan(for value: Any) -> ReflectionPlan {
        let type = Swift.type(of: value)
        let identifier = ObjectIdentifier(type)
        if let plan = cache.withLock({ $0[identifier] }) { return plan }
        let plan = make(for: value, type: type)
        cache.withLock { $0[identifier] = plan }
        return plan
    }

    private static func make(for value: Any, type: Any.Type) -> ReflectionPlan {
        let typeID = stableTypeID(type)
        if let hashable = type as? any StateHashable.Type {
            return ReflectionPlan(kind: .hashable(writer(for: hashable)), typeID: typeID)
        }
        let kind: Kind
        switch Mirror(reflecting: value).displayStyle {
        case .struct: kind = .structure
        case .class: kind = .object
        case .enum: kind = .enumeration
        case .tuple: kind = .tuple
        case .optional: kind = .optional
        case .collection: kind = .collection
        case .dictionary: kind = .dictionary
        case .set: kind = .set
        default: kind = .opaque
        }
        switch kind {
        case .enumeration, .optional:
            return ReflectionPlan(kind: kind, typeID: typeID, enumLayout: EnumLayout.make(for: type))
        default:
            return ReflectionPlan(kind: kind, typeID: typeID)
        }
    }

    private static func writer<Value: StateHashable>(for type: Value.Type) -> @Sendable (Any, inout StateHasher) -> Void {
        { value, hasher in
            // The plan is looked up by this exact dynamic type, so the cast always succeeds.
            if let value = value as? Value { value.hashState(into: &hasher) }
        }
    }

    /// A stable identity from the type's fully qualified name (see ``TypeIdentity``), unique even
    /// for private, local and generic types and the same in every process.
    static func stableTypeID(_ type: Any.Type) -> UInt64 {
        var sip = SipHash128()
        let name = TypeIdentity.stableName(of: type)
        name.utf8.withContiguousStorageIfAvailable { sip.write(UnsafeRawBufferPointer($0)) }
            ?? Array(name.utf8).withUnsafeBytes { sip.write($0) }
        return sip.finalize().high
    }
}
