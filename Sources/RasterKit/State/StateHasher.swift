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
    var sip: SipHash128
    /// Class instances being walked, for cycle protection.
    var visiting: [ObjectIdentifier] = []

    init(sip: SipHash128 = SipHash128()) { self.sip = sip }

    /// Adds a value that knows how to write its state.
    public mutating func combine<Value: StateHashable>(_ value: Value) { value.hashState(into: &self) }

    /// Adds any value, walked through its stored properties with `Mirror` when it is not
    /// ``StateHashable``.
    public mutating func combine(reflecting value: Any) { StateWalker.walk(value, into: &self) }

    /// Adds raw bytes, with their count.
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        write(tag: .bytes)
        write(UInt64(bytes.count))
        sip.write(bytes)
    }

    var digest: StableDigest { sip.finalize() }

    // MARK: Primitive writes

    @inline(__always)
    mutating func write(tag: StateTag) { sip.write(tag.rawValue) }

    @inline(__always)
    mutating func write(_ value: UInt64) { sip.write(value) }

    @inline(__always)
    mutating func write(_ value: Int) { sip.write(UInt64(bitPattern: Int64(value))) }

    /// Doubles are written so that `-0.0 == 0.0` and every NaN is one NaN, matching how they
    /// draw.
    @inline(__always)
    mutating func write(_ value: Double) {
        if value == 0 { return sip.write(0 as UInt64) }
        if value.isNaN { return sip.write(Double.nan.bitPattern) }
        sip.write(value.bitPattern)
    }

    /// Strings are written in Unicode normalization form C, so strings Swift considers equal
    /// (canonically equivalent) write the same bytes.
    mutating func write(_ string: String) {
        var string = string
        if !string.utf8.allSatisfy({ $0 < 0x80 }) {
            string = string.precomposedStringWithCanonicalMapping
        }
        string.withUTF8 { utf8 in
            sip.write(UInt64(utf8.count))
            sip.write(UnsafeRawBufferPointer(utf8))
        }
    }
}

/// The kind byte in front of every value in the canonical stream.
enum StateTag: UInt8 {
    case bool = 1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint, float, double
    case string, bytes, date, url, uuid
    case none = 0x20, some, sequence, dictionary, set, structure, enumeration, tuple, object, backReference
    case custom, opaque, metatype
    case header = 0x40, size, scale, capInsets, minimumFrame
}

/// A value that writes its own canonical state, instead of being walked with `Mirror`: for
/// speed, or for values whose stored form differs from what they look like when drawn.
public protocol StateHashable: SendableMetatype {
    /// Writes everything about the value that changes what is drawn.
    func hashState(into hasher: inout StateHasher)
}
