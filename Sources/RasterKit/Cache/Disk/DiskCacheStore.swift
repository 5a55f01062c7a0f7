import Foundation
internal import GRDB
internal import GRDBSQLite

/// The SQLite database behind a ``DiskCache``: a GRDB pool in WAL mode whose one writer
/// connection belongs to the cache's writer queue, and read-only connections of its own for the
/// lookups renders make. Every statement the cache runs is in this file and its extensions.
final class DiskCacheStore: Sendable {
    let path: String
    /// Serves the lookups renders make, off GRDB's dispatch (see ``DiskCacheReader``).
    let reader: DiskCacheReader
    let options: DiskCacheOptions
    private let connection: Lock<Connection>

    /// The GRDB pool, opened when first needed: by a write, a maintenance query or a migration.
    /// A run that only looks renders up (a warm batch) never sets one up, which is most of what
    /// opening a store cost: GRDB checks the WAL file, prepares each connection and registers
    /// functions and collations, about a millisecond, and removes observers when it closes.
    enum Connection {
        /// Not opened yet. The connection the store was inspected through stays open until the
        /// pool is, so the database never has no connection in between: the last connection to
        /// close a WAL database checkpoints it and deletes its `-wal` and `-shm` files, which
        /// the next connection would create again.
        case deferred(DiskCacheInspector)
        case open(DatabasePool)
        case closed
    }

    private init(path: String, options: DiskCacheOptions, inspector: consuming sending DiskCacheInspector) {
        self.path = path
        self.options = options
        connection = Lock(.deferred(inspector))
        reader = DiskCacheReader(path: path, busyTimeout: options.busyTimeout)
    }

    /// Opens (or creates) the store at `url` and brings its schema up to date. Throws
    /// ``DiskCacheSchema/Damage`` for a file that cannot be used as it is, ``DiskCacheError``
    /// for anything else (a missing directory, no permission, a lock held too long).
    static func open(at url: URL, options: DiskCacheOptions) throws -> DiskCacheStore {
        // Two processes creating one store at once can each hold a shared lock the other's
        // switch to WAL mode needs: SQLite then answers one of them "busy" at once, without
        // waiting, to break the deadlock. That one opens again, for as long as it would wait
        // for any other lock.
        try DiskCacheContention.retrying(for: options.busyTimeout, while: { ($0 as? DiskCacheError)?.isContention == true }) {
            try openOnce(at: url, options: options)
        }
    }

    private static func openOnce(at url: URL, options: DiskCacheOptions) throws -> DiskCacheStore {
        let path = url.path
        do {
            // Inspected first through a plain SQLite connection, which changes nothing: the pool
            // would switch a foreign database to WAL mode before we could tell it is not ours.
            // (Not a GRDB queue: setting one up is a millisecond of every run's start.)
            let inspector = try DiskCacheInspector(openingForWriting: url, busyTimeout: options.busyTimeout)
            let isMigrated = try DiskCacheSchema.check(try inspector.layout())
            let store = DiskCacheStore(path: path, options: options, inspector: inspector)
            // Migrations only ever get applied, so a store that had them all still has them.
            if !isMigrated {
                do {
                    try DiskCacheSchema.migrate(try store.pool, patience: options.busyTimeout)
                } catch {
                    try? store.close()
                    throw error
                }
            }
            return store
        } catch let error as DatabaseError where isDamage(error) {
            throw DiskCacheSchema.Damage.corrupt("SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "")")
        } catch let error as DiskCacheError where isDamage(error.resultCode) {
            throw DiskCacheSchema.Damage.corrupt("SQLite error \(error.resultCode): \(error.message)")
        } catch let damage as DiskCacheSchema.Damage {
            throw damage
        } catch {
            throw DiskCacheError.wrapping(error, operation: .open, path: path)
        }
    }

    /// The GRDB pool, opened on first use; throws what opening it throws, or
    /// ``DiskCacheError/closed(path:operation:)`` after ``close()``.
    var pool: DatabasePool {
        get throws {
            try connection.withLock { state in
                switch state {
                case .open(let pool):
                    return pool
                case .closed:
                    throw DiskCacheError.closed(path: path, operation: .open)
                case .deferred(let inspector):
                    let pool = try withExtendedLifetime(inspector) {
                        try DatabasePool(path: path, configuration: Self.configuration(options))
                    }
                    state = .open(pool)
                    return pool
                }
            }
        }
    }

    private static func configuration(_ options: DiskCacheOptions) -> Configuration {
        var configuration = Configuration()
        configuration.label = "RasterKit.DiskCache"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.maximumReaderCount = max(1, options.readerCount)
        let writerPragmas = Self.writerPragmas(options)
        configuration.prepareDatabase { db in
            // Lookups read pages straight from a mapping of the file instead of through a
            // read(2) per page: most of what makes small blobs faster here than in files.
            try db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)")
            guard !db.configuration.readonly else { return }
            for pragma in writerPragmas { try db.execute(sql: pragma) }
        }
        return configuration
    }

    /// The settings of every connection that writes: the pool's writer and the plain one of
    /// ``writingPlainly(_:)``.
    static func writerPragmas(_ options: DiskCacheOptions) -> [String] {
        [
            // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a power cut
            // can lose the last batches (renders that are simply drawn again) but never leaves
            // a damaged file or a partial entry. FULL would make every batch wait for the disk.
            "PRAGMA synchronous = NORMAL",
            // Only takes effect on a new, empty file; lets prune and clear give pages back.
            "PRAGMA auto_vacuum = INCREMENTAL",
            // After a checkpoint, a WAL grown by a large batch is cut back to 4 MiB.
            "PRAGMA journal_size_limit = 4194304",
        ] + (options.maximumPageCount.map { ["PRAGMA max_page_count = \($0)"] } ?? [])
    }

    /// How much of the file lookups read through a memory mapping.
    static let mappedBytes = 256 << 20

    /// Errors that mean the file's content is unusable, rather than that it could not be reached.
    private static func isDamage(_ error: DatabaseError) -> Bool {
        isDamage(error.resultCode.rawValue)
    }

    /// Whether an SQLite result code (primary or extended) says the file is damaged.
    private static func isDamage(_ resultCode: Int32) -> Bool {
        [SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FORMAT].contains(resultCode & 0xFF)
    }

    /// Runs `body` with the state of the store's connection, under its lock.
    func withConnectionState<T: Sendable>(_ body: (inout Connection) throws -> T) rethrows -> T {
        try connection.withLock(body)
    }

    /// The pool when it has been opened; nil while nothing needed it.
    var openedPool: DatabasePool? {
        connection.withLock { state in
            if case .open(let pool) = state { return pool }
            return nil
        }
    }

    func close() throws {
        let pool: DatabasePool? = connection.withLock { state in
            defer { state = .closed }
            if case .open(let pool) = state { return pool }
            // A pool never opened: the inspecting connection closes here, before the readers,
            // so the last connection to close is a read-only one, as when a pool closes.
            return nil
        }
        reader.close()
        do { try pool?.close() } catch { throw DiskCacheError.wrapping(error, operation: .close, path: path) }
    }

    /// Runs `body` on a reader connection, turning failures into ``DiskCacheError``.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        // A single statement needs no snapshot, so no transaction is opened around it.
        do { return try pool.unsafeRead(body) } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }

    /// Runs `body` in one write transaction, turning failures into ``DiskCacheError``.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.write(body) } catch {
            throw DiskCacheError.wrapping(error, operation: .write, path: path)
        }
    }
}
