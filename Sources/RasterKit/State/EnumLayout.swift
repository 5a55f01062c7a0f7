#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads an enum value's case and payload straight from the Swift runtime's metadata, without
/// `Mirror`.
///
/// `Mirror` answers the same questions, but on every call it demangles the case's payload type
/// from its field record and boxes the payload twice; for an enum among a component's state that
/// is most of a cache key's cost. Here the field records are read once per type, and each value
/// costs one value-witness call for its tag and, for a payload case, one copy of the payload.
///
/// Everything read is laid out as Swift's stable ABI fixes it (and Linux shares): the value
/// witness table with its enum witnesses `getEnumTag` and `destructiveProjectEnumData`, the enum
/// metadata, and its nominal type descriptor's field records. Whatever does not fit the expected shape (no field records,
/// an indirect case, a custom mirror) makes ``make(for:)`` return nil and the walker uses
/// `Mirror`, which writes the same bytes.
struct EnumLayout: @unchecked Sendable {
    /// One case: its name and, for a case with a payload, the payload's declared type.
    struct Case: @unchecked Sendable {
        let name: String
        let payloadType: Any.Type?
    }

    let cases: [Case]
    private let metadata: UnsafeRawPointer
    private let getEnumTag: @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    private let projectPayload: @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

    /// The layout of `type`, or nil when it is not an enum (or `Optional`) this can read safely.
    static func make(for type: Any.Type) -> EnumLayout? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let kind = metadata.load(as: Int.self)
        // A custom mirror may show anything; `Optional`'s shows its payload, as read here.
        guard kind == MetadataKind.optional || (kind == MetadataKind.enumeration && !(type is any CustomReflectable.Type)) else {
            return nil
        }

