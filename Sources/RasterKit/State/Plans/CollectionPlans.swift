/// `Array`, `ContiguousArray` and `ArraySlice` of any element type: the count, then each
/// element in order, written in place from the collection's contiguous storage. The three give
/// the same bytes for the same elements, as a reference walk does.
final class ContiguousCollectionPlan<Elements: Collection>: TypePlan, @unchecked Sendable {
    private let element: PlanRef

    init(element: TypePlan) {
        self.element = PlanRef(element)
        super.init(type: Elements.self)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("[]", element)] }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        // Always available for the three types this plan is made for (see `KeyPlanning`).
        _ = value.assumingMemoryBound(to: Elements.self).pointee.withContiguousStorageIfAvailable { elements in
            hasher.write(tag: .sequence)
            hasher.write(elements.count)
            guard let base = elements.baseAddress else { return }
            guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
            let stride = MemoryLayout<Elements.Element>.stride
            let start = UnsafeRawPointer(base)
            for index in 0..<elements.count { element.write(start + index * stride, into: &hasher, depth: depth + 1) }
        }
    }
}

/// `Set`: each element digested alone, the digests sorted, so that neither insertion order nor
/// the process's hash seed changes the key.
final class SetPlan<Element: Hashable>: TypePlan, @unchecked Sendable {
    private let element: PlanRef

    init(element: TypePlan) {
        self.element = PlanRef(element)
        super.init(type: Set<Element>.self)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("[]", element)] }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .set)
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        let set = value.assumingMemoryBound(to: Set<Element>.self)
        var members = set.pointee.makeIterator()
        let plan = element
        hasher.writeUnordered(count: set.pointee.count) { _, single in
            guard var member = members.next() else { return }
            withUnsafePointer(to: &member) { plan.write($0, into: &single, depth: depth + 1) }
        }
    }
}

/// `Dictionary`: each key with its value digested alone, the digests sorted, as for `Set`.
final class DictionaryPlan<Key: Hashable, Value>: TypePlan, @unchecked Sendable {
    private let key: PlanRef
    private let value: PlanRef

    init(key: TypePlan, value: TypePlan) {
        self.key = PlanRef(key)
        self.value = PlanRef(value)
        super.init(type: [Key: Value].self)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("[key]", key), ("[value]", value)] }

    override func write(_ address: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .dictionary)
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        let dictionary = address.assumingMemoryBound(to: [Key: Value].self)
        var members = dictionary.pointee.makeIterator()
        let keyPlan = key, valuePlan = value
        hasher.writeUnordered(count: dictionary.pointee.count) { _, single in
            guard var member = members.next() else { return }
            withUnsafePointer(to: &member.key) { keyPlan.write($0, into: &single, depth: depth + 1) }
            withUnsafePointer(to: &member.value) { valuePlan.write($0, into: &single, depth: depth + 1) }
        }
    }
}

/// The standard library's collections make their own plans: their elements live in storage
/// their stored properties only point to. A conformance is found once per type, when its plan
/// is built.
protocol KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan
}

extension Optional: KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan {
        builder.optionalPlan(wrapping: Wrapped.self)
    }
}

extension Array: KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan {
        ContiguousCollectionPlan<Self>(element: builder.plan(for: Element.self))
    }
}

extension ContiguousArray: KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan {
        ContiguousCollectionPlan<Self>(element: builder.plan(for: Element.self))
    }
}

extension ArraySlice: KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan {
        ContiguousCollectionPlan<Self>(element: builder.plan(for: Element.self))
    }
}

extension Set: KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan {
        SetPlan<Element>(element: builder.plan(for: Element.self))
    }
}

extension Dictionary: KeyPlanning {
    static func makeKeyPlan(_ builder: inout TypePlanBuilder) -> TypePlan {
        DictionaryPlan<Key, Value>(key: builder.plan(for: Key.self), value: builder.plan(for: Value.self))
    }
}
