/// The stored properties of a struct or class (a class's with its superclasses', root class
/// first) and the elements of a tuple: each one's name, offset and type, as the runtime's own
/// reflection reports them to `Mirror`. Offsets of a struct or tuple are from the value's start;
/// a class's are from the start of the instance.
struct StoredField {
    /// How a stored property holds a class instance.
    enum Ownership {
        case strong, weak, unowned, unownedUnsafe
    }

    let name: String
    let offset: Int
    let type: Any.Type
    let ownership: Ownership

    /// The fields of `type`, or nil when some field's storage cannot be read safely without
    /// `Mirror`: a weak or unowned reference whose kind cannot be told from the metadata.
    static func of(_ type: Any.Type) -> [StoredField]? {
        let count = _rasterKitRecursiveChildCount(type)
        guard count >= 0 else { return nil }
        var fields: [StoredField] = []
        fields.reserveCapacity(count)
        for index in 0..<count {
            var reflected = ReflectedField()
            let fieldType = _rasterKitRecursiveChildMetadata(type, index: index, field: &reflected)
            let name = reflected.name.map { String(cString: $0) } ?? ""
            if let free = reflected.freeFunc { free(reflected.name) }
            let offset = _rasterKitRecursiveChildOffset(type, index: index)
            var ownership = StoredField.Ownership.strong
            if !reflected.isStrong {
                guard let found = referenceOwnership(of: type, fieldIndex: index) else { return nil }
                ownership = found
            }
            fields.append(StoredField(name: name, offset: offset, type: fieldType, ownership: ownership))
        }
        return fields
    }

    /// Which kind of non-strong reference field `index` (counted as the runtime counts fields,
    /// superclasses first) is, read from the suffix of its mangled type in the declaring type's
    /// field record.
    private static func referenceOwnership(of type: Any.Type, fieldIndex index: Int) -> Ownership? {
        var declaring = type
        var local = index
        if RuntimeABI.Kind(of: type) == .class, let superclass = RuntimeABI.superclass(of: type) {
            let inherited = _rasterKitRecursiveChildCount(superclass)
            if index < inherited { return referenceOwnership(of: superclass, fieldIndex: index) }
            local = index - inherited
            declaring = type
        }
        guard let descriptor = RuntimeABI.descriptor(of: declaring),
              let records = RuntimeABI.fieldRecords(ofDescriptor: descriptor), local < records.count else { return nil }
        switch records[local].ownershipSuffix {
        case "Xw": return .weak
        case "Xo": return .unowned
        case "Xu": return .unownedUnsafe
        default: return nil
        }
    }
}

/// What the runtime reports about one field, as the standard library's `_forEachField` declares it.
private struct ReflectedField {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
}

// The runtime's reflection entry points behind `Mirror` and the standard library's
// `_forEachField`, declared as the standard library declares them.
@_silgen_name("swift_reflectionMirror_recursiveCount")
private func _rasterKitRecursiveChildCount(_: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func _rasterKitRecursiveChildMetadata(_: Any.Type, index: Int, field: UnsafeMutablePointer<ReflectedField>) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func _rasterKitRecursiveChildOffset(_: Any.Type, index: Int) -> Int
