import Foundation
internal import GRDB
internal import GRDBSQLite

/// The writes a warm run makes, through SQLite's own calls, so that they never set GRDB's pool
/// up: the first warm run on a store restored in CI notes when each render it serves was last
/// used, and opening the pool for those rows (GRDB checks the WAL through Foundation, prepares
/// the connection and removes observers when it closes) cost that run about 4 ms, a third of it.
extension DiskCacheStore {
    /// Runs `body` in one write transaction on a plain SQLite connection: the pool's writer when
    /// the pool is open, else the connection the store was inspected through (see
    /// `DiskCacheInspector.writing(pragmas:_:)`), with the writer's settings. Failures are
    /// reported as ``DiskCacheError``.
    func writingPlainly<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        do {
            var plainResult: T?
            let pool: DatabasePool? = try withConnectionState { state in
                switch state {
                case .open(let pool):
                    return pool
                case .closed:
                    throw DiskCacheError.closed(path: path, operation: .write)
                case .deferred(let inspector):
                    // Mapped, as the pool's connections are: the touches look each entry up.
                    let pragmas = ["PRAGMA mmap_size = \(Self.mappedBytes)"] + Self.writerPragmas(options)
                    plainResult = try inspector.writing(pragmas: pragmas, body)
                    return nil
                }
            }
            if let plainResult { return plainResult }
            guard let pool else { throw DiskCacheError.closed(path: path, operation: .write) }
            return try pool.write { db in try body(try Self.handle(of: db, path: path)) }
        } catch {
            throw DiskCacheError.wrapping(error, operation: .write, path: path)
        }
    }

    /// Writes last-access times alone, the only writes of a warm run, through
    /// ``writingPlainly(_:)``. With `counting`, first counts the store's PNG bytes, as a full
    /// commit would to enforce `byteLimit`; when they are over it, writes nothing and returns
    /// nil, and the caller commits the batch in full, which prunes.
    func commitTouches(_ touches: [StableDigest: Double], byteLimit: Int, counting: Bool) throws -> CommitResult? {
        try writingPlainly { connection in
            var result = CommitResult()
            if counting {
                let total = try Self.step("SELECT total(byte_size) FROM entries", on: connection, path: path) { statement in
                    Int(sqlite3_column_double(statement, 0))
                }
                guard total <= byteLimit else { return nil }
                result.totalBytes = total
            }
            try Self.touch(touches, on: connection, path: path)
            return result
        }
    }

    /// Writes batched last-access times into `access_times` (see the schema's v5), each only when
    /// later than the one there, for entries that are still stored.
    static func touch(_ touches: [StableDigest: Double], on connection: OpaquePointer, path: String) throws {
        guard !touches.isEmpty else { return }
        let sql = """
            INSERT INTO access_times (id, last_access) SELECT id, ?3 FROM entries WHERE id = ?1 AND digest = ?2
            ON CONFLICT (id) DO UPDATE SET last_access = excluded.last_access WHERE excluded.last_access > last_access
            """
        try withStatement(sql, on: connection, path: path) { statement in
            for (digest, time) in touches {
                let status = digest.withStoredBytes { digestBytes in
                    sqlite3_reset(statement)
                    sqlite3_bind_int64(statement, 1, digest.storedID)
                    sqlite3_bind_blob(statement, 2, digestBytes.baseAddress, Int32(digestBytes.count), nil)
                    sqlite3_bind_double(statement, 3, time)
                    return sqlite3_step(statement)
                }
                guard status == SQLITE_DONE else { throw failure(sql, on: connection, path: path) }
            }
        }
    }

    /// Notes that the record of `digest` was used at `now`, so pruning keeps it.
    func touchRunRecord(_ digest: StableDigest, now: Double) throws {
        try writingPlainly { connection in
            let sql = "UPDATE run_records SET last_access = ?1 WHERE id = ?2 AND digest = ?3"
            try Self.withStatement(sql, on: connection, path: path) { statement in
                let status = digest.withStoredBytes { digestBytes in
                    sqlite3_bind_double(statement, 1, now)
                    sqlite3_bind_int64(statement, 2, digest.storedID)
                    sqlite3_bind_blob(statement, 3, digestBytes.baseAddress, Int32(digestBytes.count), nil)
                    return sqlite3_step(statement)
                }
                guard status == SQLITE_DONE else { throw Self.failure(sql, on: connection, path: path) }
            }
        }
    }

    // MARK: Statements

    /// The SQLite connection behind `db`, which GRDB only takes away when it closes.
    static func handle(of db: Database, path: String) throws -> OpaquePointer {
        guard let connection = db.sqliteConnection else { throw DiskCacheError.closed(path: path, operation: .write) }
        return connection
    }

    /// Prepares `sql`, runs `body` with it, and finalizes it.
    private static func withStatement<T>(_ sql: String, on connection: OpaquePointer, path: String,
                                         _ body: (OpaquePointer) throws -> T) throws -> T {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql, on: connection, path: path)
        }
        return try body(statement)
    }

    /// Runs a query of one row and reads it with `read`.
    private static func step<T>(_ sql: String, on connection: OpaquePointer, path: String,
                                _ read: (OpaquePointer) -> T) throws -> T {
        try withStatement(sql, on: connection, path: path) { statement in
            guard sqlite3_step(statement) == SQLITE_ROW else { throw failure(sql, on: connection, path: path) }
            return read(statement)
        }
    }

    private static func failure(_ sql: String, on connection: OpaquePointer, path: String) -> DiskCacheError {
        .lastFailure(of: connection, operation: .write, sql: sql, path: path)
    }
}
