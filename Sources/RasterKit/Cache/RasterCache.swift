import Foundation

/// The cache a ``Rasterizer`` serves from: a memory LRU in front of an optional persistent
/// store (a ``RenderStore``: RasterKit's is ``DiskCache``), and an optional remote store shared
/// by several machines under that. A request looks in memory, then on disk, then remotely, then
/// draws; a disk hit is kept in memory, a remote hit in memory and on disk, and a drawn render
/// goes to memory and disk at once and to the remote store in the background.
///
/// ```swift
/// let cache = RasterCache(memoryLimit: 64 << 20)
/// let persistent = RasterCache(memoryLimit: 64 << 20, disk: try DiskCache(at: url))
/// let shared = RasterCache(memoryLimit: 64 << 20, disk: try DiskCache(at: url), remote: RemoteCache(url: server))
/// ```
///
/// The cache counts nothing itself: what requests were served from where is
/// ``Rasterizer/statistics`` (the one owner of render counts), and each tier reports its own
/// (``MemoryCache/statistics``, ``DiskCache/statistics``).
public final class RasterCache: Sendable {
    /// The in-memory tier.
    public let memory: MemoryCache
    /// The persistent tier, or nil to keep renders in memory only.
    public let disk: (any RenderStore)?
    /// The shared tier under the disk store, or nil.
    let remoteTier: RemoteTier?

    /// - Parameters:
    ///   - memoryLimit: bytes of pixels kept in memory (default 64 MiB).
    ///   - disk: the persistent store renders are also read from and written to (default none):
    ///     a ``DiskCache``, or any other ``RenderStore``. What it returns is checked against each
    ///     key before it is used.
    ///   - remote: a store shared with other machines, asked after a disk miss and before a draw;
    ///     fresh renders are uploaded to it in the background (default none). Its faults never
    ///     fail a render: they are counted in ``remoteStatistics`` and drawn around.
    ///   - remoteOptions: the remote tier's circuit breaker and upload queue.
    ///   - respondsToMemoryPressure: trim the memory tier when the process's cgroup reports
    ///     memory pressure (see ``handleMemoryPressure(level:)``); default true.
    public init(memoryLimit: Int = 64 << 20, disk: (any RenderStore)? = nil, remote: (any RemoteStore)? = nil,
                remoteOptions: RemoteCacheOptions = RemoteCacheOptions(), respondsToMemoryPressure: Bool = true) {
        memory = MemoryCache(costLimit: memoryLimit)
        self.disk = disk
        remoteTier = remote.map { RemoteTier(store: $0, options: remoteOptions) }
        if respondsToMemoryPressure { MemoryPressureRegistry.shared.register(self) }
    }

    /// A cache over a given memory tier (tests give one with their own clock).
    init(memory: MemoryCache, disk: (any RenderStore)?, remote: RemoteTier? = nil) {
        self.memory = memory
        self.disk = disk
        remoteTier = remote
    }

    /// The persistent tier when it is RasterKit's own SQLite store, which batches also keep their
    /// run records and written files in; nil without one, or with another kind of store.
    package var diskCache: DiskCache? { disk as? DiskCache }

    /// The remote store, or nil.
    public var remote: (any RemoteStore)? { remoteTier?.store }

    /// What the remote tier has done, or nil without a remote store.
    public var remoteStatistics: RemoteCacheStatistics? { remoteTier?.statistics }

    /// Waits until the renders queued for the remote store are uploaded (or dropped), for at
    /// most `timeout` seconds; call it before the process exits. Returns false when some were
    /// still waiting then. Returns true at once without a remote store.
    @discardableResult
    public func flushUploads(timeout: Double = 10) -> Bool {
        remoteTier?.flush(timeout: timeout) ?? true
    }

    /// Drops every image held in memory. The disk store keeps its entries: see
    /// ``DiskCache/removeAll()``.
    public func removeAll() {
        memory.removeAll()
    }

    /// Writes every render pending for the disk store now, and returns once they are committed.
    /// Call it before the process exits. Does nothing without a disk store.
    public func flush() throws {
        try disk?.flush()
    }

    /// Starts writing every render pending for the disk store, and returns at once (see
    /// ``DiskCache/startWriting()``); ``flush()`` waits for it. Does nothing without a disk store.
    public func startWritingToDisk() {
        disk?.startWriting()
    }

    /// The stored render for `key`, promoted to memory unless `promoting` is false, or nil when
    /// the disk has none (or has one that is not `expected`, which it then discards).
    func diskHit(for key: CacheKey, expecting expected: ExpectedRender, promoting: Bool = true) -> VerifiedRender? {
        guard let disk, let hit = disk.verifiedRender(for: key, expecting: expected) else { return nil }
        if promoting { memory.insert(hit.image, children: hit.children, for: key) }
        return hit
    }

