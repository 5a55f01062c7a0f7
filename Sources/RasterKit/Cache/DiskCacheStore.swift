import Foundation
internal import GRDB
internal import GRDBSQLite

/// The SQLite database behind a ``DiskCache``: a GRDB pool in WAL mode whose one writer
/// connection belongs to the cache's writer queue and whose readers serve lookups from any
/// thread. Every statement the cache runs is in this file and its extensions.
final class DiskCacheStore: Sendable {
    let path: String
    let pool: DatabasePool
    /// Serves the lookups renders make, off GRDB's dispatch (see ``DiskCacheReader``).
    let reader: DiskCacheReader

    private init(path: String, pool: DatabasePool, reader: DiskCacheReader) {
        self.path = path
        self.pool = pool
        self.reader = reader
    }

    /// Opens (or creates) the store at `url` and brings its schema up to date. Throws
    /// ``DiskCacheSchema/Damage`` for a file that cannot be used as it is, ``DiskCacheError``
    /// for anything else (a missing directory, no permission, a lock held too long).
    static func open(at url: URL, options: DiskCacheOptions) throws -> DiskCacheStore {
        let path = url.path
        do {
            // Inspected first through a plain SQLite connection, which changes nothing: the pool
            // would switch a foreign database to WAL mode before we could tell it is not ours.
            // (Not a GRDB queue: setting one up is a millisecond of every run's start.)
            let inspector = try DiskCacheInspector(openingForWriting: url, busyTimeout: options.busyTimeout)
            let isMigrated = try DiskCacheSchema.check(try inspector.layout())
            // The inspector stays open until the pool is: the last connection to close a WAL
            // database checkpoints it and deletes its `-wal` and `-shm` files (three syncs), which
            // the pool would then create again (two more), all before the first lookup.
            let pool = try withExtendedLifetime(inspector) {
                try DatabasePool(path: path, configuration: configuration(options))
            }
            // Migrations only ever get applied, so a store that had them all still has them.
            if !isMigrated {
                do {
                    try DiskCacheSchema.migrate(pool)
                } catch {
                    try? pool.close()
                    throw error
                }
            }
            return DiskCacheStore(path: path, pool: pool, reader: DiskCacheReader(path: path, busyTimeout: options.busyTimeout))
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

    private static func configuration(_ options: DiskCacheOptions) -> Configuration {
        var configuration = Configuration()
        configuration.label = "RasterKit.DiskCache"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.maximumReaderCount = max(1, options.readerCount)
        let maximumPageCount = options.maximumPageCount
        configuration.prepareDatabase { db in
            // Lookups read pages straight from a mapping of the file instead of through a
            // read(2) per page: most of what makes small blobs faster here than in files.
            try db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)")
            guard !db.configuration.readonly else { return }
            // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a power cut
            // can lose the last batches (renders that are simply drawn again) but never leaves
            // a damaged file or a partial entry. FULL would make every batch wait for the disk.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Only takes effect on a new, empty file; lets prune and clear give pages back.
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            // After a checkpoint, a WAL grown by a large batch is cut back to 4 MiB.
            try db.execute(sql: "PRAGMA journal_size_limit = 4194304")
            if let maximumPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maximumPageCount)") }
        }
        return configuration
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

    func close() throws {
        reader.close()
        do { try pool.close() } catch { throw DiskCacheError.wrapping(error, operation: .close, path: path) }
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
