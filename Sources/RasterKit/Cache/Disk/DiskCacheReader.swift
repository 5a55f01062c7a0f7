import Foundation

/// The store's reads, on read-only SQLite connections of its own.
///
/// The entry lookup runs once per disk hit and is what decides whether a stored render is
/// faster than a file per render: each lookup checks a connection out of a small idle list, runs
/// one prepared statement on it, and puts it back. A connection has one owner at a time. The
/// store's other reads (a run record, bytes kept beside entries, statistics) check connections
/// out the same way.
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
        do {
            if let snapshots = DiskCacheThreadSnapshots.current {
                return try snapshots.connection(of: self).entryInSnapshot(for: digest)
            }
            let connection = try checkOut()
            defer { checkIn(connection) }
            return try connection.entry(for: digest)
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }

    /// Runs `body` with a connection: inside ``DiskCacheThreadSnapshots/sharing(_:)`` the one the
    /// thread keeps (reading its snapshot when one is open), else one checked out for the call.
    /// For the store's other reads (see `DiskCacheReadConnection+Queries.swift`). Failures are
    /// reported as ``DiskCacheError``.
    func withConnection<T>(_ body: (DiskCacheReadConnection) throws -> T) throws -> T {
        do {
            if let snapshots = DiskCacheThreadSnapshots.current { return try body(snapshots.connection(of: self)) }
            let connection = try checkOut()
            defer { checkIn(connection) }
            return try body(connection)
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
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

    let connection: SQLiteConnection
    private let lookup: SQLiteStatement
    /// `BEGIN` and `COMMIT`, prepared once: a snapshot is a read transaction left open.
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    /// When the open snapshot was taken (monotonic nanoseconds) and the lookups it served; nil
    /// when none is open.
    private var snapshot: (started: UInt64, lookups: Int)?

    init(path: String, busyTimeout: TimeInterval) throws {
        do {
            connection = try SQLiteConnection(path, mode: .readOnly, busyTimeout: busyTimeout)
            try connection.execute("PRAGMA mmap_size = \(DiskCacheStore.mappedBytes)")
            lookup = try connection.statement(Self.lookupSQL)
            begin = try connection.statement("BEGIN")
            commit = try connection.statement("COMMIT")
        } catch {
            throw DiskCacheError.wrapping(error, operation: .read, path: path)
        }
    }

    deinit { endSnapshot() }

    /// The row stored for `digest`, read from this connection's snapshot: the one open, while it
    /// is recent (see ``snapshotLookups``), else a new one. Each lookup alone would take and
    /// drop SQLite's shared locks (two `fcntl` calls and a `fstat`) and the WAL index mutex.
    func entryInSnapshot(for digest: StableDigest) throws -> DiskCacheStore.StoredEntry? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let snapshot, snapshot.lookups >= Self.snapshotLookups || now &- snapshot.started >= Self.snapshotNanoseconds {
            endSnapshot()
        }
        if snapshot == nil {
            try begin.run()
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
        // Ending a read transaction does not fail; if it ever did, the connection must still not
        // keep one open.
        if (try? commit.run()) == nil { connection.rollBack() }
    }

    func entry(for digest: StableDigest) throws -> DiskCacheStore.StoredEntry? {
        try digest.withStoredBytes { digestBytes in
            defer { lookup.reset() }
            // Not copied: the digest's bytes outlive the statement's use of them, in this scope.
            try lookup.bind(digest.storedID, at: 1)
            try lookup.bindUncopied(digestBytes, at: 2)
            guard try lookup.step() else { return nil }
            return DiskCacheStore.StoredEntry(
                created: lookup.double(0), expires: lookup.double(1), lastAccess: lookup.double(2),
                pixelWidth: lookup.int(3), pixelHeight: lookup.int(4), scale: lookup.double(7),
                capInsets: DiskCacheQueries.capInsets(lookup, from: 8), childrenJSON: lookup.text(5),
                checksum: lookup.isNull(12) ? nil : lookup.int64(12), png: lookup.data(6), pngEncoding: lookup.text(13))
        }
    }

    /// The row `sql` finds for `digest`, bound as `?1` (its id) and `?2` (its bytes), followed by
    /// `arguments`; nil when there is none. The statement is prepared once per connection.
    func row<T>(_ sql: String, digest: StableDigest, _ arguments: [SQLiteValue] = [],
                read: (SQLiteStatement) -> T) throws(SQLiteFailure) -> T? {
        let statement = try connection.statement(sql)
        try statement.bind([.integer(digest.storedID), .blob(digest.storedBytes)] + arguments)
        defer { statement.reset() }
        return try statement.step() ? read(statement) : nil
    }
}
