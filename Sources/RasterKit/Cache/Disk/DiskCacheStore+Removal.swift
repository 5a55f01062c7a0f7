import Foundation

extension DiskCacheStore {
    /// Removes the entry stored for `digest`; returns whether there was one.
    func remove(digest: StableDigest) throws -> Bool {
        try delete("DELETE FROM entries WHERE id = ? AND digest = ?", [.integer(digest.storedID), .blob(digest.storedBytes)]) > 0
    }

    /// Removes every entry created before `time`; returns how many there were.
    func remove(createdBefore time: Double) throws -> Int {
        try delete("DELETE FROM entries WHERE created_at < ?", [.real(time)])
    }

    /// Removes every entry of `typeName`; returns how many there were.
    func remove(typeName: String) throws -> Int {
        try delete("DELETE FROM entries WHERE type_name = ?", [.text(typeName)])
    }

    /// Removes every entry, and the records of runs, which name entries and without them only
    /// cost a lookup; returns how many entries there were.
    func removeAll() throws -> Int {
        let removed = try writing { db in
            let removed = try db.execute("DELETE FROM entries", [])
            try db.execute("DELETE FROM run_records")
            return removed
        }
        if removed > 0 { try vacuumFreePages() }
        return removed
    }
}
