@testable import RasterKit

/// A plain SQLite connection on a store file, for tests that look into a store or change it as
/// another program could: through the store's own connection type, with foreign keys on, as
/// the store's writer has them.
final class StoreFile {
    private var connection: SQLiteConnection?

    init(path: String) throws {
        let connection = try SQLiteConnection(path, mode: .readWrite, busyTimeout: 5)
        try connection.execute("PRAGMA foreign_keys = ON")
        self.connection = connection
    }

    private var open: SQLiteConnection {
        get throws {
            guard let connection else { throw SQLiteFailure(resultCode: 21, message: "the test closed this connection") }
            return connection
        }
    }

    /// Runs statements separated by semicolons when there are no arguments, else one statement with them.
    func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        if arguments.isEmpty { try open.execute(sql) } else { try open.execute(sql, arguments) }
    }

    /// Every row one statement returns.
    func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try open.rows(sql, arguments)
    }

    /// The first column of every row one statement returns.
    func values(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [SQLiteValue] {
        try open.column(sql, arguments)
    }

    /// The first column of the first row, or nil when there is none.
    func value(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue? {
        try values(sql, arguments).first
    }

    /// Runs `body` in one write transaction.
    func transaction<T>(_ body: (StoreFile) throws -> T) throws -> T {
        try open.transaction(immediate: true) { try body(self) }
    }

    /// Closes the connection now rather than when the object goes.
    func close() {
        connection = nil
    }
}
