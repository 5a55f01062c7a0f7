/// A 128-bit digest that is the same in every process and on every run (unlike Swift's
/// `Hasher`, which is seeded per process).
public struct StableDigest: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The first 64 bits of the digest.
    public let high: UInt64
    /// The last 64 bits of the digest.
    public let low: UInt64

    /// A digest from its two 64-bit halves, as ``high`` and ``low`` return them.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hexadecimal digits.
    public var hex: String {
        withStoredBytes { HexDigits.of($0) }
    }

    /// Parses 32 hexadecimal digits (either case).
    public init?(hex: String) {
        var text = hex
        let halves: (UInt64, UInt64)? = text.withUTF8 { bytes in
            guard bytes.count == 32 else { return nil }
            var values: (UInt64, UInt64) = (0, 0)
            for (index, byte) in bytes.enumerated() {
                guard let digit = HexDigits.value(of: byte) else { return nil }
                if index < 16 { values.0 = values.0 << 4 | UInt64(digit) } else { values.1 = values.1 << 4 | UInt64(digit) }
            }
            return values
        }
        guard let (high, low) = halves else { return nil }
        self.init(high: high, low: low)
    }

    /// The 32 hexadecimal digits of ``hex``.
    public var description: String { hex }

    /// Orders digests by ``high``, then ``low``.
    public static func < (lhs: StableDigest, rhs: StableDigest) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}

/// SipHash-2-4 with 128-bit output (Aumasson and Bernstein), streaming. With RasterKit's
/// fixed key it is a stable, well-mixed digest of a byte stream.
package struct SipHash128: Sendable {
    private var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64
    /// Bytes not yet compressed, little-endian, and how many there are (0...7).
    private var tail: UInt64 = 0
    private var tailCount = 0
    private var length: UInt64 = 0

    /// RasterKit's key: fixed forever, since changing it changes every cache key.
    package static let rasterKitKey: (UInt64, UInt64) = (0x5261_7374_6572_4B69, 0x7453_7461_7465_4B79)

    package init(key: (UInt64, UInt64) = SipHash128.rasterKitKey) {
        v0 = key.0 ^ 0x736F_6D65_7073_6575
        v1 = key.1 ^ 0x646F_7261_6E64_6F6D ^ 0xEE
        v2 = key.0 ^ 0x6C79_6765_6E65_7261
        v3 = key.1 ^ 0x7465_6462_7974_6573
    }

    @inline(__always)
    private mutating func round() {
        v0 = v0 &+ v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
        v2 = v2 &+ v3; v3 = v3.rotatedLeft(16); v3 ^= v2
        v0 = v0 &+ v3; v3 = v3.rotatedLeft(21); v3 ^= v0
        v2 = v2 &+ v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
    }

    @inline(__always)
    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    /// Absorbs eight bytes, little-endian.
    @inline(__always)
    package mutating func write(_ word: UInt64) {
        length &+= 8
        if tailCount == 0 {
            compress(word)
        } else {
            let shift = UInt64(tailCount * 8)
            compress(tail | word << shift)
            tail = word >> (64 - shift)
        }
    }

    @inline(__always)
    package mutating func write(_ byte: UInt8) {
        length &+= 1
        tail |= UInt64(byte) << UInt64(tailCount * 8)
        tailCount += 1
        if tailCount == 8 {
            compress(tail)
            tail = 0
            tailCount = 0
        }
    }

    package mutating func write(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        while index < count, tailCount != 0 {
            write(bytes[index])
            index += 1
        }
        while count - index >= 8 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            length &+= 8
            compress(word)
            index += 8
        }
        while index < count {
            write(bytes[index])
            index += 1
        }
    }

    /// The digest of everything written; the hasher itself is left unchanged.
    package func finalize() -> StableDigest {
        var copy = self
        let last = copy.tail | (copy.length & 0xFF) << 56
        copy.compress(last)
        copy.v2 ^= 0xEE
        for _ in 0..<4 { copy.round() }
        let first = copy.v0 ^ copy.v1 ^ copy.v2 ^ copy.v3
        copy.v1 ^= 0xDD
        for _ in 0..<4 { copy.round() }
        let second = copy.v0 ^ copy.v1 ^ copy.v2 ^ copy.v3
        // The reference output is `first` then `second`, each little-endian; read as a 128-bit
        // big-endian number that is first.byteSwapped, second.byteSwapped.
        return StableDigest(high: first.byteSwapped, low: second.byteSwapped)
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
