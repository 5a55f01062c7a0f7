/// The parts of the Swift runtime's metadata that key plans read, laid out as Swift's stable ABI
/// fixes them (swift/ABI/MetadataValues.h, ValueWitness.def, Metadata.h and
/// RemoteInspection/Records.h). Everything here is read once per type, when its plan is made.
enum RuntimeABI {
    static let word = MemoryLayout<UnsafeRawPointer>.size

    /// The kind of a type's metadata.
    enum Kind: Equatable {
        case `class`, structure, enumeration, optional, foreignClass, opaque, tuple, function
        case existential, metatype, existentialMetatype, other(UInt)

        init(of type: Any.Type) {
            let raw = address(of: type).load(as: UInt.self)
            switch raw {
            // Above the last kind value, the first word is an Objective-C isa pointer: a class.
            case 0, 0x800...: self = .class
            case 0x200: self = .structure
            case 0x201: self = .enumeration
            case 0x202: self = .optional
            case 0x203: self = .foreignClass
            case 0x300: self = .opaque
            case 0x301: self = .tuple
            case 0x302: self = .function
            case 0x303: self = .existential
            case 0x304: self = .metatype
            case 0x306: self = .existentialMetatype
            default: self = .other(raw)
            }
        }
    }

    @inline(__always)
    static func address(of type: Any.Type) -> UnsafeRawPointer { unsafeBitCast(type, to: UnsafeRawPointer.self) }

    @inline(__always)
    static func type(at address: UnsafeRawPointer) -> Any.Type { unsafeBitCast(address, to: Any.Type.self) }

    // MARK: Value witnesses

    /// The value witness table, one word before the metadata's address point.
    static func valueWitnesses(of type: Any.Type) -> UnsafeRawPointer {
        address(of: type).load(fromByteOffset: -word, as: UnsafeRawPointer.self)
    }

    enum ValueWitness {
        // Eight witness functions, then size and stride (words), flags and extra inhabitants (32 bits each).
        static let flags = 10 * RuntimeABI.word
        static let getEnumTag = 11 * RuntimeABI.word
        static let destructiveProjectEnumData = 12 * RuntimeABI.word
        static let hasEnumWitnesses: UInt32 = 0x0020_0000
        static let isNonCopyable: UInt32 = 0x0080_0000
    }

    typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    typealias ProjectEnumData = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

    // MARK: Nominal type descriptors

    /// The nominal type descriptor of a struct, enum or optional (one word in), or of a class
    /// (after the class header, whose size depends on Objective-C interoperability).
    static func descriptor(of type: Any.Type) -> UnsafeRawPointer? {
        let metadata = address(of: type)
        switch Kind(of: type) {
        case .structure, .enumeration, .optional:
            return metadata.load(fromByteOffset: word, as: UnsafeRawPointer?.self)
        case .class:
            #if _runtime(_ObjC)
            let offset = 8 * word
            #else
            let offset = 5 * word
            #endif
            return metadata.load(fromByteOffset: offset, as: UnsafeRawPointer?.self)
        default:
            return nil
        }
    }

    /// A class's superclass metadata, or nil for a root class.
    static func superclass(of type: Any.Type) -> Any.Type? {
        address(of: type).load(fromByteOffset: word, as: UnsafeRawPointer?.self).map { RuntimeABI.type(at: $0) }
    }

    /// Struct and enum metadata keep their generic arguments right after the descriptor.
    static func genericArguments(of type: Any.Type) -> UnsafeRawPointer { address(of: type) + 2 * word }

    /// One field record of a type's field descriptor: a stored property or an enum case.
    struct FieldRecord {
        let name: String
        /// The mangled type name, or nil for an enum case without a payload.
        let mangledType: UnsafePointer<UInt8>?
        let isIndirectCase: Bool

        /// The bytes of the mangled name, whose symbolic references embed bytes that may be 0.
        var mangledTypeLength: Int {
            guard let start = mangledType else { return 0 }
            var index = 0
            while start[index] != 0 {
                switch start[index] {
                case 0x01...0x17: index += 4  // a 32-bit relative reference follows
                case 0x18...0x1F: index += RuntimeABI.word
                default: break
                }
                index += 1
            }
            return index
        }

        /// The last two characters of the mangled type: `Xw` for weak, `Xo` for unowned and `Xu`
        /// for unowned(unsafe) storage.
        var ownershipSuffix: String {
            guard let start = mangledType else { return "" }
            let length = mangledTypeLength
            guard length >= 2 else { return "" }
            return String(decoding: UnsafeBufferPointer(start: start + length - 2, count: 2), as: UTF8.self)
        }
    }

    /// The field records of a nominal type, or nil when it has none (imported C types, types
    /// compiled without reflection metadata).
    static func fieldRecords(ofDescriptor descriptor: UnsafeRawPointer) -> [FieldRecord]? {
        // Flags, parent, name and access function come first, 32 bits each.
        guard let fields = relativeTarget(descriptor, at: 16) else { return nil }
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12 else { return nil }
        var records: [FieldRecord] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            let record = fields + 16 + index * recordSize
            let flags = record.load(as: UInt32.self)
            guard let name = relativeTarget(record, at: 8) else { return nil }
            records.append(FieldRecord(name: String(cString: name.assumingMemoryBound(to: CChar.self)),
                                       mangledType: relativeTarget(record, at: 4)?.assumingMemoryBound(to: UInt8.self),
                                       isIndirectCase: flags & 0x1 != 0))
        }
        return records
    }

    /// Resolves a field record's mangled type in the context of the type that declares it, with
    /// the standard library's `_getTypeByMangledNameInContext`: a direct call into the runtime,
    /// so it resolves the same in a binary that links the Swift runtime statically (where the
    /// runtime exports no symbols for `dlsym` to find). Non-copyable types are not resolved.
    static func resolve(_ record: FieldRecord, descriptor: UnsafeRawPointer, genericArguments: UnsafeRawPointer?) -> Any.Type? {
        guard let mangled = record.mangledType else { return nil }
        return _getTypeByMangledNameInContext(mangled, UInt(record.mangledTypeLength), genericContext: descriptor,
                                              genericArguments: genericArguments)
    }

    /// Whether the type is non-copyable (`~Copyable`: `Mutex`, `Atomic`, …), from its value
    /// witness flags.
    static func isNonCopyable(_ type: Any.Type) -> Bool {
        valueWitnesses(of: type).load(fromByteOffset: ValueWitness.flags, as: UInt32.self) & ValueWitness.isNonCopyable != 0
    }

    /// The address a nullable 32-bit relative pointer at `base + offset` points at.
    static func relativeTarget(_ base: UnsafeRawPointer, at offset: Int) -> UnsafeRawPointer? {
        let distance = base.load(fromByteOffset: offset, as: Int32.self)
        return distance == 0 ? nil : base + offset + Int(distance)
    }
}

