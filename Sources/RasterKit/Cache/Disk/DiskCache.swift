import Foundation
public import Logging

/// A persistent store of renders in one SQLite file (WAL mode), shared safely by every process
/// that opens it: a render made yesterday, or by another process, is decoded instead of drawn.
///
/// ```swift
/// let disk = try DiskCache(at: URL(fileURLWithPath: "/var/cache/app/renders.sqlite"))
/// let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 64 << 20, disk: disk))
/// let image = try rasterizer.image(for: badge, size: Size(width: 120, height: 32), scale: 2)
/// try rasterizer.cache.flush()   // before exiting: writes are batched in the background
/// ```
///
/// Writes leave the render path at once: a background writer encodes the PNGs and commits them
/// in batches (64 entries or 250 ms, whichever comes first); `flush()`, `close()` and deinit
/// write everything pending, and entries not yet written are still served in this process. A
/// write that fails (disk full, read-only store) is logged and counted in `statistics`, and
/// the render still succeeds. A lookup that fails is a miss.
///
/// Entries expire after `defaultLifetime` (or a component's ``Rasterizable/diskCacheLifetime``),
/// and the least recently used ones are evicted to keep PNG bytes under `byteLimit`. An entry
/// is also a miss, and is replaced, when a component drawn inside it now has another render
/// version (as far as ``ComponentVersions`` knows), when its PNG does not decode, and when a
/// checksum of its key and PNG, or its scale, caps or size, do not match what was stored.
public final class DiskCache: RenderStore {
    /// Thirty days.
    public static let defaultLifetime: TimeInterval = 30 * 24 * 60 * 60
    /// 512 MiB of PNG data.
    public static let defaultByteLimit = 512 << 20

    /// The store's file.
    public let url: URL
    /// The most bytes of PNG data kept; least recently used entries go first.
    public let byteLimit: Int
    /// How long an entry is served when its component does not say otherwise.
    public let defaultLifetime: TimeInterval

    let store: DiskCacheStore
    let writer: DiskCacheWriter
    let counters = DiskCacheCounters()
    let options: DiskCacheOptions
    let isClosed = Lock(false)

    /// Opens the store at `url`, creating it if needed; the directory must exist.
    ///
    /// A RasterKit store that cannot be used (truncated, its header damaged, a newer RasterKit's
    /// schema) is moved aside as `<name>.corrupt-<timestamp>` with a logged warning, and a fresh
    /// store is made; only the newest two such copies are kept.
    /// Any other file is never moved or written: see ``DiskCacheError/isNotAStore``.
    ///
    /// - Throws: ``DiskCacheError`` with SQLite's result code when no store can be opened at
    ///   all: a missing directory, a path that is a directory, no permission to write there, a
    ///   full disk, or another process holding the store locked for longer than the busy timeout.
    ///   With ``DiskCacheError/refusal`` set when the file is not a RasterKit store (another
    ///   program's database, text, a device) or a `-wal`/`-shm`/`-journal` beside it is a link
    ///   SQLite would write through. Rendering without a disk tier is then the caller's choice:
    ///   `RasterCache(disk: try? DiskCache(at: url))`.
    ///
    /// Warnings (a store moved aside, entries that failed their checksum, writes that could not
    /// be made) go to `logger`; pass your application's, as swift-log's convention for libraries
    /// asks. By default they go to a logger labelled `RasterKit.DiskCache`.
    public convenience init(at url: URL, byteLimit: Int = DiskCache.defaultByteLimit,
                            defaultLifetime: TimeInterval = DiskCache.defaultLifetime,
                            logger: Logger = Logger(label: "RasterKit.DiskCache")) throws {
        var options = DiskCacheOptions()
        options.logger = logger
        try self.init(at: url, byteLimit: byteLimit, defaultLifetime: defaultLifetime, options: options)
    }

    init(at url: URL, byteLimit: Int, defaultLifetime: TimeInterval, options: DiskCacheOptions) throws {
        precondition(byteLimit >= 0, "DiskCache byteLimit must not be negative")
        precondition(defaultLifetime > 0, "DiskCache defaultLifetime must be positive")
        self.url = url.standardizedFileURL
        self.byteLimit = byteLimit
        self.defaultLifetime = defaultLifetime
        self.options = options
        store = try DiskCacheStore.openRecovering(at: self.url, options: options)
        writer = DiskCacheWriter(store: store, options: options, byteLimit: byteLimit, counters: counters)
    }