        // The value witness table sits one word before the metadata's address point.
        let witnesses = metadata.load(fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
        let flags = witnesses.load(fromByteOffset: ValueWitnessOffset.flags, as: UInt32.self)
        guard flags & ValueWitnessFlags.hasEnumWitnesses != 0 else { return nil }

        let descriptor = metadata.load(fromByteOffset: MetadataOffset.description, as: UnsafeRawPointer.self)
        guard let fields = relativeTarget(descriptor, at: DescriptorOffset.fields) else { return nil }
        let recordSize = Int(fields.load(fromByteOffset: FieldDescriptorOffset.recordSize, as: UInt16.self))
        let count = Int(fields.load(fromByteOffset: FieldDescriptorOffset.count, as: UInt32.self))
        guard recordSize >= FieldRecordOffset.end else { return nil }
        let genericArguments = metadata + MetadataOffset.genericArguments

        var cases: [Case] = []
        for index in 0..<count {
            let record = fields + FieldDescriptorOffset.records + index * recordSize
            let recordFlags = record.load(fromByteOffset: FieldRecordOffset.flags, as: UInt32.self)
            // An indirect case keeps its payload in a box; `Mirror` knows how to open it.
            guard recordFlags & FieldRecordFlags.isIndirectCase == 0,
                  let namePointer = relativeTarget(record, at: FieldRecordOffset.name) else { return nil }
            var payloadType: Any.Type?
            if let mangled = relativeTarget(record, at: FieldRecordOffset.mangledTypeName) {
                let bytes = mangled.assumingMemoryBound(to: UInt8.self)
                guard let resolve = _rasterKitTypeByMangledName,
                      let resolved = resolve(bytes, UInt(mangledNameLength(bytes)), descriptor, genericArguments) else { return nil }
                payloadType = unsafeBitCast(resolved, to: Any.Type.self)
            }
            cases.append(Case(name: String(cString: namePointer.assumingMemoryBound(to: CChar.self)), payloadType: payloadType))
        }
        return EnumLayout(
            cases: cases, metadata: metadata,
            getEnumTag: unsafeBitCast(witnesses.load(fromByteOffset: ValueWitnessOffset.getEnumTag, as: UnsafeRawPointer.self),
                                      to: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32).self),
            projectPayload: unsafeBitCast(witnesses.load(fromByteOffset: ValueWitnessOffset.destructiveProjectEnumData, as: UnsafeRawPointer.self),
                                          to: (@convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void).self))
    }

    /// The case of `value` and its payload (nil for a case without one). `value` must be of the
    /// type this layout was made for.
    func decompose(_ value: Any) -> (case: Case, payload: Any?)? {
        func open<Enum>(_ value: Enum) -> (case: Case, payload: Any?)? {
            withUnsafeTemporaryAllocation(of: Enum.self, capacity: 1) { buffer in
                let pointer = buffer.baseAddress!
                pointer.initialize(to: value)
                let tag = Int(getEnumTag(UnsafeRawPointer(pointer), metadata))
                guard tag < cases.count, let payloadType = cases[tag].payloadType else {
                    pointer.deinitialize(count: 1)
                    return tag < cases.count ? (cases[tag], nil) : nil
                }
                // Leaves the payload alone at the start of the buffer, tag bits cleared: the
                // buffer then holds a payload, which is moved out, and no longer an enum.
                projectPayload(UnsafeMutableRawPointer(pointer), metadata)
                return (cases[tag], Self.take(payloadType, from: UnsafeMutableRawPointer(pointer)))
            }
        }
        return _openExistential(value, do: open)
    }

    /// Moves the value of type `type` out of `pointer` into an `Any`, as `Mirror` boxes a payload.
    private static func take(_ type: Any.Type, from pointer: UnsafeMutableRawPointer) -> Any {
        func open<Payload>(_: Payload.Type) -> Any { pointer.assumingMemoryBound(to: Payload.self).move() }
        return _openExistential(type, do: open)
    }

    /// The address a nullable 32-bit relative pointer at `base + offset` points at.
    private static func relativeTarget(_ base: UnsafeRawPointer, at offset: Int) -> UnsafeRawPointer? {
        let distance = base.load(fromByteOffset: offset, as: Int32.self)
        return distance == 0 ? nil : base + offset + Int(distance)
    }

    /// The length of a mangled type name, whose symbolic references embed bytes that may be 0.
    private static func mangledNameLength(_ start: UnsafePointer<UInt8>) -> Int {
        var index = 0
        while start[index] != 0 {
            switch start[index] {
            case 0x01...0x17: index += 4     // a 32-bit relative reference follows
            case 0x18...0x1F: index += MemoryLayout<UnsafeRawPointer>.size
            default: break
            }
            index += 1
        }
        return index
    }

    // The ABI's numbers (swift/ABI/MetadataValues.h, ValueWitness.def, Metadata.h, and
    // RemoteInspection/Records.h).
    private enum MetadataKind {
        static let enumeration = 0x201
        static let optional = 0x202
    }
    private enum MetadataOffset {
        static let description = MemoryLayout<UnsafeRawPointer>.size
        static let genericArguments = 2 * MemoryLayout<UnsafeRawPointer>.size
    }
    private enum ValueWitnessOffset {
        // Eight witness functions, then size and stride (words), flags and extra inhabitants (32 bits).
        static let flags = 10 * MemoryLayout<UnsafeRawPointer>.size
        static let getEnumTag = 11 * MemoryLayout<UnsafeRawPointer>.size
        static let destructiveProjectEnumData = 12 * MemoryLayout<UnsafeRawPointer>.size
    }
    private enum ValueWitnessFlags {
        static let hasEnumWitnesses: UInt32 = 0x0020_0000
    }
    private enum DescriptorOffset {
        /// Flags, parent, name and access function come first, 32 bits each.
        static let fields = 16
    }
    private enum FieldDescriptorOffset {
        static let recordSize = 10
        static let count = 12
        static let records = 16
    }
    private enum FieldRecordOffset {
        static let flags = 0
        static let mangledTypeName = 4
        static let name = 8
        static let end = 12
    }
    private enum FieldRecordFlags {
        static let isIndirectCase: UInt32 = 0x1
    }
}

/// The runtime's `swift_getTypeByMangledNameInContext`, which resolves a field record's type
/// name: found by name rather than declared with `@_silgen_name`, which the compiler reserves
/// for itself on runtime entry points. Like the value witnesses, it takes pointer-sized
/// arguments only, which the Swift and C calling conventions pass alike.
private let _rasterKitTypeByMangledName: (@convention(c) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_getTypeByMangledNameInContext") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?).self)
}()
