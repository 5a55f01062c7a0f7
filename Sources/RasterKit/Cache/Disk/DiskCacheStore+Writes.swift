import Foundation

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
    /// `enforcingLimit`, LRU eviction down to `byteLimit`. A warm run's batches are last-access
    /// times alone.
    func commit(_ entries: [EncodedEntry], encodedOutputs: [DiskCacheEncodedOutput] = [], touches: [StableDigest: Double],
                deletions: [DiskCacheDeletion], forgottenOutputs: [DiskCacheWriter.KeptOutputName] = [],
                byteLimit: Int, enforcingLimit: Bool = true, now: Double) throws -> CommitResult {
        try writing { db in
            for deletion in deletions {
                try db.execute("DELETE FROM entries WHERE id = ? AND digest = ? AND created_at = ?",
                               [.integer(deletion.digest.storedID), .blob(deletion.digest.storedBytes), .real(deletion.created)])
            }
            // A render of another version of its type can never be served again. Two ranges of
            // the type index rather than `<>`, which would walk every entry of the type.
            var seenVersions = Set<ComponentVersion>()
            for entry in entries
            where seenVersions.insert(ComponentVersion(typeName: entry.typeName, renderVersion: entry.renderVersion)).inserted {
                try db.execute("""
                    DELETE FROM entries WHERE rowid IN (
                        SELECT rowid FROM entries WHERE type_name = ?1 AND render_version < ?2
                        UNION ALL SELECT rowid FROM entries WHERE type_name = ?1 AND render_version > ?2)
                    """, [.text(entry.typeName), .int(entry.renderVersion)])
            }
            for entry in entries {
                let caps = entry.capInsets
                try db.execute("""
                    INSERT OR REPLACE INTO entries (id, digest, type_name, render_version, key_description, pixel_width,
                        pixel_height, scale, cap_top, cap_left, cap_bottom, cap_right, byte_size, created_at, last_access,
                        expires_at, children, checksum, png_encoding, png)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [
                    .integer(entry.digest.storedID), .blob(entry.digest.storedBytes), .text(entry.typeName),
                    .int(entry.renderVersion), .text(entry.keyDescription), .int(entry.pixelWidth), .int(entry.pixelHeight),
                    .real(entry.scale), .double(caps?.top), .double(caps?.left), .double(caps?.bottom), .double(caps?.right),
                    .int(entry.png.count), .real(entry.created), .real(entry.created), .real(entry.expires),
                    .string(entry.childrenJSON), .integer(entry.checksum), .string(entry.pngEncoding), .blob(entry.png),
                ])
            }
            try Self.keep(encodedOutputs, db)
            for name in forgottenOutputs {
                try db.execute("DELETE FROM encoded_outputs WHERE entry_id = ? AND encoding = ?",
                               [.integer(name.digest.storedID), .text(name.encoding)])
            }
            try Self.touch(touches, db)
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
    private static func keep(_ outputs: [DiskCacheEncodedOutput], _ db: SQLiteConnection) throws {
        for output in outputs {
            let id = SQLiteValue.integer(output.digest.storedID), digest = SQLiteValue.blob(output.digest.storedBytes)
            if output.isRenderPNG {
                try db.execute("""
                    UPDATE entries SET png = ?3, checksum = ?4, byte_size = length(?3), png_encoding = ?5
                    WHERE id = ?1 AND digest = ?2 AND png_encoding IS NOT ?5
                    """, [id, digest, .blob(output.bytes), .integer(output.checksum), .text(output.encoding)])
            } else {
                let inserted = try db.execute("""
                    INSERT OR IGNORE INTO encoded_outputs (entry_id, encoding, checksum, bytes)
                    SELECT id, ?3, ?4, ?5 FROM entries WHERE id = ?1 AND digest = ?2
                    """, [id, digest, .text(output.encoding), .integer(output.checksum), .blob(output.bytes)])
                if inserted > 0 { try grow(id, by: output.bytes.count, db) }
            }
        }
    }

    /// Counts bytes kept beside the entry `id` in its size.
    static func grow(_ id: SQLiteValue, by bytes: Int, _ db: SQLiteConnection) throws {
        try db.execute("UPDATE entries SET byte_size = byte_size + ?2 WHERE id = ?1", [id, .int(bytes)])
    }

    /// Writes batched last-access times into `access_times` (see the schema's v5), each only when
    /// later than the one there, for entries that are still stored: the one way a hit is noted.
    private static func touch(_ touches: [StableDigest: Double], _ db: SQLiteConnection) throws {
        guard !touches.isEmpty else { return }
        let touch = try db.statement("""
            INSERT INTO access_times (id, last_access) SELECT id, ?3 FROM entries WHERE id = ?1 AND digest = ?2
            ON CONFLICT (id) DO UPDATE SET last_access = excluded.last_access WHERE excluded.last_access > last_access
            """)
        for (digest, time) in touches {
            try digest.withStoredBytes { digestBytes in
                defer { touch.reset() }
                try touch.bind(digest.storedID, at: 1)
                try touch.bindUncopied(digestBytes, at: 2)
                try touch.bind(time, at: 3)
                while try touch.step() {}
            }
        }
    }

    /// Removes expired entries, then least recently used ones until at most `byteLimit` bytes remain.
    func prune(byteLimit: Int, now: Double) throws -> PruneReport {
        let report = try writing { db in try Self.prune(db, toBytes: byteLimit, now: now, total: nil) }
        if report.removedCount > 0 { try vacuumFreePages() }
        return report
    }

    /// Runs one deletion; returns how many rows it removed, giving their pages back when any.
    func delete(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int {
        let removed = try writing { try $0.execute(sql, arguments) }
        if removed > 0 { try vacuumFreePages() }
        return removed
    }

    /// Gives the pages freed by deletions back to the file system.
    func vacuumFreePages() throws {
        try writingWithoutTransaction { try $0.execute("PRAGMA incremental_vacuum") }
    }

    /// Removes expired entries, then the least recently used until at most `limit` bytes
    /// remain. `total` is the store's PNG bytes when the caller has just counted them.
    private static func prune(_ db: SQLiteConnection, toBytes limit: Int, now: Double, total: Int?) throws -> PruneReport {
        let expired = try db.column("DELETE FROM entries WHERE expires_at <= ? RETURNING byte_size", [.real(now)]).map(\.int)
        let expiredBytes = expired.reduce(0, +)
        let remaining = try total.map { $0 - expiredBytes } ?? totalBytes(db)
        guard remaining > limit else { return PruneReport(expired: expired.count, removedBytes: expiredBytes) }
        let removed = try db.column("""
            DELETE FROM entries WHERE rowid IN (
                SELECT rowid FROM (
                    SELECT rowid, sum(byte_size) OVER (ORDER BY \(DiskCacheSchema.lastAccessSQL) DESC
                                                       ROWS UNBOUNDED PRECEDING) AS kept
                    FROM entries)
                WHERE kept > ?)
            RETURNING byte_size
            """, [.int(limit)]).map(\.int)
        return PruneReport(expired: expired.count, evicted: removed.count, removedBytes: expiredBytes + removed.reduce(0, +))
    }

    private static func totalBytes(_ db: SQLiteConnection) throws -> Int {
        Int(try db.column("SELECT total(byte_size) FROM entries").first?.double ?? 0)
    }
}
