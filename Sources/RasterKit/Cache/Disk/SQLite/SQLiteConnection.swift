import Foundation
internal import CSQLite

/// One SQLite connection: the only way RasterKit reaches SQLite. The render store has one that
/// writes and a few read-only ones for lookups (``DiskCacheReader``); an import opens one on the
/// file it reads, and `cache stats` one that looks without locking.
///
/// RasterKit's own type rather than GRDB's: the store runs a handful of fixed statements, and a
/// warm run's lookups, which decide whether a stored render beats a file, went around GRDB's
/// per-access dispatch anyway; setting a GRDB pool up was a millisecond of every run's start.
/// One type for every connection means one way to prepare, bind, step and report a failure.
///
/// Not thread-safe: a connection has one user at a time (its owner hands it over under a lock),
/// which is why it may cross threads (`@unchecked Sendable`).
final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// Statements prepared once and kept (``statement(_:)``).
    private var cached: [String: SQLiteStatement] = [:]
    private var isClosed = false

    /// How a connection opens its file.
    enum Mode {
        /// Read and write, creating the file when it is missing.
        case readWrite
        /// Read-only, taking the usual locks.
        case readOnly
        /// Read-only through an SQLite URI (`file:…?mode=ro&immutable=1`), escaped by the caller.
        case readOnlyURI
    }

    /// Opens `name` with extended result codes and `busyTimeout`.
    init(_ name: String, mode: Mode, busyTimeout: TimeInterval) throws(SQLiteFailure) {
        // NOMUTEX: SQLite's own locking is not needed for a connection with one user at a time.
        let access: Int32 = switch mode {
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: SQLITE_OPEN_READONLY
        case .readOnlyURI: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let flags = access | SQLITE_OPEN_NOMUTEX
        var connection: OpaquePointer?
        let opened = sqlite3_open_v2(name, &connection, flags, nil)
        guard opened == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(opened))
            sqlite3_close_v2(connection)
            throw SQLiteFailure(resultCode: opened, message: message)
        }
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Int32(min(max(busyTimeout, 0) * 1000, Double(Int32.max))))
        handle = connection
    }

    deinit { close() }

    /// Closes the connection now rather than when it is released, for a caller that must
    /// choose which of its connections closes last. Nothing may use it afterwards.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        cached.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one or more statements separated by semicolons, that take no arguments.
    func execute(_ sql: String) throws(SQLiteFailure) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw SQLiteFailure(lastOn: handle, sql: sql) }
    }

    /// Runs one statement with `arguments` through the statement cache; returns the rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLiteValue]) throws(SQLiteFailure) -> Int {
        try statement(sql).run(arguments)
    }

    /// The rows one statement returns, each as its columns' values.
    func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try statement(sql).rows(arguments) { row in (0..<row.columnCount).map(row.value) }
    }

    /// The first column of every row one statement returns.
    func column(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteValue] {
        try statement(sql).rows(arguments) { $0.value(0) }
    }

    /// `sql` prepared once for this connection and kept until it closes.
    func statement(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        if let statement = cached[sql] { return statement }
        let statement = try SQLiteStatement(sql, on: handle, persistent: true)
        cached[sql] = statement
        return statement
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE` takes the write lock first, waiting out
    /// other writers for the busy timeout; `BEGIN` defers locks to the first read or write),
    /// committing when it returns and rolling back when it throws.
    func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try statement(immediate ? "BEGIN IMMEDIATE" : "BEGIN").run()
        let result: T
        do {
            result = try body()
            try statement("COMMIT").run()
        } catch {
            rollBack()
            throw error
        }
        return result
    }

    /// Ends the open transaction, if any, without keeping its changes.
    func rollBack() {
        if !isAutocommit { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    /// Whether no transaction is open.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Caps how long a string or blob SQLite may make on this connection.
    func limitLength(to bytes: Int) {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: bytes))
    }
}
