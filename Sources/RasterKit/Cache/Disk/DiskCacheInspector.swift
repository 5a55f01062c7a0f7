import Foundation
internal import GRDBSQLite

/// A read-only look into a store file that creates, renames and writes nothing: for
/// `rasterkit cache stats` and for telling, before any write, whether a file is a store.
///
/// Opened through an SQLite URI with `mode=ro`, and `immutable=1` unless a WAL and its index are
/// both there: without them the file holds every committed entry, and an immutable connection
/// neither creates them nor takes locks. (A WAL without its index is then ignored, so its last
/// transactions may be missing from what is read: it is left for a writer to recover.)
///
/// ``init(openingForWriting:busyTimeout:)`` makes the other kind: an ordinary connection, with
/// locks, that a store about to be opened is inspected through (see `DiskCacheStore.open`), and
/// that then writes the few rows of a run that never needs GRDB's pool (see
/// ``writing(pragmas:_:)``).
final class DiskCacheInspector {
    private let connection: OpaquePointer
    private let path: String
    /// What a failure is reported as: reading a store, or opening one.
    private let operation: DiskCacheError.Operation
    /// Whether the pragmas a writer needs were set (see ``writing(pragmas:_:)``).
    private var isPreparedForWriting = false
    /// Whether a transaction was committed through this connection, so a checkpoint has work.
    private(set) var hasWritten = false

    /// Opens `url`, which must exist and have passed ``DiskCacheFile/examine(_:)``.
    init(url: URL) throws {
        path = url.path
        operation = .read
        let base = DiskCacheFile.resolvedPath(path)
        let hasLiveWAL = ["-wal", "-shm"].allSatisfy { FileManager.default.fileExists(atPath: base + $0) }
        // In an SQLite URI, `?`, `#` and `%` in the path must be escaped.
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        let uri = "file:\(escaped)?mode=ro" + (hasLiveWAL ? "" : "&immutable=1")
        connection = try Self.open(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, path: path, busyTimeout: 5000, operation: .read)
    }

    /// Opens `url` for reading and writing, creating it when missing, as the pool that follows
    /// will: its reads take the usual locks, so a store that another process is creating or
    /// migrating is read whole, before or after. Nothing is written through it but what
    /// ``writing(pragmas:_:)`` is given.
    init(openingForWriting url: URL, busyTimeout: Double) throws {
        path = url.path
        operation = .open
        connection = try Self.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path: path,
                                   busyTimeout: Int32(min(busyTimeout * 1000, Double(Int32.max))), operation: .open)
    }

    private static func open(_ name: String, _ flags: Int32, path: String, busyTimeout: Int32,
                             operation: DiskCacheError.Operation) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(name, &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(opened))
            sqlite3_close_v2(handle)
            throw DiskCacheError(operation: operation, resultCode: opened, message: message, path: path)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
        return handle
    }

    deinit { sqlite3_close_v2(connection) }

    /// Runs `body` with the connection in one write transaction (`BEGIN IMMEDIATE`, which waits
    /// out other writers for the busy timeout), after running `pragmas` on it the first time:
    /// the per-connection settings the pool's writer gets, such as `synchronous`. Rolls back
    /// when `body` throws. Only for a connection made by ``init(openingForWriting:busyTimeout:)``.
    func writing<T>(pragmas: [String], _ body: (OpaquePointer) throws -> T) throws -> T {
        if !isPreparedForWriting {
            for pragma in pragmas { try execute(pragma) }
            isPreparedForWriting = true
        }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body(connection)
            try execute("COMMIT")
            hasWritten = true
            return result
        } catch {
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Moves what this connection committed from the WAL into the database file, as far as
    /// readers allow (`PASSIVE`: it waits for none).
    func checkpoint() {
        guard hasWritten else { return }
        sqlite3_exec(connection, "PRAGMA wal_checkpoint(PASSIVE)", nil, nil, nil)
    }

    /// Runs one statement that returns no rows, reporting a failure as a write.
    private func execute(_ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else {
            throw DiskCacheError.lastFailure(of: connection, operation: .write, sql: sql, path: path)
        }
    }

    /// Throws ``DiskCacheError/notAStore(path:reason:)`` unless the database is a RasterKit
    /// store or empty; returns whether it is a store (rather than an empty database).
    func checkIsStore() throws -> Bool {
        let layout = try layout()
        if layout.applicationID == DiskCacheSchema.applicationID { return layout.tables.contains("entries") }
        if let foreign = DiskCacheSchema.foreignness(applicationID: layout.applicationID, tables: layout.tables,
                                                     migrationsApplied: layout.appliedMigrations.count) {
            throw DiskCacheError.notAStore(path: path, reason: "another program's database: \(foreign)")
        }
        return false
    }

    /// The database's application id, tables, recorded migrations and `entries` columns, read in
    /// one transaction (one snapshot, even while another process migrates the file).
    func layout() throws -> DiskCacheSchema.Layout {
        _ = try rows("BEGIN")
        defer { sqlite3_exec(connection, "COMMIT", nil, nil, nil) }
        let identifier = Int32(truncatingIfNeeded: try integers("PRAGMA application_id").first ?? 0)
        let schema = DiskCacheSchema.ownSchema(try rows(DiskCacheSchema.schemaSQL).map {
            DiskCacheSchema.SchemaEntry(type: $0[0].text, name: $0[1].text, table: $0[2].text, sql: $0[3].text)
        })
        // Checked before a row of it is read.
        try DiskCacheSchema.checkMigrationsTable(in: schema)
        let applied = DiskCacheSchema.hasMigrationsTable(schema) ? try strings(DiskCacheSchema.appliedMigrationsSQL) : []
        return DiskCacheSchema.Layout(applicationID: identifier, schema: schema, appliedMigrations: Set(applied))
    }

    /// What the store holds; call after ``checkIsStore()`` returned true.
    func contents(now: Double) throws -> DiskCacheContents {
        let totals = try rows("""
            SELECT count(*), total(byte_size), (SELECT count(*) FROM entries WHERE expires_at <= \(now)) FROM entries
            """)
        let types = try rows("""
            SELECT type_name, count(*), total(byte_size) FROM entries GROUP BY type_name
            ORDER BY total(byte_size) DESC, type_name
            """).map { DiskCacheTypeSummary(typeName: $0[0].text, count: Int($0[1].number), totalBytes: Int($0[2].number)) }
        let row = totals.first
        return DiskCacheContents(count: Int(row?[0].number ?? 0), totalBytes: Int(row?[1].number ?? 0),
                                 expiredCount: Int(row?[2].number ?? 0), types: types)
    }

    // MARK: Statements

    /// One column value: a number or a text, as the queries above need.
    private struct Value {
        var number: Double
        var text: String
    }

    private func integers(_ sql: String) throws -> [Int64] { try rows(sql).map { Int64($0[0].number) } }
    private func strings(_ sql: String) throws -> [String] { try rows(sql).map { $0[0].text } }

    private func rows(_ sql: String) throws -> [[Value]] {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        var rows: [[Value]] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                rows.append((0..<sqlite3_column_count(statement)).map { column in
                    let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    return Value(number: sqlite3_column_double(statement, column), text: text)
                })
            case SQLITE_DONE:
                return rows
            default:
                throw failure(sql)
            }
        }
    }

    private func failure(_ sql: String) -> DiskCacheError {
        .lastFailure(of: connection, operation: operation, sql: sql, path: path)
    }
}
