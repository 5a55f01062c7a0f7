import Foundation
internal import GRDB
internal import GRDBSQLite

extension DiskCacheStore {
    /// A render ready to insert: its PNG encoded and its metadata laid out as columns.
    struct EncodedEntry {
        let digest: StableDigest
        let typeName: String
        let renderVersion: Int
        let keyDescription: String
        let pixelWidth: Int
        let pixelHeight: Int
        let scale: Double
        let capInsets: EdgeInsets?
        let png: Data
        /// The encoder that made `png` when a batch wrote it to a file; nil for the store's own.
        let pngEncoding: String?
        /// ``DiskCacheChecksum`` of `digest` and `png`.
        let checksum: Int64
        let created: Double
        let expires: Double
        let childrenJSON: String?
    }

    /// What a batch's eviction did, and the store's PNG bytes after it when they were counted.
    struct CommitResult {
        var eviction = PruneReport()
        var totalBytes: Int?
    }

    /// Writes one batch in one transaction: deletions, the new entries (replacing older renders
    /// of their keys and every entry of their types at another render version), the encoded
    /// outputs offered for stored entries, the batched last-access times, then, when
    /// `enforcingLimit`, LRU eviction down to `byteLimit`.
    func commit(_ entries: [EncodedEntry], encodedOutputs: [DiskCacheEncodedOutput] = [], touches: [StableDigest: Double],
                deletions: [DiskCacheDeletion], forgottenOutputs: [DiskCacheWriter.KeptOutputName] = [],
                byteLimit: Int, enforcingLimit: Bool = true, now: Double) throws -> CommitResult {
        try writing { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM entries WHERE id = ? AND digest = ? AND created_at = ?")
            for deletion in deletions {
                try delete.execute(arguments: [deletion.digest.storedID, deletion.digest.storedBytes, deletion.created])
            }
            // A render of another version of its type can never be served again. Two ranges of
            // the type index rather than `<>`, which would walk every entry of the type.
            let stale = try db.cachedStatement(sql: """
                DELETE FROM entries WHERE rowid IN (
                    SELECT rowid FROM entries WHERE type_name = ?1 AND render_version < ?2
                    UNION ALL SELECT rowid FROM entries WHERE type_name = ?1 AND render_version > ?2)
                """)
            var seenVersions = Set<ComponentVersion>()
            for entry in entries
            where seenVersions.insert(ComponentVersion(typeName: entry.typeName, renderVersion: entry.renderVersion)).inserted {
                try stale.execute(arguments: [entry.typeName, entry.renderVersion])
            }
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO entries (id, digest, type_name, render_version, key_description, pixel_width,
                    pixel_height, scale, cap_top, cap_left, cap_bottom, cap_right, byte_size, created_at, last_access,
                    expires_at, children, checksum, png_encoding, png)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for entry in entries {
                let caps = entry.capInsets
                try insert.execute(arguments: [
                    entry.digest.storedID, entry.digest.storedBytes, entry.typeName, entry.renderVersion, entry.keyDescription,
                    entry.pixelWidth, entry.pixelHeight, entry.scale, caps?.top, caps?.left, caps?.bottom,
                    caps?.right, entry.png.count, entry.created, entry.created, entry.expires,
                    entry.childrenJSON, entry.checksum, entry.pngEncoding, entry.png,
                ])
            }
            try Self.keep(encodedOutputs, db)
            let forget = try db.cachedStatement(sql: "DELETE FROM encoded_outputs WHERE entry_id = ? AND encoding = ?")
            for name in forgottenOutputs { try forget.execute(arguments: [name.digest.storedID, name.encoding]) }
            try Self.touch(touches, on: try Self.handle(of: db, path: path), path: path)
            guard enforcingLimit else { return CommitResult() }
            let total = try Self.totalBytes(db)
            let eviction = total > byteLimit ? try Self.prune(db, toBytes: byteLimit, now: now, total: total) : PruneReport()
            return CommitResult(eviction: eviction, totalBytes: total - eviction.removedBytes)
        }
    }

