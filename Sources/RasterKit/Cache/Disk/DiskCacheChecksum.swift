import Foundation

/// The checksum stored with each entry: SipHash of the entry's key digest followed by its PNG
/// bytes, first 64 bits. It catches what decoding cannot: libpng drops an ancillary chunk whose
/// CRC is wrong, so a damaged `rasterkit:scale` or `rasterkit:cap-insets` chunk decodes as a
/// render without it; and because the digest is hashed too, a valid PNG moved to another
/// entry's row does not match there. Not a defence against someone forging entries (the key is
/// public), only against damage and mix-ups.
package enum DiskCacheChecksum {
    package static func of(digest: StableDigest, png: Data) -> Int64 {
        var hasher = SipHash128()
        hasher.write(digest.high)
        hasher.write(digest.low)
        png.withUnsafeBytes { hasher.write($0) }
        return Int64(bitPattern: hasher.finalize().high)
    }

    /// The checksum of bytes kept beside an entry (see `DiskCache+EncodedOutputs`): the key's
    /// digest, the encoder's identifier and the bytes, so kept bytes moved to another entry or
    /// another encoding do not match there.
    package static func of(digest: StableDigest, encoding: String, bytes: Data) -> Int64 {
        var hasher = SipHash128()
        hasher.write(digest.high)
        hasher.write(digest.low)
        var name = encoding
        name.withUTF8 { hasher.write(UnsafeRawBufferPointer($0)) }
        hasher.write(UInt64(name.utf8.count))
        bytes.withUnsafeBytes { hasher.write($0) }
        return Int64(bitPattern: hasher.finalize().high)
    }
}
