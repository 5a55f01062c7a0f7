import Foundation
internal import GRDB

extension DiskCacheStore {
    /// The record of the run named `digest`, with the checksum it was written with.
    func runRecord(for digest: StableDigest) throws -> (checksum: Int64, lastAccess: Double, body: Data)? {
        try reader.withConnection { try $0.runRecord(for: digest) }
    }

    /// Stores `body` as the record of the run named `digest` (replacing an older one), then
    /// removes the least recently used records beyond `limit`.
    func saveRunRecord(_ body: Data, checksum: Int64, for digest: StableDigest, now: Double, limit: Int) throws {
        try writing { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO run_records (id, digest, checksum, last_access, body) VALUES (?, ?, ?, ?, ?)
                """, arguments: [digest.storedID, digest.storedBytes, checksum, now, body])
            try db.execute(sql: """
                DELETE FROM run_records WHERE id NOT IN (SELECT id FROM run_records ORDER BY last_access DESC LIMIT ?)
                """, arguments: [limit])
        }
    }

    /// Whether the entry of `digest` is stored, unexpired, with bytes for `encoding` (its own PNG,
    /// or bytes kept beside it); their checksum is checked when they are read.
    func holdsEncodedOutput(for digest: StableDigest, encoding: String, now: Double) throws -> Bool {
        try reader.withConnection { try $0.holdsEncodedOutput(for: digest, encoding: encoding, now: now) }
    }

    /// Removes the record of `digest` (damaged, or naming what the store no longer holds).
    func removeRunRecord(_ digest: StableDigest) throws {
        try writing { db in
            try db.execute(sql: "DELETE FROM run_records WHERE id = ? AND digest = ?",
                           arguments: [digest.storedID, digest.storedBytes])
        }
    }
}
