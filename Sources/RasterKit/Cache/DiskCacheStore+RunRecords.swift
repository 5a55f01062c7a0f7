import Foundation
internal import GRDB

extension DiskCacheStore {
    /// The record of the run named `digest`, with the checksum it was written with.
    func runRecord(for digest: StableDigest) throws -> (checksum: Int64, lastAccess: Double, body: Data)? {
        try reading { db in
            let statement = try db.cachedStatement(sql: """
                SELECT checksum, last_access, body FROM run_records WHERE id = ? AND digest = ?
                """)
            guard let row = try Row.fetchOne(statement, arguments: [digest.storedID, digest.storedBytes]) else { return nil }
            return (row[0], row[1], row[2])
        }
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
        try reading { db in
            let statement = try db.cachedStatement(sql: """
                SELECT 1 FROM entries WHERE id = ?1 AND digest = ?2 AND expires_at > ?3
                AND (png_encoding = ?4 OR EXISTS (SELECT 1 FROM encoded_outputs WHERE entry_id = ?1 AND encoding = ?4))
                """)
            return try Int.fetchOne(statement, arguments: [digest.storedID, digest.storedBytes, now, encoding]) != nil
        }
    }

    /// Notes that the record of `digest` was used at `now`, so pruning keeps it.
    func touchRunRecord(_ digest: StableDigest, now: Double) throws {
        try writing { db in
            try db.execute(sql: "UPDATE run_records SET last_access = ? WHERE id = ? AND digest = ?",
                           arguments: [now, digest.storedID, digest.storedBytes])
        }
    }

    /// Removes the record of `digest` (damaged, or naming what the store no longer holds).
    func removeRunRecord(_ digest: StableDigest) throws {
        try writing { db in
            try db.execute(sql: "DELETE FROM run_records WHERE id = ? AND digest = ?",
                           arguments: [digest.storedID, digest.storedBytes])
        }
    }
}
