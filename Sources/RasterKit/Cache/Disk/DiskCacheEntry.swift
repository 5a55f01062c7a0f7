import Foundation

/// What the store knows about one entry, without its PNG bytes: what ``DiskCache/entries(typeName:)``
/// and ``DiskCache/entries(olderThan:)`` return.
public struct DiskCacheEntryInfo: Hashable, Sendable, Codable {
    /// The key's 128-bit digest as 32 hexadecimal digits (``CacheKey/digest``).
    public var digest: String
    /// The component's fully qualified type name.
    public var typeName: String
    /// The component type's render version when the entry was drawn.
    public var renderVersion: Int
    /// The key's readable description: type, state, size and scale.
    public var keyDescription: String
    /// The render's width in pixels.
    public var pixelWidth: Int
    /// The render's height in pixels.
    public var pixelHeight: Int
    /// Pixels per point.
    public var scale: Double
    /// Nine-slice caps in points, for resizable renders.
    public var capInsets: EdgeInsets?
    /// Bytes of PNG data.
    public var byteSize: Int
    /// When the entry was written.
    public var created: Date
    /// The last lookup that was served from this entry (written in batches, so it may lag a little).
    public var lastAccess: Date
    /// After this the entry is a miss.
    public var expires: Date
    /// The type and render version of every component drawn inside this render.
    public var children: [ComponentVersion]
}

/// A render handed to the writer and not yet committed: lookups in this process are served
/// from it until it is.
struct DiskCachePendingEntry: Sendable {
    let key: CacheKey
    /// The pixels, or nil for a render that came as a PNG (from the remote store) and was
    /// never decoded: `png` then holds it, and a lookup decodes it.
    let image: RasterImage?
    let geometry: StoredRenderGeometry
    /// What it holds in memory, counted against the writer's queue limit.
    let byteCount: Int
    let children: [ComponentVersion]
    /// Unix times, in seconds.
    let created: Double
    let expires: Double
    /// Tells a newer pending render of the same key from this one.
    let sequence: UInt64
    /// Its PNG, when someone else already encoded the pixels (see `DiskCacheWriter.adoptEncoding`).
    var png: Data?
    /// The identifier of the encoder that made `png`, when a batch wrote those bytes to a file.
    var pngEncoding: String?
    /// Whether the batch writing the entry has taken its handed-over PNG: one handed over later
    /// would be lost with the entry's commit, so it is kept like any file's bytes instead.
    var isSealed = false

    /// A render drawn (or decoded) in this process.
    init(key: CacheKey, image: RasterImage, children: [ComponentVersion], created: Double, expires: Double, sequence: UInt64) {
        self.key = key
        self.image = image
        geometry = StoredRenderGeometry(image)
        byteCount = image.byteCount
        self.children = children
        self.created = created
        self.expires = expires
        self.sequence = sequence
    }

    /// A render known only as `png`, made by the encoder named `encoding` (nil: the store's own).
    init(key: CacheKey, png: Data, encoding: String?, geometry: StoredRenderGeometry, children: [ComponentVersion],
         created: Double, expires: Double, sequence: UInt64) {
        self.key = key
        image = nil
        self.geometry = geometry
        byteCount = png.count
        self.children = children
        self.created = created
        self.expires = expires
        self.sequence = sequence
        self.png = png
        pngEncoding = encoding
    }
}

/// An entry to delete because it could not be served: its PNG did not decode, or a child it
/// drew is now at another render version. `created` keeps a replacement written meanwhile, by
/// this or another process, from being deleted with it.
struct DiskCacheDeletion: Sendable, Hashable {
    let digest: StableDigest
    let created: Double
}

extension StableDigest {
    /// The 16 bytes a digest is stored as: `high` then `low`, big-endian, so that stored keys
    /// sort like their hexadecimal form and `hex(digest)` in SQL equals ``CacheKey/digest``.
    var storedBytes: Data { withStoredBytes { Data($0) } }

    /// Runs `body` with the 16 stored bytes in place, for binding them to a statement without
    /// a copy (`SQLITE_STATIC`: they outlive the statement's use of them inside `body`).
    func withStoredBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: (high.bigEndian, low.bigEndian), body)
    }

    /// The row id an entry is stored under: the digest's first 64 bits.
    var storedID: Int64 { Int64(bitPattern: high) }

    init?(storedBytes bytes: Data) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for (offset, byte) in bytes.enumerated() {
            if offset < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }
}
