import Foundation
internal import GRDBSQLite

/// The lookups of the render path, on read-only SQLite connections of its own.
///
/// The entry lookup runs once per disk hit and is what decides whether a stored render is
/// faster than a file per render, so it skips GRDB's per-access dispatch: each lookup checks a
/// connection out of a small idle list, runs one prepared statement on it, and puts it back. A
/// connection has one owner at a time. The other reads of a warm run (its run record, bytes kept
/// beside entries) are made the same way, so that such a run never sets GRDB's pool up; the
/// rest of what the store does goes through GRDB.
final class DiskCacheReader: Sendable {
    private struct Idle {
        var connections: [DiskCacheReadConnection] = []
        var isClosed = false
    }

    private let path: String
    private let busyTimeout: TimeInterval
    private let idle = Lock(Idle())
    /// Connections kept open between lookups; more are opened while more threads look up at once.
    private static let maximumIdle = 8

    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// The row stored for `digest`, or nil. Inside ``DiskCacheThreadSnapshots/sharing(_:)`` the
    /// thread keeps one connection and reads a recent snapshot of the store with it.
    func entry(for digest: StableDigest) throws -> DiskCacheStore.StoredEntry? {
        if let snapshots = DiskCacheThreadSnapshots.current {
            return try snapshots.connection(of: self).entryInSnapshot(for: digest)
        }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try connection.entry(for: digest)
    }

    /// Runs `body` with a connection: inside ``DiskCacheThreadSnapshots/sharing(_:)`` the one the
    /// thread keeps (reading its snapshot when one is open), else one checked out for the call.
    /// For the other reads a warm run makes (see `DiskCacheReadConnection+Queries.swift`).
    func withConnection<T>(_ body: (DiskCacheReadConnection) throws -> T) throws -> T {
        if let snapshots = DiskCacheThreadSnapshots.current { return try body(snapshots.connection(of: self)) }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; those in use close when they are returned.
    func close() {
        let connections = idle.withLock { idle in
            idle.isClosed = true
            defer { idle.connections = [] }
            return idle.connections
        }
        withExtendedLifetime(connections) {}
    }

    func checkOut() throws -> DiskCacheReadConnection {
        let reused: DiskCacheReadConnection?? = idle.withLock { idle in idle.isClosed ? nil : .some(idle.connections.popLast()) }
        guard let reused else { throw DiskCacheError.closed(path: path, operation: .read) }
        return try reused ?? DiskCacheReadConnection(path: path, busyTimeout: busyTimeout)
    }

    func checkIn(_ connection: DiskCacheReadConnection) {
        // An idle connection holds no snapshot: it would keep the WAL from being checkpointed,
        // and hide what was stored since from its next lookup.
        connection.endSnapshot()
        idle.withLock { idle in
            guard !idle.isClosed, idle.connections.count < Self.maximumIdle else { return }
            idle.connections.append(connection)
        }
    }
}

/// One read-only SQLite connection with the lookup statement prepared. Not thread-safe: the
/// reader hands it to one lookup at a time, which is why it may cross threads (`@unchecked`).
final class DiskCacheReadConnection: @unchecked Sendable {
    static let lookupSQL = """
        SELECT created_at, expires_at, \(DiskCacheSchema.lastAccessSQL), pixel_width, pixel_height, children, png,
               scale, cap_top, cap_left, cap_bottom, cap_right, checksum, png_encoding
        FROM entries WHERE id = ?1 AND digest = ?2
        """

    /// A snapshot serves at most this many lookups, and for at most this long: it is recent
    /// enough that what this process stored a moment ago is seldom missed (and a miss only
    /// draws again), and short enough that checkpoints are held back only briefly.
    static let snapshotLookups = 64
    static let snapshotNanoseconds: UInt64 = 10_000_000

    private let connection: OpaquePointer
    private let lookup: OpaquePointer
    /// `BEGIN` and `COMMIT`, prepared once: a snapshot is a read transaction left open.
    private let begin: OpaquePointer
    private let commit: OpaquePointer
    private let path: String
    /// When the open snapshot was taken (monotonic nanoseconds) and the lookups it served; nil
    /// when none is open.
    private var snapshot: (started: UInt64, lookups: Int)?
    /// The statements of ``row(_:digest:bind:read:)``, prepared on first use.
    private var prepared: [String: OpaquePointer] = [:]

