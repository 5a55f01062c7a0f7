/// The fallback for what a compiled plan cannot read in place: a struct or class holding a
/// `weak` or `unowned` reference to a protocol existential, whose storage differs from a class
/// reference's. Walked with `Mirror` on every value, so slower; each child is written by the
/// plan of its own dynamic type. A type's own custom mirror (`CustomReflectable`) is never what
/// is keyed (it may leave out what is drawn), and a mirror is only asked of types without one.
/// Every type keyed this way is counted (``KeyPlans/mirrorFallbacks``, shown in
/// ``RenderStatistics/mirrorFallbacks``) and logged at debug level.
///
/// Written as: the type, the mirror's display style, then for the mirror and each superclass
/// mirror the number of children and each child's label and value.
final class MirrorPlan<Value>: TypePlan, @unchecked Sendable {
    private let isClass: Bool

    init() {
        isClass = RuntimeABI.Kind(of: Value.self) == .class
        super.init(type: Value.self)
        KeyPlans.recordMirrorFallback(Value.self)
    }

    override func write(_ address: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        let value = address.assumingMemoryBound(to: Value.self).pointee
        if isClass {
            let object = UInt(bitPattern: ObjectIdentifier(value as AnyObject))
            if let ordinal = hasher.objects.ordinal(of: object) {
                hasher.write(tag: .backReference)
                return hasher.write(ordinal)
            }
            hasher.objects.add(object)
        }
        hasher.write(tag: .custom)
        hasher.write(typeID)
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        var mirror: Mirror? = Mirror(reflecting: value)
        hasher.sip.write(Self.styleCode(mirror?.displayStyle))
        while let current = mirror {
            let children = Array(current.children)
            hasher.write(children.count)
            for child in children { Self.writeChild(child, into: &hasher, depth: depth + 1) }
            mirror = current.superclassMirror
        }
    }

    private static func writeChild(_ child: Mirror.Child, into hasher: inout StateHasher, depth: Int) {
        if let label = child.label {
            hasher.write(tag: .some)
            hasher.write(label)
        } else {
            hasher.write(tag: .none)
        }
        KeyPlans.write(dynamic: child.value, into: &hasher, depth: depth)
    }

    private static func styleCode(_ style: Mirror.DisplayStyle?) -> UInt8 {
        switch style {
        case .struct: 1
        case .class: 2
        case .enum: 3
        case .tuple: 4
        case .optional: 5
        case .collection: 6
        case .dictionary: 7
        case .set: 8
        default: 0
        }
    }
}
