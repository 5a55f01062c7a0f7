/// A digest of a bitmap's pixels, for golden lockfiles: two bitmaps have the same digest when
/// they have the same size and the same straight RGBA bytes, whatever PNG they were decoded from.
extension RGBABitmap {
    /// The digest of the size and the RGBA bytes, under a name of its own so it is never equal
    /// to a render's key digest by construction of its input.
    package var pixelDigest: StableDigest {
        var hasher = SipHash128()
        for byte in "rasterkit.golden-pixels.1".utf8 { hasher.write(byte) }
        hasher.write(UInt64(width))
        hasher.write(UInt64(height))
        withUnsafeBytes { hasher.write(UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}
