import Foundation
internal import GRDBSQLite

/// The lookup on the render path, on read-only SQLite connections of its own.
///
/// Everything else the store does goes through GRDB. This one query runs once per disk hit
/// and is what decides whether a stored render is faster than a file per render, so it skips
/// GRDB's per-access dispatch: each lookup checks a connection out of a small idle list, runs
/// one prepared statement on it, and puts it back. A connection has one owner at a time.
final class DiskCacheReader: Sendable {
    private struct Idle {
        var connections: [DiskCacheReadConnection] = []
        var isClosed = false
    }

    private let path: String
    private let busyTimeout: TimeInterval
    private let idle = SanitizerVisibleMutex(Idle())
    /// Connections kept open between lookups; more are opened while more threads look up at once.
    private static let maximumIdle = 8

    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// The row stored for `digest`, or nil.
    func entry(for digest: StableDigest) throws -> DiskCacheStore.StoredEntry? {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try connection.entry(for: digest)
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

    private func checkOut() throws -> DiskCacheReadConnection {
        let reused: DiskCacheReadConnection?? = idle.withLock { idle in idle.isClosed ? nil : .some(idle.connections.popLast()) }
        guard let reused else { throw DiskCacheError.closed(path: path, operation: .read) }
        return try reused ?? DiskCacheReadConnection(path: path, busyTimeout: busyTimeout)
    }

    private func checkIn(_ connection: DiskCacheReadConnection) {
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

    private let connection: OpaquePointer
    private let lookup: OpaquePointer
    private let path: String

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
        var statement: OpaquePointer?
        var status = sqlite3_exec(handle, setup, nil, nil, nil)
        if status == SQLITE_OK {
            status = sqlite3_prepare_v3(handle, Self.lookupSQL, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        }
        guard status == SQLITE_OK, let statement else {
            let error = DiskCacheError(operation: .read, resultCode: sqlite3_extended_errcode(handle),
                                       message: String(cString: sqlite3_errmsg(handle)),
                                       sql: status == SQLITE_OK ? Self.lookupSQL : setup, path: path)
            sqlite3_finalize(statement)
            sqlite3_close_v2(handle)
            throw error
        }
        connection = handle
        lookup = statement
    }

    deinit {
        sqlite3_finalize(lookup)
        sqlite3_close_v2(connection)
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
                    childrenJSON: text(column: 5),
                    checksum: sqlite3_column_type(lookup, 12) == SQLITE_NULL ? nil : sqlite3_column_int64(lookup, 12),
                    png: blob(column: 6), pngEncoding: text(column: 13))
            case SQLITE_DONE:
                return nil
            case let status:
                try check(status)
                return nil
            }
        }
    }

    private func text(column: Int32) -> String? {
        guard sqlite3_column_type(lookup, column) != SQLITE_NULL, let text = sqlite3_column_text(lookup, column) else {
            return nil
        }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(lookup, column))),
                      as: UTF8.self)
    }

    /// The four cap columns from `first` on, or nil when any is NULL (a render without caps).
    private func capInsets(from first: Int32) -> EdgeInsets? {
        guard (first..<first + 4).allSatisfy({ sqlite3_column_type(lookup, $0) != SQLITE_NULL }) else { return nil }
        return EdgeInsets(top: sqlite3_column_double(lookup, first), left: sqlite3_column_double(lookup, first + 1),
                          bottom: sqlite3_column_double(lookup, first + 2), right: sqlite3_column_double(lookup, first + 3))
    }

    private func blob(column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(lookup, column))
        guard count > 0, let bytes = sqlite3_column_blob(lookup, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Turns a failing status into ``DiskCacheError`` at once, with SQLite's message.
    private func check(_ status: Int32) throws {
        guard status != SQLITE_OK, status != SQLITE_ROW, status != SQLITE_DONE else { return }
        throw DiskCacheError(operation: .read, resultCode: sqlite3_extended_errcode(connection),
                             message: String(cString: sqlite3_errmsg(connection)), sql: Self.lookupSQL, path: path)
    }
}
