/// Makes the plans of a type and of the types inside it, reading each type's layout from the
/// runtime's metadata once (see ``RuntimeABI``). A type that refers to itself (a tree of
/// structs, a linked list of objects, an indirect enum) gets its plan registered before its
/// fields' plans are made, so the fields refer back to it.
///
/// Which plan each kind of type gets is the table in ``StateHashable``'s documentation.
struct TypePlanBuilder {
    private let published: TypeTable<TypePlan>
    /// The plans made by this builder, to publish together.
    private(set) var made: [(Any.Type, TypePlan)] = []
    /// Plans made for one field only (weak and unowned references), which no type maps to but
    /// which must live as long as the plans that refer to them.
    private(set) var fieldOnly: [TypePlan] = []
    private var madeByType: [ObjectIdentifier: TypePlan] = [:]

    init(published: TypeTable<TypePlan>) { self.published = published }

    /// The plan for `type`: published, made by this builder, or made now.
    mutating func plan(for type: Any.Type) -> TypePlan {
        if let plan = published.value(for: type) { return plan.takeUnretainedValue() }
        if let plan = madeByType[ObjectIdentifier(type)] { return plan }
        let plan = make(type)
        // Making the plans inside a collection's element may already have made this one.
        if let existing = madeByType[ObjectIdentifier(type)] { return existing }
        return register(plan, for: type)
    }

    @discardableResult
    private mutating func register(_ plan: TypePlan, for type: Any.Type) -> TypePlan {
        madeByType[ObjectIdentifier(type)] = plan
        made.append((type, plan))
        return plan
    }

    private mutating func make(_ type: Any.Type) -> TypePlan {
        // The standard library's collections and `Optional` first, even where they are
        // `StateHashable`: their plans write the same bytes without copying each element.
        if let planning = type as? any KeyPlanning.Type { return planning.makeKeyPlan(&self) }
        if let leaf = LeafPlans.plan(for: type) { return leaf }
        if let hashable = type as? any StateHashable.Type { return Self.hashablePlan(hashable) }
        // Pointers' mirrors show their address, which differs from process to process.
        if type is any _Pointer.Type { return OpaquePlan(type: type) }
        // A custom mirror says what the value is; its stored form may hold caches or handles.
        if type is any CustomReflectable.Type { return Self.mirrorPlan(type) }
        switch RuntimeABI.Kind(of: type) {
        case .structure:
            return fieldsPlan(type, tag: .structure) ?? Self.mirrorPlan(type)
        case .tuple:
            return fieldsPlan(type, tag: .tuple) ?? Self.mirrorPlan(type)
        case .class:
            return objectPlan(type) ?? Self.mirrorPlan(type)
        case .enumeration:
            return enumPlan(type) ?? Self.mirrorPlan(type)
        case .existential:
            func make<Value>(_: Value.Type) -> TypePlan { ExistentialPlan<Value>() }
            return _openExistential(type, do: make)
        case .metatype, .existentialMetatype:
            func make<Value>(_: Value.Type) -> TypePlan { MetatypePlan<Value>() }
            return _openExistential(type, do: make)
        case .function, .opaque:
            return OpaquePlan(type: type)
        case .optional, .foreignClass, .other:
            return Self.mirrorPlan(type)
        }
    }

    // MARK: Structs, tuples and classes

    /// A struct's or tuple's plan, or nil when a field cannot be read without `Mirror`.
    private mutating func fieldsPlan(_ type: Any.Type, tag: StateTag) -> TypePlan? {
        guard let fields = StoredField.of(type), fields.allSatisfy(Self.isReadable) else { return nil }
        let plan = StructPlan(type: type, tag: tag)
        register(plan, for: type)
        plan.setFields(fields.map { StructPlan.Field(offset: $0.offset, plan: fieldPlan(for: $0)) })
        return plan
    }

    private mutating func objectPlan(_ type: Any.Type) -> TypePlan? {
        guard let fields = StoredField.of(type), fields.allSatisfy(Self.isReadable) else { return nil }
        let plan = ObjectPlan(type: type)
        register(plan, for: type)
        plan.setFields(fields.map { StructPlan.Field(offset: $0.offset, plan: fieldPlan(for: $0)) })
        return plan
    }

