/// An enum's cases as the runtime's metadata describes them, read once per type so that values
/// are written without `Mirror`: `Mirror` demangles the case's payload type from its field record
/// and boxes the payload twice on every call.
///
/// Cases are listed in tag order (payload cases first, then empty ones), as the field records
/// list them and as the value witness `getEnumTag` numbers them.
struct EnumLayout: @unchecked Sendable {
    /// One case: its name and, for a case with a payload, the payload's declared type.
    struct Case: @unchecked Sendable {
        let name: String
        let payloadType: Any.Type?
        /// The payload sits in a heap box (an `indirect` case); the enum holds the box.
        let isIndirect: Bool
    }

    let cases: [Case]
    /// The enum's value witnesses that read a value's tag and take its payload out.
    let getEnumTag: RuntimeABI.GetEnumTag
    let projectPayload: RuntimeABI.ProjectEnumData

    /// Whether exactly one case has a payload. Such an enum keeps the payload of that case
    /// unchanged at its start (other cases use the payload's spare values or extra tag bytes),
    /// so it can be read in place; with several payload cases, tag bits may be mixed into the
    /// payload's spare bits until `projectPayload` clears them.
    var hasSinglePayload: Bool { cases.lazy.filter { $0.payloadType != nil }.count == 1 }

    /// The layout of `type`, or nil when it is not an enum (or `Optional`) the metadata
    /// describes: no field records, no enum witnesses, or a payload type that does not resolve.
    static func make(for type: Any.Type) -> EnumLayout? {
        let kind = RuntimeABI.Kind(of: type)
        guard kind == .enumeration || kind == .optional else { return nil }
        let witnesses = RuntimeABI.valueWitnesses(of: type)
        let flags = witnesses.load(fromByteOffset: RuntimeABI.ValueWitness.flags, as: UInt32.self)
        guard flags & RuntimeABI.ValueWitness.hasEnumWitnesses != 0,
              let descriptor = RuntimeABI.descriptor(of: type),
              let records = RuntimeABI.fieldRecords(ofDescriptor: descriptor) else { return nil }
        let arguments = RuntimeABI.genericArguments(of: type)
        var cases: [Case] = []
        for record in records {
            var payloadType: Any.Type?
            if record.mangledType != nil {
                guard let resolved = RuntimeABI.resolve(record, descriptor: descriptor, genericArguments: arguments) else { return nil }
                payloadType = resolved
            }
            cases.append(Case(name: record.name, payloadType: payloadType, isIndirect: record.isIndirectCase))
        }
        return EnumLayout(
            cases: cases,
            getEnumTag: unsafeBitCast(witnesses.load(fromByteOffset: RuntimeABI.ValueWitness.getEnumTag, as: UnsafeRawPointer.self),
                                      to: RuntimeABI.GetEnumTag.self),
            projectPayload: unsafeBitCast(witnesses.load(fromByteOffset: RuntimeABI.ValueWitness.destructiveProjectEnumData,
                                                         as: UnsafeRawPointer.self),
                                          to: RuntimeABI.ProjectEnumData.self))
    }
}
