import Foundation
internal import CSQLite

/// One prepared statement of a ``SQLiteConnection``, which owns and finalizes it. Like its
/// connection, used by one thread at a time.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let connection: OpaquePointer

    init(_ sql: String, on connection: OpaquePointer, persistent: Bool) throws(SQLiteFailure) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        guard sqlite3_prepare_v3(connection, sql, -1, flags, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SQLiteFailure(lastOn: connection, sql: sql)
        }
        guard let statement else { throw SQLiteFailure(resultCode: SQLITE_MISUSE, message: "empty statement", sql: sql) }
        handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding

    /// Binds `values` to `?1`, `?2`, … (after clearing earlier bindings).
    func bind(_ values: [SQLiteValue]) throws(SQLiteFailure) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one value, copied by SQLite, to parameter `index` (from 1).
    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteFailure) {
        let status: Int32 = switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let number): sqlite3_bind_int64(handle, index, number)
        case .real(let number): sqlite3_bind_double(handle, index, number)
        case .text(let text):
            // With its length, so a text with a NUL in it is bound whole.
            text.withCString { sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), Self.transient) }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                // A zero-length blob, not NULL, for empty data (whose base address may be nil).
                sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
                                  Self.transient)
            }
        }
        try check(status)
    }

    /// Binds bytes SQLite does not copy: they must stay valid until the statement is reset.
    /// For the lookup path, whose digests live on the caller's stack for the whole step.
    func bindUncopied(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), nil))
    }

    func bind(_ number: Int64, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_int64(handle, index, number))
    }

    func bind(_ number: Double, at index: Int32) throws(SQLiteFailure) {
        try check(sqlite3_bind_double(handle, index, number))
    }

    /// SQLite's "copy the value now" destructor.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    // MARK: Running

    /// Runs one step: true when a row is ready to read, false when the statement is done.
    func step() throws(SQLiteFailure) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteFailure(lastOn: connection, sql: sql)
        }
    }

    /// Makes the statement ready to run again, keeping no bound bytes.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` and runs the statement to its end; returns the rows it changed.
    @discardableResult
    func run(_ values: [SQLiteValue] = []) throws(SQLiteFailure) -> Int {
        try bind(values)
        defer { reset() }
        while try step() {}
        return Int(sqlite3_changes(connection))
    }

    /// Binds `values`, and reads each row the statement returns with `read`.
    func rows<T>(_ values: [SQLiteValue] = [], _ read: (SQLiteStatement) throws -> T) throws -> [T] {
        try bind(values)
        defer { reset() }
        var rows: [T] = []
        while try step() { rows.append(try read(self)) }
        return rows
    }

    // MARK: Reading the current row

    var columnCount: Int32 { sqlite3_column_count(handle) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// Column `column` as text, or nil when it is NULL.
    func text(_ column: Int32) -> String? {
        guard !isNull(column), let text = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))),
                      as: UTF8.self)
    }

    /// Column `column` as bytes (empty when NULL).
    func data(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Column `column` in its own storage class.
    func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_TEXT: .text(text(column) ?? "")
        case SQLITE_BLOB: .blob(data(column))
        default: .null
        }
    }

    private func check(_ status: Int32) throws(SQLiteFailure) {
        guard status != SQLITE_OK else { return }
        throw SQLiteFailure(lastOn: connection, sql: sql)
    }
}
