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
    /// For a field reflection reports as `()` although it is not one — a non-copyable field,
    /// which reflection does not show — the name of its declared type (or of what can be told of
    /// it). Nil for every other field.
    let hiddenTypeName: String?

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
                guard let found = declaredRecord(of: type, fieldIndex: index).flatMap({ Self.ownership(of: $0.record) }) else {
                    return nil
                }
                ownership = found
            }
            fields.append(StoredField(name: name, offset: offset, type: fieldType, ownership: ownership,
                                      hiddenTypeName: fieldType == Void.self ? hiddenTypeName(of: type, fieldIndex: index) : nil))
        }
        return fields
    }

    /// Which kind of non-strong reference a field is, from the suffix of its mangled type.
    private static func ownership(of record: RuntimeABI.FieldRecord) -> Ownership? {
        switch record.ownershipSuffix {
        case "Xw": .weak
        case "Xo": .unowned
        case "Xu": .unownedUnsafe
        default: nil
        }
    }

    /// What can be said of the declared type of a field reported as `()` whose record says
    /// otherwise: a non-copyable one, which reflection, the runtime's lookup by mangled name and
    /// the accessor the compiler emits for it all replace with `()`, so it cannot be named.
    /// Nil for a field declared as `()`.
    private static func hiddenTypeName(of type: Any.Type, fieldIndex index: Int) -> String? {
        guard let (record, _, _) = declaredRecord(of: type, fieldIndex: index), let mangled = record.mangledType else { return nil }
        // `yt` is the mangling of `()`.
        if record.mangledTypeLength == 2, mangled[0] == UInt8(ascii: "y"), mangled[1] == UInt8(ascii: "t") { return nil }
        return "a non-copyable type (such as Mutex or Atomic)"
    }

    /// The field record of field `index` (counted as the runtime counts fields, superclasses
    /// first), with the descriptor and the type that declare it.
    private static func declaredRecord(of type: Any.Type, fieldIndex index: Int)
        -> (record: RuntimeABI.FieldRecord, descriptor: UnsafeRawPointer, declaring: Any.Type)? {
        var local = index
        if RuntimeABI.Kind(of: type) == .class, let superclass = RuntimeABI.superclass(of: type) {
            let inherited = _rasterKitRecursiveChildCount(superclass)
            if index < inherited { return declaredRecord(of: superclass, fieldIndex: index) }
            local = index - inherited
        }
        guard let descriptor = RuntimeABI.descriptor(of: type),
              let records = RuntimeABI.fieldRecords(ofDescriptor: descriptor), local < records.count else { return nil }
        return (records[local], descriptor, type)
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
