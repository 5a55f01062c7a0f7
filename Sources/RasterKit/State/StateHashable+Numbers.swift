// The standard library's values whose storage is a builtin type that key plans cannot read
// (`Builtin.Int128`, `Builtin.FPIEEE16`, `Builtin.Vec4xFPIEEE32`, …): each writes its own value.

extension Int128: StateHashable {
    /// Writes an `Int128` tag, then the low and high 64 bits.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .int128)
        hasher.write(UInt64(truncatingIfNeeded: self))
        hasher.write(UInt64(truncatingIfNeeded: self >> 64))
    }
}

extension UInt128: StateHashable {
    /// Writes a `UInt128` tag, then the low and high 64 bits.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .uint128)
        hasher.write(UInt64(truncatingIfNeeded: self))
        hasher.write(UInt64(truncatingIfNeeded: self >> 64))
    }
}

extension Float16: StateHashable {
    /// Writes a `Float16` tag, then the value widened to `Double` (exactly), with `-0.0` as `0.0`
    /// and every NaN as one NaN.
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .float16)
        hasher.write(Double(self))
    }
}

#if arch(x86_64) || arch(i386)
extension Float80: StateHashable {
    /// Writes a `Float80` tag, then its sign, exponent and significand bits, with `-0.0` as `0.0`
    /// and every NaN as one NaN (widening to `Double` would lose bits).
    public func hashState(into hasher: inout StateHasher) {
        hasher.write(tag: .float80)
        let canonical: Float80 = isNaN ? .nan : (self == 0 ? 0 : self)
        hasher.write(canonical.sign == .minus ? 1 as UInt64 : 0)
        hasher.write(UInt64(canonical.exponentBitPattern))
        hasher.write(canonical.significandBitPattern)
    }
}
#endif

extension StaticString: StateHashable {
    /// Writes the same as the equal `String` (its storage holds an address, which differs
    /// between processes).
    public func hashState(into hasher: inout StateHasher) { description.hashState(into: &hasher) }
}

extension StateHasher {
    /// A SIMD vector: its lane count, then each lane.
    mutating func writeLanes<Vector: SIMD>(of vector: Vector) where Vector.Scalar: StateHashable {
        write(tag: .simd)
        write(vector.scalarCount)
        for index in vector.indices { vector[index].hashState(into: &self) }
    }
}

extension SIMD2: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}

extension SIMD3: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}

extension SIMD4: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}

extension SIMD8: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}

extension SIMD16: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}

extension SIMD32: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}

extension SIMD64: StateHashable where Scalar: StateHashable {
    /// Writes a SIMD tag and the lane count, then each lane.
    public func hashState(into hasher: inout StateHasher) { hasher.writeLanes(of: self) }
}
