import Foundation

/// The SQLite database behind a ``DiskCache``, in WAL mode: one connection that writes, used by
/// one caller at a time, and read-only connections of its own for the lookups renders make
/// (``DiskCacheReader``). Every statement the cache runs is in this file and its extensions, all
/// through ``SQLiteConnection``.
final class DiskCacheStore: Sendable {
    let path: String
    /// Serves the lookups renders make and the store's other reads.
    let reader: DiskCacheReader
    let options: DiskCacheOptions
    /// The connection that writes; nil once closed. Its lock is held for a whole transaction,
    /// so writes are serialized here as SQLite would serialize them anyway.
    private let writer: Lock<Writer?>

    /// The writing connection and what has been done with it.
    private final class Writer: @unchecked Sendable {
        let connection: SQLiteConnection
        /// Whether the writer's settings (``writerPragmas(_:)``) are made: on its first write,
        /// not at open, so a run that only looks renders up changes nothing in the file.
        var isPrepared = false
        /// Whether a transaction was committed through it, so a checkpoint has work.
        var hasWritten = false

        init(_ connection: SQLiteConnection) { self.connection = connection }
    }

    private init(path: String, options: DiskCacheOptions, connection: SQLiteConnection) {
        self.path = path
        self.options = options
        writer = Lock(Writer(connection))
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
            // Inspected first, before anything is set or written: a foreign database must not
            // be switched to WAL mode before we can tell it is not ours. Its reads take the
            // usual locks, so a store another process is creating or migrating is read whole,
            // before or after.
            let connection = try SQLiteConnection(path, mode: .readWrite, busyTimeout: options.busyTimeout)
            let isMigrated = try DiskCacheSchema.check(try DiskCacheSchema.layout(of: connection))
            let store = DiskCacheStore(path: path, options: options, connection: connection)
            // Migrations only ever get applied, so a store that had them all still has them.
            if !isMigrated {
                do {
                    // The migrations take the write lock in a transaction of their own.
                    try store.writingWithoutTransaction(operation: .open) { try DiskCacheSchema.migrate($0) }
                } catch {
                    try? store.close()
                    throw error
                }
            }
            return store
        } catch let failure as SQLiteFailure where failure.isDamage {
            throw DiskCacheSchema.Damage.corrupt(failure.description)
        } catch let error as DiskCacheError where SQLiteFailure.isDamage(error.resultCode) {
            throw DiskCacheSchema.Damage.corrupt("SQLite error \(error.resultCode): \(error.message)")
        } catch let damage as DiskCacheSchema.Damage {
            throw damage
        } catch {
            throw DiskCacheError.wrapping(error, operation: .open, path: path)
        }
    }

    /// The settings of the connection that writes, made before its first transaction.
    static func writerPragmas(_ options: DiskCacheOptions) -> [String] {
        [
            // Several processes share a store: readers never wait for the writer.
            "PRAGMA journal_mode = WAL",
            // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a power cut
            // can lose the last batches (renders that are simply drawn again) but never leaves
            // a damaged file or a partial entry. FULL would make every batch wait for the disk.
            "PRAGMA synchronous = NORMAL",
            // Only takes effect on a new, empty file; lets prune and clear give pages back.
            "PRAGMA auto_vacuum = INCREMENTAL",
            // After a checkpoint, a WAL grown by a large batch is cut back to 4 MiB.
            "PRAGMA journal_size_limit = 4194304",
            // Bytes kept beside an entry go with it (`encoded_outputs` references `entries`).
            "PRAGMA foreign_keys = ON",
            // Touches and deletions look entries up as lookups do: through the file's mapping.
            "PRAGMA mmap_size = \(mappedBytes)",
        ] + (options.maximumPageCount.map { ["PRAGMA max_page_count = \($0)"] } ?? [])
    }

    /// How much of the file lookups read through a memory mapping.
    static let mappedBytes = 256 << 20

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`, which waits out other processes'
    /// writers for the busy timeout), rolling back when it throws. Failures are reported as
    /// ``DiskCacheError`` of `operation`.
    @discardableResult
    func writing<T: Sendable>(operation: DiskCacheError.Operation = .write, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try withWriter(operation: operation) { connection in
            try connection.transaction(immediate: true) { try body(connection) }
        }
    }

    /// Runs `body` on the writing connection outside a transaction, for statements that cannot
    /// run inside one (`VACUUM INTO`, `PRAGMA incremental_vacuum`).
    @discardableResult
    func writingWithoutTransaction<T: Sendable>(operation: DiskCacheError.Operation = .write,
                                                _ body: (SQLiteConnection) throws -> T) throws -> T {
        try withWriter(operation: operation, body)
    }

    private func withWriter<T: Sendable>(operation: DiskCacheError.Operation, _ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try writer.withLock { writer in
                guard let writer else { throw DiskCacheError.closed(path: path, operation: operation) }
                if !writer.isPrepared {
                    for pragma in Self.writerPragmas(options) { try writer.connection.execute(pragma) }
                    writer.isPrepared = true
                }
                defer { writer.hasWritten = true }
                return try body(writer.connection)
            }
        } catch {
            throw DiskCacheError.wrapping(error, operation: operation, path: path)
        }
    }

    /// Runs `body` on a read-only connection (see ``DiskCacheReader/withConnection(_:)``),
    /// turning failures into ``DiskCacheError``.
    func reading<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do { return try reader.withConnection { try body($0.connection) } } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }

    /// Copies committed pages from the WAL into the database file without waiting for readers,
    /// when this store has written: lookups read them through the file's mapping, and the next
    /// open has little to replay (the last connection to close is a reader, which cannot
    /// checkpoint).
    func checkpoint() {
        writer.withLock { writer in
            guard let writer, writer.hasWritten else { return }
            try? writer.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    func close() throws {
        let closing = writer.withLock { writer in
            defer { writer = nil }
            return writer
        }
        // The last connection to close a WAL database checkpoints it and deletes its `-wal` and
        // `-shm`. A store that wrote closes its writer last, so the file alone then holds
        // everything (what a CI cache that keeps only it needs). One that only read closes the
        // writer first: the readers, read-only, leave the WAL in place, and the next process
        // need not create it again.
        if closing?.hasWritten == true {
            reader.close()
            closing?.connection.close()
        } else {
            closing?.connection.close()
            reader.close()
        }
    }
}
