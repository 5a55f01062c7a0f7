import Foundation

/// The bytes a render is stored as remotely: a header that names its key and checks its content,
/// then the PNG (which keeps the scale and cap insets in its text chunks).
///
/// ```
/// "RKRO"            4 bytes, magic
/// version           1 byte  (1)
/// key digest        16 bytes, big-endian high then low
/// checksum          8 bytes, big-endian: SipHash of digest, children and PNG (first 64 bits)
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
    static let version: UInt8 = 1
    static let headerSize = 4 + 1 + 16 + 8 + 4

    /// A render as one object.
    static func encode(digest: StableDigest, png: Data, children: [ComponentVersion]) -> Data {
        let childrenJSON = Data((DiskCacheChildren.encode(children) ?? "").utf8)
        var data = Data(capacity: headerSize + childrenJSON.count + 4 + png.count)
        data.append(contentsOf: magic)
        data.append(version)
        append(digest.high, to: &data)
        append(digest.low, to: &data)
        append(checksum(digest: digest, children: childrenJSON, png: png), to: &data)
        append(UInt32(childrenJSON.count), to: &data)
        data.append(childrenJSON)
        append(UInt32(png.count), to: &data)
        data.append(png)
        return data
    }

    /// A verified object's PNG and children, or nil when it is not a whole, intact object of
    /// `digest`.
    static func decode(_ object: Data, digest: StableDigest) -> (png: Data, children: [ComponentVersion])? {
        let bytes = [UInt8](object)
        guard bytes.count >= headerSize + 4, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        var offset = 5
        let high = read64(bytes, &offset), low = read64(bytes, &offset)
        guard high == digest.high, low == digest.low else { return nil }
        let expected = read64(bytes, &offset)
        let childrenCount = Int(read32(bytes, &offset))
        guard bytes.count - offset >= childrenCount + 4 else { return nil }
        let childrenJSON = Data(bytes[offset..<offset + childrenCount])
        offset += childrenCount
        let pngCount = Int(read32(bytes, &offset))
        guard bytes.count - offset == pngCount, pngCount > 0 else { return nil }
        let png = Data(bytes[offset...])
        guard checksum(digest: digest, children: childrenJSON, png: png) == expected else { return nil }
        let text = childrenJSON.isEmpty ? nil : String(decoding: childrenJSON, as: UTF8.self)
        guard let children = DiskCacheChildren.decode(text) else { return nil }
        return (png, children)
    }

    static func checksum(digest: StableDigest, children: Data, png: Data) -> UInt64 {
        var hasher = SipHash128()
        hasher.write(digest.high)
        hasher.write(digest.low)
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
