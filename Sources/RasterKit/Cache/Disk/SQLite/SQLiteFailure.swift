internal import CSQLite

/// A failed SQLite call: its extended result code, SQLite's message, and the statement. The
/// store turns it into ``DiskCacheError`` with what it was doing and its path.
struct SQLiteFailure: Error, CustomStringConvertible {
    var resultCode: Int32
    var message: String
    var sql: String?

    /// The last failure on `connection`.
    init(lastOn connection: OpaquePointer, sql: String?) {
        resultCode = sqlite3_extended_errcode(connection)
        message = String(cString: sqlite3_errmsg(connection))
        self.sql = sql
    }

    init(resultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
    }

    var description: String { "SQLite error \(resultCode): \(message)" + (sql.map { " (SQL: \($0))" } ?? "") }

    /// Whether SQLite said the file's content is unusable (not a database, corrupt, wrong
    /// format), rather than that it could not be reached.
    var isDamage: Bool { Self.isDamage(resultCode) }

    /// Whether a result code (primary or extended) says the file is damaged.
    static func isDamage(_ resultCode: Int32) -> Bool {
        [SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FORMAT].contains(resultCode & 0xFF)
    }
}
