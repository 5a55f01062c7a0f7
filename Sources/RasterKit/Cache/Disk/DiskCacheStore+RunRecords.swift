import Foundation

extension DiskCacheStore {
    /// The record of the run named `digest`, with the checksum it was written with.
    func runRecord(for digest: StableDigest) throws -> (checksum: Int64, lastAccess: Double, body: Data)? {
        try reader.withConnection { try $0.runRecord(for: digest) }
    }

    /// Stores `body` as the record of the run named `digest` (replacing an older one), then
    /// removes the least recently used records beyond `limit`.
    func saveRunRecord(_ body: Data, checksum: Int64, for digest: StableDigest, now: Double, limit: Int) throws {
        try writing { db in
            try db.execute("INSERT OR REPLACE INTO run_records (id, digest, checksum, last_access, body) VALUES (?, ?, ?, ?, ?)",
                           [.integer(digest.storedID), .blob(digest.storedBytes), .integer(checksum), .real(now), .blob(body)])
            try db.execute("DELETE FROM run_records WHERE id NOT IN (SELECT id FROM run_records ORDER BY last_access DESC LIMIT ?)",
                           [.int(limit)])
        }
    }

    /// Notes that the record of `digest` was used at `now`, so pruning keeps it.
    func touchRunRecord(_ digest: StableDigest, now: Double) throws {
        try writing { db in
            try db.execute("UPDATE run_records SET last_access = ?1 WHERE id = ?2 AND digest = ?3",
                           [.real(now), .integer(digest.storedID), .blob(digest.storedBytes)])
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
            try db.execute("DELETE FROM run_records WHERE id = ? AND digest = ?", [.integer(digest.storedID), .blob(digest.storedBytes)])
        }
    }
}
