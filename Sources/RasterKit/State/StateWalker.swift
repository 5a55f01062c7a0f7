/// Walks any value into a ``StateHasher``: ``StateHashable`` values write themselves; enums and
/// optionals are read through their ``EnumLayout`` where they have one; structs, tuples,
/// collections and class instances (and enums without a layout) are walked through `Mirror`.
enum StateWalker {
    /// Recursion deeper than this is a value that nests without end (not a cycle of objects,
    /// which is caught separately): it is cut off with a marker rather than overflowing the stack.
    static let depthLimit = 256

    static func walk(_ value: Any, into hasher: inout StateHasher, depth: Int = 0) {
        guard depth < depthLimit else { return hasher.write(tag: .opaque) }
        let plan = ReflectionPlan.plan(for: value)
        switch plan.kind {
        case .hashable(let write):
            write(value, &hasher)
        case .structure:
            hasher.write(tag: .structure)
            hasher.write(plan.typeID)
            writeChildren(of: Mirror(reflecting: value), into: &hasher, depth: depth)
        case .enumeration:
            hasher.write(tag: .enumeration)
            hasher.write(plan.typeID)
            if let layout = plan.enumLayout, let (enumCase, payload) = layout.decompose(value) {
                hasher.write(enumCase.name)
                writePayload(payload, into: &hasher, depth: depth)
                return
            }
            hasher.write(EnumCase.name(of: value))
            writePayload(Mirror(reflecting: value).children.first?.value, into: &hasher, depth: depth)
        case .tuple:
            hasher.write(tag: .tuple)
            let mirror = Mirror(reflecting: value)
            hasher.write(mirror.children.count)
            for child in mirror.children {
                hasher.write(child.label ?? "")
                walk(child.value, into: &hasher, depth: depth + 1)
            }
        case .optional:
            if let layout = plan.enumLayout, let (_, payload) = layout.decompose(value) {
                return writePayload(payload, into: &hasher, depth: depth)
            }
            writePayload(Mirror(reflecting: value).children.first?.value, into: &hasher, depth: depth)
        case .collection:
            hasher.write(tag: .sequence)
            let mirror = Mirror(reflecting: value)
            hasher.write(mirror.children.count)
            for child in mirror.children { walk(child.value, into: &hasher, depth: depth + 1) }
        case .dictionary, .set:
            hasher.write(tag: plan.kind.isDictionary ? .dictionary : .set)
            // Each member (a key-value tuple for dictionaries) digested alone, digests sorted.
            let members = Mirror(reflecting: value).children.map { child in
                { (single: inout StateHasher) in walk(child.value, into: &single, depth: depth + 1) }
            }
            hasher.writeUnordered(members)
        case .object:
            walkObject(value, plan: plan, into: &hasher, depth: depth)
        case .opaque:
            hasher.write(tag: .opaque)
            hasher.write(plan.typeID)
        }
    }

    /// An enum case's payload, or its absence, as the `Mirror` walk writes it.
    private static func writePayload(_ payload: Any?, into hasher: inout StateHasher, depth: Int) {
        if let payload {
            hasher.write(tag: .some)
            walk(payload, into: &hasher, depth: depth + 1)
        } else {
            hasher.write(tag: .none)
        }
    }

    private static func writeChildren(of mirror: Mirror, into hasher: inout StateHasher, depth: Int) {
        hasher.write(mirror.children.count)
        for child in mirror.children { walk(child.value, into: &hasher, depth: depth + 1) }
    }

    /// Class instances are walked by content, never by address. An instance met again while it
    /// is still being walked is a cycle: it is written as a reference to how far up it is.
    private static func walkObject(_ value: Any, plan: ReflectionPlan, into hasher: inout StateHasher, depth: Int) {
        let identifier = ObjectIdentifier(value as AnyObject)
        hasher.write(tag: .object)
        hasher.write(plan.typeID)
        if let index = hasher.visiting.lastIndex(of: identifier) {
            hasher.write(tag: .backReference)
            hasher.write(hasher.visiting.count - index)
            return
        }
        hasher.visiting.append(identifier)
        defer { hasher.visiting.removeLast() }
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            writeChildren(of: current, into: &hasher, depth: depth)
            mirror = current.superclassMirror
        }
    }
}

extension ReflectionPlan.Kind {
    var isDictionary: Bool {
        if case .dictionary = self { return true }
        return false
    }
}

/// Enum case names straight from the Swift runtime's metadata: the same name `print` shows,
/// but unaffected by a type's own `description`, and without formatting a string.
enum EnumCase {
    static func name(of value: Any) -> String {
        func open<T>(_ value: T) -> String {
            if let name = _rasterKitEnumCaseName(value) { return String(cString: name) }
            return String(describing: value)
        }
        return _openExistential(value, do: open)
    }
}

@_silgen_name("swift_EnumCaseName")
private func _rasterKitEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
