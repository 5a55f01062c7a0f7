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
    /// Class instances being written, for cycle protection.
    var visiting = VisitStack()

    package init(sip: SipHash128 = SipHash128()) { self.sip = sip }

    /// Adds a value that knows how to write its state.
    public mutating func combine<Value: StateHashable>(_ value: Value) { value.hashState(into: &self) }

    /// Adds any value as RasterKit keys state: through its type's key plan, which reads its stored
    /// properties (see ``StateHashable`` for what is written for each kind of value).
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
    /// Writes the members of an unordered collection in a canonical order: each member is
    /// digested alone by `writeMember(index, &memberHasher)` (sharing the current cycle-protection
    /// stack), and the sorted digests are written. Digests of small collections stay on the stack.
    mutating func writeUnordered(count: Int, _ writeMember: (Int, inout StateHasher) -> Void) {
        write(count)
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: StableDigest.self, capacity: count) { buffer in
            var digests = buffer
            for index in 0..<count {
                var single = StateHasher()
                single.visiting = visiting
                writeMember(index, &single)
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

/// The class instances a key is in the middle of writing, innermost last: the first eight in
/// place, so keying a few nested objects allocates nothing.
struct VisitStack: Sendable {
    private var inline: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Nil until needed, so copying a stack (every key starts from a copy) retains nothing.
    private var overflow: [UInt]? = nil
    private(set) var count = 0

    /// How many levels up `object` is being written (1 for the innermost), or nil.
    func distance(to object: UInt) -> Int? {
        var index = count - 1
        while index >= 0 {
            if self[index] == object { return count - index }
            index -= 1
        }
        return nil
    }

    mutating func push(_ object: UInt) {
        if count < 8 {
            withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: object, toByteOffset: count * 8, as: UInt.self) }
        } else {
            var deeper = overflow ?? []
            overflow = nil  // so that `deeper` is the array's only reference and grows in place
            deeper.append(object)
            overflow = deeper
        }
        count += 1
    }

    mutating func pop() {
        count -= 1
        if count >= 8 { overflow?.removeLast() }
    }

    private subscript(index: Int) -> UInt {
        if index < 8 { return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: index * 8, as: UInt.self) } }
        return overflow?[index - 8] ?? 0
    }
}
