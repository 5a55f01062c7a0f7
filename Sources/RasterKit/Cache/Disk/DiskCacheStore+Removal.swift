import Foundation
internal import GRDB

extension DiskCacheStore {
    /// Removes the entry stored for `digest`; returns whether there was one.
    func remove(digest: StableDigest) throws -> Bool {
        let removed = try writing { db in
            try db.execute(sql: "DELETE FROM entries WHERE id = ? AND digest = ?",
                           arguments: [digest.storedID, digest.storedBytes])
            return db.changesCount
        }
        if removed > 0 { try vacuumFreePages() }
        return removed > 0
    }

    /// Removes every entry created before `time`; returns how many there were.
    func remove(createdBefore time: Double) throws -> Int {
        let removed = try writing { db in
            try db.execute(sql: "DELETE FROM entries WHERE created_at < ?", arguments: [time])
            return db.changesCount
        }
        if removed > 0 { try vacuumFreePages() }
        return removed
    }
}
