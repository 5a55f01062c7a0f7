import Foundation

/// Writes a component's state as a canonical byte stream and digests it. Values are tagged
/// with their kind, strings and collections carry their lengths, so two different states
/// never write the same bytes.
///
/// Types that adopt ``StateHashable`` write themselves through `combine`:
///
/// ```swift
/// extension Temperature: StateHashable {
///     // Drawn rounded to whole degrees, so 20.2° and 20.4° share a render.
///     func hashState(into hasher: inout StateHasher) { hasher.combine(Int(celsius.rounded())) }
/// }
/// ```
public struct StateHasher: Sendable {
    package var sip: SipHash128
    /// The class instances this key has met, each written once (see ``ObjectOrdinals``).
    var objects = ObjectOrdinals()
    /// Set by the first value that cannot be keyed; the key is then refused, never used.
    var fault: KeyFault?

    package init(sip: SipHash128 = SipHash128()) { self.sip = sip }

    /// Adds a value that knows how to write its state.
    public mutating func combine<Value: StateHashable>(_ value: Value) { value.hashState(into: &self) }

    /// Adds any value as RasterKit keys state: through its type's key plan, which reads its stored
    /// properties (see ``StateHashable`` for what is written for each kind of value). A value
    /// that cannot be keyed makes the component's key throw ``StateKeyError``.
    public mutating func combine<Value>(reflecting value: Value) {
        KeyPlans.write(value, into: &self)
    }

    /// Adds raw bytes, with their count.
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        write(tag: .bytes)
        write(UInt64(bytes.count))
        sip.write(bytes)
    }

    package var digest: StableDigest { sip.finalize() }

    // MARK: Primitive writes

    @inline(__always)
    mutating func write(tag: StateTag) { sip.write(tag.rawValue) }

    @inline(__always)
    package mutating func write(_ value: UInt64) { sip.write(value) }

    @inline(__always)
    package mutating func write(_ value: Int) { sip.write(UInt64(bitPattern: Int64(value))) }

    /// Doubles are written so that `-0.0 == 0.0` and every NaN is one NaN, matching how they
    /// draw.
    @inline(__always)
    package mutating func write(_ value: Double) {
        if value == 0 { return sip.write(0 as UInt64) }
        if value.isNaN { return sip.write(Double.nan.bitPattern) }
        sip.write(value.bitPattern)
    }

    /// Strings are written in Unicode normalization form C, so strings Swift considers equal
    /// (canonically equivalent) write the same bytes. ASCII, which is already in that form, is
    /// written straight from the string's storage.
    package mutating func write(_ string: String) {
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard Self.isASCII(utf8) else { return nil }
            sip.write(UInt64(utf8.count))
            sip.write(UnsafeRawBufferPointer(utf8))
            return ()
        } ?? nil
        if written != nil { return }
        var normalized = string.precomposedStringWithCanonicalMapping
        normalized.withUTF8 { utf8 in
            sip.write(UInt64(utf8.count))
            sip.write(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Eight bytes at a time where it can.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}

extension StateHasher {
    /// Records that the value `plan` writes cannot be keyed (the first such value wins).
    @inline(never)
    mutating func fail(_ kind: KeyFault.Kind, at plan: TypePlan) {
        fail(KeyFault(kind: kind, plan: PlanRef(plan)))
    }

    /// Records a fault found elsewhere (in a component this one is made of).
    mutating func fail(_ found: KeyFault) {
        if fault == nil { fault = found }
    }

    /// Writes the members of an unordered collection in a canonical order: each member is
    /// digested alone by `writeMember(index, &memberHasher)`, and the sorted digests are
    /// written. A member hasher starts with the objects met so far, so a member referring to
    /// one writes the same reference whatever the order; objects first met inside a member are
    /// forgotten after it, since members are visited in an order that differs between
    /// processes. Digests of small collections stay on the stack.
    mutating func writeUnordered(count: Int, _ writeMember: (Int, inout StateHasher) -> Void) {
        write(count)
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: StableDigest.self, capacity: count) { buffer in
            var digests = buffer
            for index in 0..<count {
                var single = StateHasher()
                single.objects = objects
                writeMember(index, &single)
                if fault == nil, let memberFault = single.fault { fault = memberFault }
                digests.initializeElement(at: index, to: single.digest)
            }
            digests.sort()
            for digest in digests {
                write(digest.high)
                write(digest.low)
            }
            _ = digests.deinitialize()
        }
    }
}

/// Why a key could not be made: the plan of the value that refused, and how. Plans live as
/// long as the process, so the hasher carries only a reference to one.
struct KeyFault: Error, Sendable {
    enum Kind: Sendable { case refused, tooDeep }
    let kind: Kind
    let plan: PlanRef

    /// The error for this fault, reached through `keyPath`.
    func error(keyPath: String) -> StateKeyError {
        plan.withPlan { plan in
            let refused = plan as? RefusedPlan
            let reason = kind == .tooDeep ? .tooDeep : refused?.reason ?? .undescribedStorage
            let name = refused?.typeName ?? TypeIdentity.stableName(of: plan.type)
            return StateKeyError(typeName: name, keyPath: keyPath, reason: reason)
        }
    }
}

/// The class instances one key has met, in the order it met them. An instance met again — a
/// cycle, or two references to one object — is written as its ordinal, so every object is
/// written once and a graph that shares objects is keyed in time linear in its objects.
/// Ordinals follow the order of the walk, which the values alone decide, so they are the same
/// in every process. The first eight are kept in place, so keying a few objects allocates nothing.
struct ObjectOrdinals: Sendable {
    private var inline: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Ordinals from 8 on; nil until needed, so copying a table (every key starts from a copy)
    /// retains nothing.
    private var overflow: [UInt: Int]? = nil
    private(set) var count = 0

    /// The ordinal of `object`, if this key has met it.
    @inline(__always)
    func ordinal(of object: UInt) -> Int? {
        let inlineCount = min(count, 8)
        if inlineCount > 0 {
            let found: Int? = withUnsafeBytes(of: inline) { words in
                for index in 0..<inlineCount where words.load(fromByteOffset: index * 8, as: UInt.self) == object {
                    return index
                }
                return nil
            }
            if let found { return found }
        }
        return count > 8 ? overflow?[object] : nil
    }

    /// Gives `object` the next ordinal.
    mutating func add(_ object: UInt) {
        if count < 8 {
            withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: object, toByteOffset: count * 8, as: UInt.self) }
        } else {
            var table = overflow ?? [:]
            overflow = nil  // so that `table` is the dictionary's only reference and grows in place
            table[object] = count
            overflow = table
        }
        count += 1
    }
}