    /// Whether a field's storage is one a plan reads: any strong field, and weak and unowned
    /// references to classes (not to protocol existentials, whose weak storage differs).
    private static func isReadable(_ field: StoredField) -> Bool {
        switch field.ownership {
        case .strong, .unownedUnsafe: true
        case .weak: referencedClass(ofOptional: field.type) != nil
        case .unowned: RuntimeABI.Kind(of: field.type) == .class || referencedClass(ofOptional: field.type) != nil
        }
    }

    private static func referencedClass(ofOptional type: Any.Type) -> AnyObject.Type? {
        guard RuntimeABI.Kind(of: type) == .optional, let wrapped = EnumLayout.make(for: type)?.cases.first?.payloadType,
              RuntimeABI.Kind(of: wrapped) == .class else { return nil }
        return wrapped as? AnyObject.Type
    }

    private mutating func fieldPlan(for field: StoredField) -> TypePlan {
        switch field.ownership {
        case .strong, .unownedUnsafe:
            // unowned(unsafe) storage is the bare reference.
            return plan(for: field.type)
        case .weak:
            guard let object = Self.referencedClass(ofOptional: field.type) else { return plan(for: field.type) }
            return Self.weakPlan(object, builder: &self)
        case .unowned:
            if let object = Self.referencedClass(ofOptional: field.type) { return Self.optionalUnownedPlan(object, builder: &self) }
            guard let object = field.type as? AnyObject.Type else { return plan(for: field.type) }
            return Self.unownedPlan(object, builder: &self)
        }
    }

    private static func weakPlan<Object: AnyObject>(_: Object.Type, builder: inout TypePlanBuilder) -> TypePlan {
        builder.keep(WeakReferencePlan<Object>(objectPlan: builder.plan(for: Object.self)))
    }

    private static func unownedPlan<Object: AnyObject>(_: Object.Type, builder: inout TypePlanBuilder) -> TypePlan {
        builder.keep(UnownedReferencePlan<Object>(objectPlan: builder.plan(for: Object.self)))
    }

    private static func optionalUnownedPlan<Object: AnyObject>(_: Object.Type, builder: inout TypePlanBuilder) -> TypePlan {
        builder.keep(OptionalUnownedReferencePlan<Object>(objectPlan: builder.plan(for: Object.self)))
    }

    private mutating func keep(_ plan: TypePlan) -> TypePlan {
        fieldOnly.append(plan)
        return plan
    }

    // MARK: Enums

    private mutating func enumPlan(_ type: Any.Type) -> TypePlan? {
        guard let layout = EnumLayout.make(for: type) else { return nil }
        let plan = EnumPlan(type: type, layout: layout)
        register(plan, for: type)
        plan.setCases(layout.cases.map { enumCase in
            let id = TypeIdentity.caseID(of: type, case: enumCase.name)
            guard let payloadType = enumCase.payloadType else { return EnumCasePlan(id: id) }
            return EnumCasePlan(id: id, payload: self.plan(for: payloadType), payloadType: payloadType, isIndirect: enumCase.isIndirect)
        })
        return plan
    }

    // MARK: Optionals

    mutating func optionalPlan<Wrapped>(wrapping _: Wrapped.Type) -> TypePlan {
        let wrapped = plan(for: Wrapped.self)
        guard let layout = EnumLayout.make(for: Wrapped?.self) else { return MirrorPlan<Wrapped?>() }
        return OptionalPlan(type: Wrapped?.self, wrapped: wrapped, layout: layout)
    }

    // MARK: Opening types

    private static func hashablePlan<Value: StateHashable>(_: Value.Type) -> TypePlan { HashablePlan<Value>() }

    private static func mirrorPlan(_ type: Any.Type) -> TypePlan {
        func make<Value>(_: Value.Type) -> TypePlan { MirrorPlan<Value>() }
        return _openExistential(type, do: make)
    }
}