    /// Stores bytes batches wrote to files for entries that are stored: a render's own PNG
    /// replaces the entry's encoding (the same pixels, now the bytes a file holds); other bytes
    /// are kept beside it and counted in its size, so the byte limit and eviction see them.
    /// Bytes whose entry is gone (evicted, replaced, never written) are dropped.
    private static func keep(_ outputs: [DiskCacheEncodedOutput], _ db: Database) throws {
        guard !outputs.isEmpty else { return }
        let replace = try db.cachedStatement(sql: """
            UPDATE entries SET png = ?3, checksum = ?4, byte_size = length(?3), png_encoding = ?5
            WHERE id = ?1 AND digest = ?2 AND png_encoding IS NOT ?5
            """)
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO encoded_outputs (entry_id, encoding, checksum, bytes)
            SELECT id, ?3, ?4, ?5 FROM entries WHERE id = ?1 AND digest = ?2
            """)
        let grow = try db.cachedStatement(sql: "UPDATE entries SET byte_size = byte_size + ?2 WHERE id = ?1")
        for output in outputs {
            let digest = output.digest
            if output.isRenderPNG {
                try replace.execute(arguments: [digest.storedID, digest.storedBytes, output.bytes, output.checksum,
                                                output.encoding])
            } else {
                try insert.execute(arguments: [digest.storedID, digest.storedBytes, output.encoding, output.checksum,
                                               output.bytes])
                if db.changesCount > 0 { try grow.execute(arguments: [digest.storedID, output.bytes.count]) }
            }
        }
    }

    /// Removes expired entries, then least recently used ones until at most `byteLimit` bytes remain.
    func prune(byteLimit: Int, now: Double) throws -> PruneReport {
        let report = try writing { db in try Self.prune(db, toBytes: byteLimit, now: now, total: nil) }
        if report.removedCount > 0 { try vacuumFreePages() }
        return report
    }

    /// Removes every entry of `typeName`; returns how many there were.
    func remove(typeName: String) throws -> Int {
        let removed = try writing { db in
            try db.execute(sql: "DELETE FROM entries WHERE type_name = ?", arguments: [typeName])
            return db.changesCount
        }
        if removed > 0 { try vacuumFreePages() }
        return removed
    }

    /// Removes every entry; returns how many there were.
    func removeAll() throws -> Int {
        let removed = try writing { db in
            try db.execute(sql: "DELETE FROM entries")
            let removed = db.changesCount
            // Records of runs name entries; without them they only cost a lookup.
            try db.execute(sql: "DELETE FROM run_records")
            return removed
        }
        if removed > 0 { try vacuumFreePages() }
        return removed
    }

    /// Copies committed pages from the WAL into the database file without waiting for readers:
    /// lookups read them through the file's mapping, and the next open has little to replay
    /// (the last connection a pool closes is a reader, which cannot checkpoint). Without a
    /// pool, the inspecting connection checkpoints what it wrote (`writingPlainly`), if
    /// anything; no pool is opened to copy nothing.
    func checkpoint() {
        let pool: DatabasePool? = withConnectionState { state in
            switch state {
            case .open(let pool): return pool
            case .deferred(let inspector): inspector.checkpoint()
            case .closed: break
            }
            return nil
        }
        _ = try? pool?.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// Gives the pages freed by deletions back to the file system.
    func vacuumFreePages() throws {
        do {
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA incremental_vacuum") }
        } catch {
            throw DiskCacheError.wrapping(error, operation: .write, path: path)
        }
    }

    /// Removes expired entries, then the least recently used until at most `limit` bytes
    /// remain. `total` is the store's PNG bytes when the caller has just counted them.
    private static func prune(_ db: Database, toBytes limit: Int, now: Double, total: Int?) throws -> PruneReport {
        let expired = try Int.fetchAll(db, sql: "DELETE FROM entries WHERE expires_at <= ? RETURNING byte_size",
                                       arguments: [now])
        let expiredBytes = expired.reduce(0, +)
        let remaining = try total.map { $0 - expiredBytes } ?? totalBytes(db)
        guard remaining > limit else { return PruneReport(expired: expired.count, removedBytes: expiredBytes) }
        let removed = try Int.fetchAll(db, sql: """
            DELETE FROM entries WHERE rowid IN (
                SELECT rowid FROM (
                    SELECT rowid, sum(byte_size) OVER (ORDER BY \(DiskCacheSchema.lastAccessSQL) DESC
                                                       ROWS UNBOUNDED PRECEDING) AS kept
                    FROM entries)
                WHERE kept > ?)
            RETURNING byte_size
            """, arguments: [limit])
        return PruneReport(expired: expired.count, evicted: removed.count, removedBytes: expiredBytes + removed.reduce(0, +))
    }

    private static func totalBytes(_ db: Database) throws -> Int {
        Int(try Double.fetchOne(db, sql: "SELECT total(byte_size) FROM entries") ?? 0)
    }
}
