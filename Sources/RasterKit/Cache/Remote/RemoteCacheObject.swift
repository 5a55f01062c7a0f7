import Foundation

/// The bytes a render is stored as remotely: a header that names its key and checks its content,
/// then the PNG (which keeps the scale and cap insets in its text chunks).
///
/// ```
/// "RKRO"            4 bytes, magic
/// version           1 byte  (2; 1 has no encoding field and is still read)
/// key digest        16 bytes, big-endian high then low
/// checksum          8 bytes, big-endian: SipHash of digest, encoding, children and PNG (first 64 bits)
/// encoding length   1 byte (version 2 only); then that many bytes of UTF-8: the name of the PNG's
///                   encoding when it is a batch encoder's exact bytes ("png1"), empty otherwise
/// children length   4 bytes, big-endian; then that many bytes of JSON (the nested components'
///                   render versions, as the disk store keeps them), possibly 0
/// PNG length        4 bytes, big-endian; then exactly that many bytes of PNG
/// ```
///
/// An object is served only when every length matches the bytes received (a truncated body
/// fails), the digest is the one asked for (a foreign object fails), the checksum matches (a
/// damaged one fails) and the PNG decodes. Like the disk store's checksum it guards against
/// damage and mix-ups, not forgery: whoever may write to the remote store is trusted.
enum RemoteCacheObject {
    static let magic: [UInt8] = Array("RKRO".utf8)
    static let version: UInt8 = 2
    static let headerSize = 4 + 1 + 16 + 8 + 4

    /// A verified object's contents.
    struct Contents {
        var png: Data
        var children: [ComponentVersion]
        /// The PNG's encoding when the uploader knew it (`png1`: RasterKit's own PNG of the
        /// render, byte for byte what a batch writes); nil for its quick encoding.
        var encoding: String?
    }

    /// A render as one object; `encoding` names the PNG's bytes when they are a batch encoder's.
    static func encode(digest: StableDigest, png: Data, children: [ComponentVersion], encoding: String? = nil) -> Data {
        let childrenJSON = Data((DiskCacheChildren.encode(children) ?? "").utf8)
        let encodingName = Data((encoding ?? "").utf8.prefix(255))
        var data = Data(capacity: headerSize + 1 + encodingName.count + childrenJSON.count + 4 + png.count)
        data.append(contentsOf: magic)
        data.append(version)
        append(digest.high, to: &data)
        append(digest.low, to: &data)
        append(checksum(digest: digest, encoding: encodingName, children: childrenJSON, png: png), to: &data)
        data.append(UInt8(encodingName.count))
        data.append(encodingName)
        append(UInt32(childrenJSON.count), to: &data)
        data.append(childrenJSON)
        append(UInt32(png.count), to: &data)
        data.append(png)
        return data
    }

    /// A verified object's PNG, children and encoding, or nil when it is not a whole, intact
    /// object of `digest`. Objects of version 1 (no encoding) are read too.
    static func decode(_ object: Data, digest: StableDigest) -> Contents? {
        let bytes = [UInt8](object)
        guard bytes.count >= headerSize + 4, Array(bytes[0..<4]) == magic, bytes[4] == 1 || bytes[4] == version else {
            return nil
        }
        let objectVersion = bytes[4]
        var offset = 5
        let high = read64(bytes, &offset), low = read64(bytes, &offset)
        guard high == digest.high, low == digest.low else { return nil }
        let expected = read64(bytes, &offset)
        var encodingName: Data?
        if objectVersion >= 2 {
            let count = Int(bytes[offset])
            offset += 1
            guard bytes.count - offset >= count + 4 else { return nil }
            encodingName = Data(bytes[offset..<offset + count])
            offset += count
        }
        let childrenCount = Int(read32(bytes, &offset))
        guard bytes.count - offset >= childrenCount + 4 else { return nil }
        let childrenJSON = Data(bytes[offset..<offset + childrenCount])
        offset += childrenCount
        let pngCount = Int(read32(bytes, &offset))
        guard bytes.count - offset == pngCount, pngCount > 0 else { return nil }
        let png = Data(bytes[offset...])
        guard checksum(digest: digest, encoding: encodingName, children: childrenJSON, png: png) == expected else { return nil }
        let text = childrenJSON.isEmpty ? nil : String(decoding: childrenJSON, as: UTF8.self)
        guard let children = DiskCacheChildren.decode(text) else { return nil }
        let encoding = encodingName.flatMap { $0.isEmpty ? nil : String(data: $0, encoding: .utf8) }
        return Contents(png: png, children: children, encoding: encoding)
    }

    /// `encoding` is nil for a version-1 object, whose checksum does not cover one.
    static func checksum(digest: StableDigest, encoding: Data?, children: Data, png: Data) -> UInt64 {
        var hasher = SipHash128()
        hasher.write(digest.high)
        hasher.write(digest.low)
        if let encoding {
            hasher.write(UInt64(encoding.count))
            encoding.withUnsafeBytes { hasher.write($0) }
        }
        hasher.write(UInt64(children.count))
        children.withUnsafeBytes { hasher.write($0) }
        png.withUnsafeBytes { hasher.write($0) }
        return hasher.finalize().high
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    private static func read64(_ bytes: [UInt8], _ offset: inout Int) -> UInt64 {
        defer { offset += 8 }
        return bytes[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func read32(_ bytes: [UInt8], _ offset: inout Int) -> UInt32 {
        defer { offset += 4 }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
