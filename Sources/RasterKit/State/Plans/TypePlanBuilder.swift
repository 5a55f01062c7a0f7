import Observation

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
        // Before anything opens the type as a generic parameter, which a non-copyable one
        // cannot be.
        if let reason = KeyRefusals.reason(for: type) { return RefusedPlan(type: type, reason: reason) }
        // The standard library's collections and `Optional` first, even where they are
        // `StateHashable`: their plans write the same bytes without copying each element.
        if let planning = type as? any KeyPlanning.Type { return planning.makeKeyPlan(&self) }
        if let leaf = LeafPlans.plan(for: type) { return leaf }
        if let hashable = type as? any StateHashable.Type { return Self.hashablePlan(hashable) }
        switch RuntimeABI.Kind(of: type) {
        case .structure:
            return fieldsPlan(type, tag: .structure)
        case .tuple:
            return fieldsPlan(type, tag: .tuple)
        case .class:
            return objectPlan(type)
        case .enumeration:
            return enumPlan(type) ?? RefusedPlan(type: type, reason: .undescribedStorage)
        case .existential:
            func make<Value>(_: Value.Type) -> TypePlan { ExistentialPlan<Value>() }
            return _openExistential(type, do: make)
        case .metatype, .existentialMetatype:
            func make<Value>(_: Value.Type) -> TypePlan { MetatypePlan<Value>() }
            return _openExistential(type, do: make)
        case .function:
            return RefusedPlan(type: type, reason: .closure)
        case .opaque, .optional, .foreignClass, .other:
            return RefusedPlan(type: type, reason: .undescribedStorage)
        }
    }

    // MARK: Structs, tuples and classes

    /// A struct's or tuple's plan: its stored properties read in place, or through `Mirror` when
    /// one of them cannot be (see ``MirrorPlan``).
    private mutating func fieldsPlan(_ type: Any.Type, tag: StateTag) -> TypePlan {
        guard let fields = StoredField.of(type) else { return Self.mirrorPlan(type) }
        if let refusal = Self.refusal(among: fields, of: type) { return refusal }
        guard fields.allSatisfy(Self.isReadable) else { return Self.mirrorPlan(type) }
        let plan = StructPlan(type: type, tag: tag)
        register(plan, for: type)
        let kept = fields.filter(Self.isState)
        plan.setFields(kept.map { StructPlan.Field(offset: $0.offset, plan: fieldPlan(for: $0)) }, names: kept.map(\.name))
        return plan
    }

    private mutating func objectPlan(_ type: Any.Type) -> TypePlan {
        guard let fields = StoredField.of(type) else { return Self.mirrorPlan(type) }
        if let refusal = Self.refusal(among: fields, of: type) { return refusal }
        guard fields.allSatisfy(Self.isReadable) else { return Self.mirrorPlan(type) }
        let plan = ObjectPlan(type: type)
        register(plan, for: type)
        let kept = fields.filter(Self.isState)
        plan.setFields(kept.map { StructPlan.Field(offset: $0.offset, plan: fieldPlan(for: $0)) }, names: kept.map(\.name))
        return plan
    }

    /// A refusal for a struct or tuple whose value is stored without field metadata (built with
    /// reflection metadata disabled, or imported from C as a union).
    private static func refusal(among fields: [StoredField], of type: Any.Type) -> TypePlan? {
        guard fields.isEmpty, RuntimeABI.Kind(of: type) != .class, ValueWitnesses(of: type).size > 0 else { return nil }
        return RefusedPlan(type: type, reason: .undescribedStorage)
    }

    /// Whether a stored property is part of what is drawn: everything but an `@Observable`
    /// class's observation registrar, which changes when the object is observed, not when it
    /// changes.
    private static func isState(_ field: StoredField) -> Bool { field.type != ObservationRegistrar.self }

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
        // Reflection reports a field it cannot show (a non-copyable one) as `()`.
        if let hidden = field.hiddenTypeName {
            return keep(RefusedPlan(type: Void.self, reason: .nonCopyable, typeName: hidden))
        }
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
        }, names: layout.cases.map(\.name))
        return plan
    }

    // MARK: Optionals

    mutating func optionalPlan<Wrapped>(wrapping _: Wrapped.Type) -> TypePlan {
        let wrapped = plan(for: Wrapped.self)
        guard let layout = EnumLayout.make(for: Wrapped?.self) else { return RefusedPlan(type: Wrapped?.self, reason: .undescribedStorage) }
        return OptionalPlan(type: Wrapped?.self, wrapped: wrapped, layout: layout)
    }

    // MARK: Opening types

    private static func hashablePlan<Value: StateHashable>(_: Value.Type) -> TypePlan { HashablePlan<Value>() }

    /// `Mirror` for a type whose stored properties cannot all be read in place — unless the type
    /// has a custom mirror, which may leave out what is drawn.
    private static func mirrorPlan(_ type: Any.Type) -> TypePlan {
        if type is any CustomReflectable.Type { return RefusedPlan(type: type, reason: .undescribedStorage) }
        func make<Value>(_: Value.Type) -> TypePlan { MirrorPlan<Value>() }
        return _openExistential(type, do: make)
    }
}
