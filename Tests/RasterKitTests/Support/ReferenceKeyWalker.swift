import Foundation
import Testing
@testable import RasterKit

/// The key stream `StateHashable`'s documentation specifies, written the slow, obvious way: with
/// `Mirror`, value by value (and, for a type with a custom mirror, its stored properties read one
/// by one). Compiled key plans must write exactly these bytes for every value. The value is
/// taken as an existential: its dynamic type comes first, as for any `Any`.
enum ReferenceKeyWalker {
    static func digest(_ value: Any) -> StableDigest {
        var hasher = StateHasher()
        var objects: [ObjectIdentifier] = []
        hasher.write(tag: .existential)
        hasher.write(TypeIdentity.stableID(of: Swift.type(of: value)))
        walk(value, into: &hasher, visiting: &objects)
        return hasher.digest
    }

    static func walk(_ value: Any, into hasher: inout StateHasher, visiting: inout [ObjectIdentifier]) {
        let type = Swift.type(of: value)
        // By the type, not a cast of the value: a cast would look inside an `Optional`.
        if let hashable = type as? any StateHashable.Type {
            func write<Hashable: StateHashable>(_: Hashable.Type) { (value as? Hashable)?.hashState(into: &hasher) }
            return write(hashable)
        }
        if type is any ReferenceOptional.Type {
            guard let wrapped = Mirror(reflecting: value).children.first?.value else { return hasher.write(tag: .none) }
            hasher.write(tag: .some)
            return walk(wrapped, into: &hasher, visiting: &visiting)
        }
        if let metatype = value as? Any.Type {
            hasher.write(tag: .metatype)
            return hasher.write(TypeIdentity.stableID(of: metatype))
        }
        if type is any ReferenceArray.Type {
            let elements = Mirror(reflecting: value).children.map(\.value)
            hasher.write(tag: .sequence)
            hasher.write(elements.count)
            for element in elements { walk(element, into: &hasher, visiting: &visiting) }
            return
        }
        if type is any ReferenceUnordered.Type {
            let isSet = type is any ReferenceSet.Type
            hasher.write(tag: isSet ? .set : .dictionary)
            let members = Mirror(reflecting: value).children.map(\.value)
            writeUnordered(members.map { member in
                var single = StateHasher()
                var nested = visiting
                if isSet {
                    walk(member, into: &single, visiting: &nested)
                } else {
                    let pair = Mirror(reflecting: member).children.map(\.value)
                    walk(pair[0], into: &single, visiting: &nested)
                    walk(pair[1], into: &single, visiting: &nested)
                }
                return single.digest
            }, into: &hasher)
            return
        }
        if type is any CustomReflectable.Type { return walkStored(value, into: &hasher, visiting: &visiting) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return hasher.write(tag: .none) }
            hasher.write(tag: .some)
            walk(wrapped, into: &hasher, visiting: &visiting)
        case .struct, .tuple:
            hasher.write(tag: mirror.displayStyle == .struct ? .structure : .tuple)
            hasher.write(TypeIdentity.stableID(of: type))
            for child in mirror.children { walk(child.value, into: &hasher, visiting: &visiting) }
        case .enum:
            hasher.write(tag: .enumeration)
            hasher.write(TypeIdentity.caseID(of: type, case: caseName(of: value)))
            if let payload = mirror.children.first?.value { walk(payload, into: &hasher, visiting: &visiting) }
        case .class:
            let identity = ObjectIdentifier(value as AnyObject)
            if let ordinal = visiting.firstIndex(of: identity) {
                hasher.write(tag: .backReference)
                return hasher.write(ordinal)
            }
            visiting.append(identity)
            hasher.write(tag: .object)
            hasher.write(TypeIdentity.stableID(of: type))
            // The root class's properties first.
            var levels: [Mirror] = []
            var level: Mirror? = mirror
            while let current = level {
                levels.append(current)
                level = current.superclassMirror
            }
            for current in levels.reversed() {
                for child in current.children { walk(child.value, into: &hasher, visiting: &visiting) }
            }
        default:
            Issue.record("the reference walk does not key \(type)")
        }
    }

    /// A struct or class with a custom mirror: its stored properties, read at their offsets.
    private static func walkStored(_ value: Any, into hasher: inout StateHasher, visiting: inout [ObjectIdentifier]) {
        let type = Swift.type(of: value)
        guard let fields = StoredField.of(type) else {
            Issue.record("no fields for \(type)")
            return
        }
        func read(at base: UnsafeRawPointer) {
            for field in fields {
                func load<Field>(_: Field.Type) -> Any { (base + field.offset).assumingMemoryBound(to: Field.self).pointee }
                walk(_openExistential(field.type, do: load), into: &hasher, visiting: &visiting)
            }
        }
        if type is AnyClass {
            let object = value as AnyObject
            let identity = ObjectIdentifier(object)
            if let ordinal = visiting.firstIndex(of: identity) {
                hasher.write(tag: .backReference)
                return hasher.write(ordinal)
            }
            visiting.append(identity)
            hasher.write(tag: .object)
            hasher.write(TypeIdentity.stableID(of: type))
            read(at: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
        } else {
            hasher.write(tag: .structure)
            hasher.write(TypeIdentity.stableID(of: type))
            func open<Value>(_ value: Value) { withUnsafePointer(to: value) { read(at: UnsafeRawPointer($0)) } }
            _openExistential(value, do: open)
        }
    }

    private static func writeUnordered(_ digests: [StableDigest], into hasher: inout StateHasher) {
        hasher.write(digests.count)
        for digest in digests.sorted() {
            hasher.write(digest.high)
            hasher.write(digest.low)
        }
    }

    private static func caseName(of value: Any) -> String {
        func open<T>(_ value: T) -> String {
            _referenceEnumCaseName(value).map { String(cString: $0) } ?? String(describing: value)
        }
        return _openExistential(value, do: open)
    }
}

/// The collections the stream writes by their elements.
protocol ReferenceOptional {}
extension Optional: ReferenceOptional {}
protocol ReferenceArray {}
extension Array: ReferenceArray {}
extension ContiguousArray: ReferenceArray {}
extension ArraySlice: ReferenceArray {}
protocol ReferenceUnordered {}
protocol ReferenceSet: ReferenceUnordered {}
extension Set: ReferenceSet {}
extension Dictionary: ReferenceUnordered {}

@_silgen_name("swift_EnumCaseName")
private func _referenceEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
