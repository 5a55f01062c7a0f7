import Foundation

/// The reads of a warm run other than the entry lookup, by digest on a reader's connection
/// (see ``DiskCacheReader``): a warm `render` reads its run record, and a warm run in a format
/// that transforms the render reads the bytes kept beside each entry.
extension DiskCacheReadConnection {
    /// The record of the run named `digest`, with the checksum it was written with.
    func runRecord(for digest: StableDigest) throws -> (checksum: Int64, lastAccess: Double, body: Data)? {
        try row("SELECT checksum, last_access, body FROM run_records WHERE id = ?1 AND digest = ?2", digest: digest) { row in
            (row.int64(0), row.double(1), row.data(2))
        }
    }

    /// The bytes kept beside the entry of `digest` for `encoding`, with their checksum.
    func keptOutput(for digest: StableDigest, encoding: String) throws -> (checksum: Int64, bytes: Data)? {
        let sql = """
            SELECT kept.checksum, kept.bytes FROM encoded_outputs AS kept JOIN entries ON entries.id = kept.entry_id
            WHERE kept.entry_id = ?1 AND entries.digest = ?2 AND kept.encoding = ?3
            """
        return try row(sql, digest: digest, [.text(encoding)]) { row in (row.int64(0), row.data(1)) }
    }

    /// Whether the entry of `digest` is stored, unexpired at `now`, with bytes for `encoding`
    /// (its own PNG, or bytes kept beside it).
    func holdsEncodedOutput(for digest: StableDigest, encoding: String, now: Double) throws -> Bool {
        let sql = """
            SELECT 1 FROM entries WHERE id = ?1 AND digest = ?2 AND expires_at > ?3
            AND (png_encoding = ?4 OR EXISTS (SELECT 1 FROM encoded_outputs WHERE entry_id = ?1 AND encoding = ?4))
            """
        return try row(sql, digest: digest, [.real(now), .text(encoding)]) { _ in true } ?? false
    }

    /// Whether the entry of `digest` is stored and unexpired at `now`.
    func containsEntry(for digest: StableDigest, now: Double) throws -> Bool {
        try row("SELECT 1 FROM entries WHERE id = ?1 AND digest = ?2 AND expires_at > ?3", digest: digest, [.real(now)]) { _ in
            true
        } ?? false
    }
}