    init(path: String, busyTimeout: TimeInterval) throws {
        self.path = path
        var handle: OpaquePointer?
        // NOMUTEX: SQLite's own locking is not needed for a connection with one owner at a time.
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(opened))
            sqlite3_close_v2(handle)
            throw DiskCacheError(operation: .read, resultCode: opened, message: message, path: path)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(min(busyTimeout * 1000, Double(Int32.max))))
        let setup = "PRAGMA mmap_size = \(DiskCacheStore.mappedBytes)"
        var statements: [OpaquePointer?] = [nil, nil, nil]
        var failedSQL = setup
        var status = sqlite3_exec(handle, setup, nil, nil, nil)
        for (index, sql) in [Self.lookupSQL, "BEGIN", "COMMIT"].enumerated() where status == SQLITE_OK {
            failedSQL = sql
            status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statements[index], nil)
        }
        guard status == SQLITE_OK, let lookup = statements[0], let begin = statements[1], let commit = statements[2] else {
            let error = DiskCacheError.lastFailure(of: handle, operation: .read, sql: failedSQL, path: path)
            for statement in statements { sqlite3_finalize(statement) }
            sqlite3_close_v2(handle)
            throw error
        }
        connection = handle
        self.lookup = lookup
        self.begin = begin
        self.commit = commit
    }

    deinit {
        endSnapshot()
        for statement in [lookup, begin, commit] + Array(prepared.values) { sqlite3_finalize(statement) }
        sqlite3_close_v2(connection)
    }

    /// The row stored for `digest`, read from this connection's snapshot: the one open, while it
    /// is recent (see ``snapshotLookups``), else a new one. Each lookup alone would take and
    /// drop SQLite's shared locks (two `fcntl` calls and a `fstat`) and the WAL index mutex.
    func entryInSnapshot(for digest: StableDigest) throws -> DiskCacheStore.StoredEntry? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let snapshot, snapshot.lookups >= Self.snapshotLookups || now &- snapshot.started >= Self.snapshotNanoseconds {
            endSnapshot()
        }
        if snapshot == nil {
            let status = sqlite3_step(begin)
            sqlite3_reset(begin)
            try check(status, sql: "BEGIN")
            snapshot = (now, 0)
        }
        snapshot?.lookups += 1
        do { return try entry(for: digest) } catch {
            endSnapshot()
            throw error
        }
    }

    /// Ends the open snapshot, if any.
    func endSnapshot() {
        guard snapshot != nil else { return }
        snapshot = nil
        let status = sqlite3_step(commit)
        sqlite3_reset(commit)
        // Ending a read transaction does not fail; if it ever did, the connection must still not
        // keep one open.
        if status != SQLITE_DONE, sqlite3_get_autocommit(connection) == 0 {
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
        }
    }

    func entry(for digest: StableDigest) throws -> DiskCacheStore.StoredEntry? {
        try digest.withStoredBytes { digestBytes in
            defer {
                sqlite3_reset(lookup)
                sqlite3_clear_bindings(lookup)
            }
            // SQLITE_STATIC: the digest's bytes outlive the statement's use of them, in this scope.
            try check(sqlite3_bind_int64(lookup, 1, digest.storedID))
            try check(sqlite3_bind_blob(lookup, 2, digestBytes.baseAddress, 16, nil))
            switch sqlite3_step(lookup) {
            case SQLITE_ROW:
                return DiskCacheStore.StoredEntry(
                    created: sqlite3_column_double(lookup, 0), expires: sqlite3_column_double(lookup, 1),
                    lastAccess: sqlite3_column_double(lookup, 2),
                    pixelWidth: Int(sqlite3_column_int64(lookup, 3)), pixelHeight: Int(sqlite3_column_int64(lookup, 4)),
                    scale: sqlite3_column_double(lookup, 7), capInsets: capInsets(from: 8),
                    childrenJSON: Self.text(lookup, column: 5),
                    checksum: sqlite3_column_type(lookup, 12) == SQLITE_NULL ? nil : sqlite3_column_int64(lookup, 12),
                    png: Self.blob(lookup, column: 6), pngEncoding: Self.text(lookup, column: 13))
            case SQLITE_DONE:
                return nil
            case let status:
                try check(status)
                return nil
            }
        }
    }

    /// The row `sql` finds for `digest`, bound as `?1` (its id) and `?2` (its bytes), after
    /// `bind` binds the rest; nil when there is none. The statement is prepared once per connection.
    func row<T>(_ sql: String, digest: StableDigest, bind: (OpaquePointer) -> Void = { _ in },
                read: (OpaquePointer) -> T) throws -> T? {
        let statement = try preparedStatement(sql)
        return try digest.withStoredBytes { digestBytes in
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            try check(sqlite3_bind_int64(statement, 1, digest.storedID), sql: sql)
            try check(sqlite3_bind_blob(statement, 2, digestBytes.baseAddress, Int32(digestBytes.count), nil), sql: sql)
            bind(statement)
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                return read(statement)
            case SQLITE_DONE:
                return nil
            case let status:
                try check(status, sql: sql)
                return nil
            }
        }
    }

    private func preparedStatement(_ sql: String) throws -> OpaquePointer {
        if let statement = prepared[sql] { return statement }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), sql: sql)
        guard let statement else {
            throw DiskCacheError(operation: .read, resultCode: SQLITE_MISUSE, message: "empty statement", sql: sql, path: path)
        }
        prepared[sql] = statement
        return statement
    }

    /// Column `column` of `statement` as text, or nil when it is NULL.
    static func text(_ statement: OpaquePointer, column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let text = sqlite3_column_text(statement, column) else {
            return nil
        }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))),
                      as: UTF8.self)
    }

    /// The four cap columns from `first` on, or nil when any is NULL (a render without caps).
    private func capInsets(from first: Int32) -> EdgeInsets? {
        guard (first..<first + 4).allSatisfy({ sqlite3_column_type(lookup, $0) != SQLITE_NULL }) else { return nil }
        return EdgeInsets(top: sqlite3_column_double(lookup, first), left: sqlite3_column_double(lookup, first + 1),
                          bottom: sqlite3_column_double(lookup, first + 2), right: sqlite3_column_double(lookup, first + 3))
    }

    /// Column `column` of `statement` as bytes (empty when NULL).
    static func blob(_ statement: OpaquePointer, column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Turns a failing status into ``DiskCacheError`` at once, with SQLite's message.
    private func check(_ status: Int32, sql: String = DiskCacheReadConnection.lookupSQL) throws {
        guard status != SQLITE_OK, status != SQLITE_ROW, status != SQLITE_DONE else { return }
        throw DiskCacheError.lastFailure(of: connection, operation: .read, sql: sql, path: path)
    }
}
