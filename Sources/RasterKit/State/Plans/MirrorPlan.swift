/// The fallback for what a compiled plan cannot read safely: types with a custom mirror
/// (`CustomReflectable`), whose key must follow what their mirror shows rather than how they
/// are stored; enums whose metadata lacks what ``EnumLayout`` needs; and types holding a `weak`
/// reference to a protocol existential. Walked with `Mirror` on every value, so slower; each
/// child is written by the plan of its own type.
///
/// Written as: the type, the mirror's display style, then for the mirror and each superclass
/// mirror the number of children and each child's label and value; a set's or dictionary's
/// children are digested alone and sorted, as for `Set` and `Dictionary`.
final class MirrorPlan<Value>: TypePlan, @unchecked Sendable {
    private let isClass: Bool

    init() {
        isClass = RuntimeABI.Kind(of: Value.self) == .class
        super.init(type: Value.self)
    }

    override func write(_ address: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        let value = address.assumingMemoryBound(to: Value.self).pointee
        hasher.write(tag: .custom)
        hasher.write(typeID)
        guard depth < Self.depthLimit else { return hasher.write(tag: .opaque) }
        var identity: UInt?
        if isClass {
            let object = UInt(bitPattern: ObjectIdentifier(value as AnyObject))
            if let distance = hasher.visiting.distance(to: object) {
                hasher.write(tag: .backReference)
                return hasher.write(distance)
            }
            identity = object
            hasher.visiting.push(object)
        }
        var mirror: Mirror? = Mirror(reflecting: value)
        hasher.sip.write(Self.styleCode(mirror?.displayStyle))
        while let current = mirror {
            Self.writeChildren(of: current, into: &hasher, depth: depth + 1)
            mirror = current.superclassMirror
        }
        if identity != nil { hasher.visiting.pop() }
    }

    private static func writeChildren(of mirror: Mirror, into hasher: inout StateHasher, depth: Int) {
        let children = Array(mirror.children)
        switch mirror.displayStyle {
        case .set, .dictionary:
            hasher.writeUnordered(count: children.count) { index, single in
                writeChild(children[index], into: &single, depth: depth)
            }
        default:
            hasher.write(children.count)
            for child in children { writeChild(child, into: &hasher, depth: depth) }
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