    /// The render stored remotely for `key`, verified (and `expected`), or nil. A hit is queued
    /// for the disk store (its PNG kept, not encoded again) when `storingOnDisk`, for `lifetime`
    /// seconds.
    func remoteHit(for key: CacheKey, expecting expected: ExpectedRender, storingOnDisk: Bool,
                   lifetime: Double?) -> (hit: VerifiedRender, png: Data, encoding: String?)? {
        guard let remoteTier, let (hit, png, encoding) = remoteTier.hit(for: key, expecting: expected) else { return nil }
        if storingOnDisk {
            disk?.store(StoredRender(image: hit.image, png: png, pngEncoding: encoding, children: hit.children), for: key,
                        lifetime: lifetime)
        }
        return (hit, png, encoding)
    }

    /// Starts a run that will hand its keys to ``prefetchFromRemote(_:)``: call it before the
    /// run's first lookup, so a lookup that runs ahead of the keys handed over is not fetched
    /// twice. Nothing without a remote store.
    package func beginRemotePrefetch() {
        remoteTier?.beginPrefetch()
    }

    /// Starts fetching from the remote store, many at once and in order, the renders of `keys`
    /// that neither memory nor the disk store holds: a run that knows what it will look up
    /// (a batch) then finds each one fetched instead of waiting a round trip per lookup.
    /// Returns once they are queued; nothing without a remote store. Call
    /// ``endRemotePrefetch()`` when the run is over.
    package func prefetchFromRemote(_ keys: some Sequence<CacheKey>) {
        // While the store is failing nothing is fetched ahead, so nothing is looked up for it.
        guard let remoteTier, !remoteTier.breaker.isOpen else { return }
        let wanted = keys.filter { !memory.contains($0) && !(disk?.contains($0) ?? false) }.map(\.value)
        if !wanted.isEmpty { remoteTier.prefetch(wanted) }
    }

    /// Drops remote objects fetched ahead and not looked up (see ``prefetchFromRemote(_:)``).
    package func endRemotePrefetch() {
        remoteTier?.endPrefetch()
    }

    /// The PNG the remote store holds for `key` when those bytes are exactly what the encoder named
    /// `encoding` writes (a batch writes them to its file as they are), queued for the disk store
    /// without decoding them; nil otherwise. An object in another encoding is decoded and kept in
    /// memory and on disk like any remote hit, so the render that follows finds it there.
    ///
    /// Decoding is what a remote hit cost most: a batch served by the remote store spent a fifth
    /// of its time inflating PNGs only to keep their pixels. The object is still verified (its
    /// key digest and checksum cover every byte of the PNG). Only renders with the store's
    /// default lifetime are ever uploaded, so that is the lifetime it is kept with.
    package func remotePNG(for key: CacheKey, encoding: String, expecting expected: ExpectedRender) -> Data? {
        // A render this process holds (drawn inside another, or looked up already) is not asked for.
        guard let remoteTier, !memory.contains(key), !(disk?.contains(key) ?? false),
              let contents = remoteTier.object(for: key, expecting: expected) else { return nil }
        if contents.encoding == encoding {
            // Its header has been read and checked with the object.
            disk?.store(StoredRender(png: contents.png, pngEncoding: encoding, children: contents.children), for: key,
                        lifetime: nil)
            remoteTier.countHit()
            return contents.png
        }
        guard let image = remoteTier.decoded(contents, for: key, expecting: expected) else { return nil }
        memory.insert(image, children: contents.children, for: key)
        disk?.store(StoredRender(image: image, png: contents.png, pngEncoding: contents.encoding, children: contents.children),
                    for: key, lifetime: nil)
        return nil
    }

    /// Hands the remote tier the PNG a batch wrote for the render of `key` (`encoding`: its
    /// encoder's name), for the upload still queued for it; nothing without a remote tier.
    package func offerToRemote(_ png: Data, encoding: String, for key: CacheKey) {
        remoteTier?.offer(png, encoding: encoding, for: key)
    }

    /// Keeps a render just drawn in memory and hands it to the disk store's writer, each only
    /// when `tiers` includes it; with the disk tier, also to the remote uploader, unless it has a
    /// lifetime of its own (the remote store keeps renders until its own eviction).
    func storeDrawn(_ image: RasterImage, for key: CacheKey, children: [ComponentVersion], lifetime: Double?,
                    in tiers: CacheTiers = .all) {
        if tiers.contains(.memory) { memory.insert(image, children: children, for: key) }
        if tiers.contains(.disk) {
            disk?.store(StoredRender(image: image, children: children), for: key, lifetime: lifetime)
            if lifetime == nil { remoteTier?.upload(image, for: key, children: children) }
        }
    }
}
