import Foundation
internal import GRDBSQLite

/// The reads of a warm run other than the entry lookup, on the reader's plain connections (see
/// ``DiskCacheReader``): a warm `render` reads its run record, and a warm run in a format that
/// transforms the render reads the bytes kept beside each entry. Through GRDB, the first of
/// them set its pool up, about 2 ms of such a run.
extension DiskCacheReadConnection {
    /// The record of the run named `digest`, with the checksum it was written with.
    func runRecord(for digest: StableDigest) throws -> (checksum: Int64, lastAccess: Double, body: Data)? {
        try row("SELECT checksum, last_access, body FROM run_records WHERE id = ?1 AND digest = ?2", digest: digest) { row in
            (sqlite3_column_int64(row, 0), sqlite3_column_double(row, 1), Self.blob(row, column: 2))
        }
    }

    /// The bytes kept beside the entry of `digest` for `encoding`, with their checksum.
    func keptOutput(for digest: StableDigest, encoding: String) throws -> (checksum: Int64, bytes: Data)? {
        let sql = """
            SELECT kept.checksum, kept.bytes FROM encoded_outputs AS kept JOIN entries ON entries.id = kept.entry_id
            WHERE kept.entry_id = ?1 AND entries.digest = ?2 AND kept.encoding = ?3
            """
        return try row(sql, digest: digest, bind: { Self.bind(encoding, to: $0, at: 3) }) { row in
            (sqlite3_column_int64(row, 0), Self.blob(row, column: 1))
        }
    }

    /// Whether the entry of `digest` is stored, unexpired at `now`, with bytes for `encoding`
    /// (its own PNG, or bytes kept beside it).
    func holdsEncodedOutput(for digest: StableDigest, encoding: String, now: Double) throws -> Bool {
        let sql = """
            SELECT 1 FROM entries WHERE id = ?1 AND digest = ?2 AND expires_at > ?3
            AND (png_encoding = ?4 OR EXISTS (SELECT 1 FROM encoded_outputs WHERE entry_id = ?1 AND encoding = ?4))
            """
        let found = try row(sql, digest: digest, bind: { statement in
            sqlite3_bind_double(statement, 3, now)
            Self.bind(encoding, to: statement, at: 4)
        }) { _ in true }
        return found ?? false
    }

    /// Binds `text` as a copy (SQLite's transient destructor), so it need not outlive the call.
    private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        sqlite3_bind_text(statement, index, text, -1, transient)
    }
}