    deinit {
        do { try close() } catch {
            options.logger.error("closing the disk cache failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Lookups and writes

    /// The render stored for `key` (its PNG, or its pixels while it waits to be written), or nil
    /// for a miss: absent, expired, failing its checksum, or drawn with another render version of
    /// a component inside it. Counts a hit or a miss. What it returns is not yet known to be the
    /// key's render: ``RenderStore/image(for:)`` and a ``RasterCache`` check it before using it.
    public func storedRender(for key: CacheKey) -> StoredRender? {
        let now = options.clock()
        if let pending = writer.unwrittenEntry(for: key.value), pending.expires > now {
            counters.withLock { $0.hits += 1 }
            return StoredRender(image: pending.image, png: pending.png, pngEncoding: pending.pngEncoding,
                                children: pending.children, storedAt: pending.created)
        }
        guard let (stored, children) = servableEntry(for: key, now: now) else { return nil }
        counters.withLock { $0.hits += 1 }
        touch(key, stored, now: now)
        return StoredRender(image: nil, png: stored.png, pngEncoding: stored.pngEncoding, children: children,
                            storedAt: stored.created)
    }

    /// The stored PNG bytes for `key`, without decoding or checking them (to serve them as they
    /// are), or nil for a miss. Counts a hit or a miss.
    public func pngData(for key: CacheKey) -> Data? {
        guard let render = storedRender(for: key) else { return nil }
        if let png = render.png { return png }
        return try? render.image?.pngData(compression: .fast)
    }

    /// Whether an unexpired entry for `key` is stored or waiting to be written, without
    /// counting a hit or a miss.
    public func contains(_ key: CacheKey) -> Bool {
        guard !isClosed.withLock({ $0 }) else { return false }
        let now = options.clock()
        if let pending = writer.unwrittenEntry(for: key.value), pending.expires > now { return true }
        return (try? store.containsEntry(for: key.value, now: now)) ?? false
    }

    /// Queues `render` to be stored under `key`, for `lifetime` seconds (default
    /// `defaultLifetime`; 0 or less stores nothing), and returns at once. Its PNG, when it has one,
    /// is stored instead of encoding its pixels again; a render known only by a PNG is stored
    /// without decoding it (its size from the PNG's header, its scale and cap insets from its
    /// text chunks), and one whose header does not read is not stored.
    public func store(_ render: StoredRender, for key: CacheKey, lifetime: TimeInterval?) {
        let lifetime = lifetime ?? defaultLifetime
        guard lifetime > 0, !lifetime.isNaN else { return }
        let created = options.clock()
        // A century stands in for "forever", which SQLite would store as an infinite REAL.
        let expires = created + min(lifetime, 100 * 365 * 24 * 60 * 60)
        if let image = render.image {
            writer.enqueue(key: key, image: image, png: render.png, encoding: render.pngEncoding, children: render.children,
                           created: created, expires: expires)
        } else if let png = render.png {
            guard let geometry = try? StoredRenderGeometry(png: png) else {
                options.logger.warning("not storing a render whose PNG header does not read", metadata: ["key": "\(key)"])
                return
            }
            writer.enqueue(key: key, png: png, encoding: render.pngEncoding, geometry: geometry, children: render.children,
                           created: created, expires: expires)
        }
    }

    /// Removes `render`, found not to be the render of `key`, whether it is written or still
    /// waiting to be, and counts its hit as a miss. A render stored for `key` since (by this
    /// process or another) is kept.
    public func discard(_ render: StoredRender, for key: CacheKey, reason: String) {
        options.logger.warning("removing a stored render whose PNG does not decode or is not the key's render",
                               metadata: ["key": "\(key)", "error": "\(reason)"])
        counters.withLock { $0.decodeFailures += 1; $0.hits = max(0, $0.hits - 1); $0.misses += 1 }
        guard let created = render.storedAt else { return }
        writer.dropUnwritten(digest: key.value, created: created)
        writer.delete(DiskCacheDeletion(digest: key.value, created: created))
    }

    /// Records a hit for the LRU order, unless the stored time is recent enough: a render used
    /// all the time is then written once per `touchInterval`, not once per batch.
    func touch(_ key: CacheKey, _ stored: DiskCacheStore.StoredEntry, now: Double) {
        if now - stored.lastAccess >= options.touchInterval { writer.touch(key.value, at: now) }
    }

    /// The stored entry for `key` when it may be served: present, unexpired, intact (its
    /// checksum matches the key and the PNG), and drawn with the current render version of every child this process knows. Counts a miss otherwise.
    func servableEntry(for key: CacheKey, now: Double) -> (DiskCacheStore.StoredEntry, [ComponentVersion])? {
        let stored: DiskCacheStore.StoredEntry?
        do { stored = try store.reader.entry(for: key.value) } catch let error as DiskCacheError where error.isClosed {
            return nil
        } catch {
            options.logger.warning("disk cache lookup failed; drawing instead", metadata: ["error": "\(error)"])
            counters.withLock { $0.misses += 1; $0.readFailures += 1 }
            return nil
        }
        guard let stored, stored.expires > now else {
            counters.withLock { $0.misses += 1 }
            return nil
        }
        guard hasIntegrity(stored, for: key) else { return nil }
        guard let children = DiskCacheChildren.decode(stored.childrenJSON),
              !ComponentVersions.containsOutdated(children) else {
            // Drawn with an older version of a nested component: it will be redrawn and replaced.
            counters.withLock { $0.misses += 1 }
            writer.delete(DiskCacheDeletion(digest: key.value, created: stored.created))
            return nil
        }
        return (stored, children)
    }

    /// Throws ``DiskCacheError`` when the cache has been closed.
    func checkOpen(_ operation: DiskCacheError.Operation) throws {
        if isClosed.withLock({ $0 }) { throw DiskCacheError.closed(path: url.path, operation: operation) }
    }

    /// Marks the cache closed; returns false when it already was.
    func markClosed() -> Bool {
        isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
    }
}
