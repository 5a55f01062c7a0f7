/// An enum's case and payload, read with the enum's value witnesses: its tag with `getEnumTag`,
/// its payload in place when only one case has one, and otherwise from a copy whose tag bits
/// `projectPayload` clears. An `indirect` case's payload is read inside its heap box. Nothing
/// here is generic, so writing a value looks up no metadata.
final class EnumPlan: TypePlan, @unchecked Sendable {
    private let metadata: UnsafeRawPointer
    private let getEnumTag: RuntimeABI.GetEnumTag
    private let projectPayload: RuntimeABI.ProjectEnumData
    private let readsInPlace: Bool
    private let witnesses: ValueWitnesses
    private var cases: UnsafeBufferPointer<EnumCasePlan> = UnsafeBufferPointer(start: nil, count: 0)

    init(type: Any.Type, layout: EnumLayout) {
        metadata = RuntimeABI.address(of: type)
        getEnumTag = layout.getEnumTag
        projectPayload = layout.projectPayload
        readsInPlace = layout.hasSinglePayload
        witnesses = ValueWitnesses(of: type)
        super.init(type: type)
    }

    func setCases(_ cases: [EnumCasePlan], names: [String]) {
        let storage = UnsafeMutableBufferPointer<EnumCasePlan>.allocate(capacity: cases.count)
        _ = storage.initialize(from: cases)
        self.cases = UnsafeBufferPointer(storage)
        caseNames = names
    }

    /// Each case's name, for messages.
    private var caseNames: [String] = []

    override var parts: [(label: String, plan: PlanRef)] {
        zip(caseNames, cases).compactMap { name, enumCase in enumCase.payload.map { (".\(name)", $0) } }
    }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        hasher.write(tag: .enumeration)
        let tag = Int(getEnumTag(value, metadata))
        guard tag < cases.count else { return hasher.write(typeID) }
        let enumCase = cases[tag]
        hasher.write(enumCase.id)
        guard let payload = enumCase.payload else { return }
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        if readsInPlace { return enumCase.writePayload(payload, at: value, into: &hasher, depth: depth) }
        withUnsafeTemporaryAllocation(byteCount: max(witnesses.size, 1), alignment: witnesses.alignment) { buffer in
            guard let copy = buffer.baseAddress else { return }
            witnesses.initialize(copy, withCopyOf: value, metadata: metadata)
            // Leaves the payload alone at the start of the buffer, tag bits cleared.
            projectPayload(copy, metadata)
            enumCase.writePayload(payload, at: UnsafeRawPointer(copy), into: &hasher, depth: depth)
            enumCase.destroyPayload(at: copy)
        }
    }
}

/// How one enum case is written.
struct EnumCasePlan {
    /// The case's identity: its enum's stable name and its own (see ``TypeIdentity/caseID``).
    let id: UInt64
    let payload: PlanRef?
    /// The payload sits in a heap box the enum refers to.
    let isIndirect: Bool
    /// Where the payload starts inside an indirect case's box: after the box's object header,
    /// at the payload's alignment.
    let boxOffset: Int
    /// The payload type's witnesses and metadata, to end the life of a payload moved out of a copy.
    let payloadWitnesses: ValueWitnesses?
    let payloadMetadata: UnsafeRawPointer?

    init(id: UInt64) {
        self.id = id
        payload = nil
        isIndirect = false
        boxOffset = 0
        payloadWitnesses = nil
        payloadMetadata = nil
    }

    init(id: UInt64, payload: TypePlan, payloadType: Any.Type, isIndirect: Bool) {
        self.id = id
        self.payload = PlanRef(payload)
        self.isIndirect = isIndirect
        let witnesses = ValueWitnesses(of: payloadType)
        payloadWitnesses = witnesses
        payloadMetadata = RuntimeABI.address(of: payloadType)
        let header = 2 * RuntimeABI.word
        boxOffset = (header + witnesses.alignment - 1) / witnesses.alignment * witnesses.alignment
    }

    @inline(__always)
    func writePayload(_ payload: PlanRef, at address: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        if isIndirect {
            payload.write(address.load(as: UnsafeRawPointer.self) + boxOffset, into: &hasher, depth: depth + 1)
        } else {
            payload.write(address, into: &hasher, depth: depth + 1)
        }
    }

    /// Ends the life of the payload left in a copied enum: the reference to an indirect case's
    /// box, or the payload itself unless it is plain data.
    @inline(__always)
    func destroyPayload(at address: UnsafeMutableRawPointer) {
        if isIndirect {
            Unmanaged<AnyObject>.fromOpaque(address.load(as: UnsafeRawPointer.self)).release()
        } else if let payloadWitnesses, let payloadMetadata {
            payloadWitnesses.destroy(address, metadata: payloadMetadata)
        }
    }
}

/// `Optional`: whether it holds a value, then the value, which a single-payload enum keeps in
/// place.
final class OptionalPlan: TypePlan, @unchecked Sendable {
    private let wrapped: PlanRef
    private let getEnumTag: RuntimeABI.GetEnumTag
    private let metadata: UnsafeRawPointer

    init(type: Any.Type, wrapped: TypePlan, layout: EnumLayout) {
        self.wrapped = PlanRef(wrapped)
        getEnumTag = layout.getEnumTag
        metadata = RuntimeABI.address(of: type)
        super.init(type: type)
    }

    override var parts: [(label: String, plan: PlanRef)] { [("?", wrapped)] }

    override func write(_ value: UnsafeRawPointer, into hasher: inout StateHasher, depth: Int) {
        // `Optional` numbers `some` 0 and `none` 1.
        guard getEnumTag(value, metadata) == 0 else { return hasher.write(tag: .none) }
        hasher.write(tag: .some)
        guard depth < Self.depthLimit else { return hasher.fail(.tooDeep, at: self) }
        wrapped.write(value, into: &hasher, depth: depth + 1)
    }
}
