
/// Why the disk store could not do something, with SQLite's result code and message, the
/// statement when one was running, and the store's path.
///
/// Renders never see these: a failed lookup is a miss and a failed write is logged and counted.
/// They reach callers of `DiskCache(at:)`, `flush()`, `prune()`, the queries and the removals.
public struct DiskCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the store was doing.
    public enum Operation: String, Hashable, Sendable {
        case open, recover, read, write, close
    }

    /// What the store was doing when it failed.
    public var operation: Operation
    /// SQLite's extended result code, such as 14 (`SQLITE_CANTOPEN`) or 13 (`SQLITE_FULL`).
    /// Failures outside SQLite use the nearest SQLite code (`SQLITE_IOERR` for a file that
    /// could not be moved aside, `SQLITE_MISUSE` for a closed store).
    public var resultCode: Int32
    /// SQLite's message, or RasterKit's when the failure did not come from SQLite.
    public var message: String
    /// The statement that failed, when one did.
    public var sql: String?
    /// The store's file.
    public var path: String
    /// Set when RasterKit refused to use the file rather than SQLite failing on it.
    public var refusal: Refusal?

    /// Why RasterKit refused a file without touching it.
    public enum Refusal: String, Hashable, Sendable {
        /// The file exists and is not recognisably a RasterKit store (another program's
        /// database, a text file, a device): it is left exactly as it is, never moved aside.
        case notAStore
        /// A `-wal`, `-shm` or `-journal` file beside the store is a symbolic link, not a
        /// regular file, or has other hard links: SQLite would write through it to another file.
        case unsafeCompanionFile
    }

    /// Creates an error; `refusal` is nil for failures that came from SQLite or the file system.
    public init(operation: Operation, resultCode: Int32, message: String, sql: String? = nil, path: String,
                refusal: Refusal? = nil) {
        self.operation = operation
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
        self.path = path
        self.refusal = refusal
    }

    /// SQLite's primary result code: the low byte of `resultCode`.
    public var primaryResultCode: Int32 { resultCode & 0xFF }

    /// Whether another connection held the store locked past the busy timeout (`SQLITE_BUSY`,
    /// `SQLITE_LOCKED`): a passing condition, worth trying again.
    public var isContention: Bool { primaryResultCode == Self.busy || primaryResultCode == Self.locked }

    /// Whether the file at `path` exists and is not a RasterKit store, so it was left alone.
    public var isNotAStore: Bool { refusal == .notAStore }

    /// Whether the store was closed before the call.
    public var isClosed: Bool { primaryResultCode == Self.misuse && message == Self.closedMessage }

    /// The store's path, the operation and SQLite's error, or why RasterKit refused the file.
    public var description: String {
        // A refusal did not come from SQLite, and its message already names the file.
        if refusal != nil { return "disk cache: \(message)" }
        var text = "disk cache \(path): \(operation.rawValue) failed: SQLite error \(resultCode): \(message)"
        if let sql { text += " (SQL: \(sql))" }
        return text
    }

    static let busy: Int32 = 5
    static let locked: Int32 = 6
    static let misuse: Int32 = 21
    static let ioError: Int32 = 10
    static let cannotOpen: Int32 = 14
    static let notADatabase: Int32 = 26
    static let closedMessage = "the disk cache is closed"

    /// The file at `path` is not a RasterKit store: `reason` says what it looks like instead.
    static func notAStore(path: String, reason: String) -> DiskCacheError {
        DiskCacheError(operation: .open, resultCode: notADatabase,
                       message: "\(path) is not a RasterKit store (\(reason)); it was left untouched. "
                           + "Give another path, or delete the file yourself if it is not needed",
                       path: path, refusal: .notAStore)
    }

    static func closed(path: String, operation: Operation) -> DiskCacheError {
        DiskCacheError(operation: operation, resultCode: misuse, message: closedMessage, path: path)
    }

    /// Wraps any error thrown while using the store: SQLite's failures keep their code, message
    /// and SQL; anything else becomes an I/O error carrying its description.
    static func wrapping(_ error: any Error, operation: Operation, path: String) -> DiskCacheError {
        switch error {
        case let error as DiskCacheError:
            return error
        case let failure as SQLiteFailure:
            return DiskCacheError(operation: operation, resultCode: failure.resultCode, message: failure.message,
                                  sql: failure.sql, path: path)
        default:
            return DiskCacheError(operation: operation, resultCode: ioError, message: String(describing: error),
                                  path: path)
        }
    }
}
