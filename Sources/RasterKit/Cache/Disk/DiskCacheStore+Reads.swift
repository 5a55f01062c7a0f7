import Foundation
internal import GRDB

extension DiskCacheStore {
    /// A stored entry as a lookup needs it (see ``DiskCacheReader``).
    struct StoredEntry {
        var created: Double
        var expires: Double
        var lastAccess: Double
        var pixelWidth: Int
        var pixelHeight: Int
        var scale: Double
        var capInsets: EdgeInsets?
        var childrenJSON: String?
        /// ``DiskCacheChecksum`` as written; nil for entries written before checksums were.
        var checksum: Int64?
        var png: Data
        /// The encoder that made `png` when a batch wrote those bytes to a file; nil for the store's own.
        var pngEncoding: String?
    }

    /// The bytes kept beside the entry of `digest` for `encoding`, with their checksum.
    func encodedOutput(for digest: StableDigest, encoding: String) throws -> (checksum: Int64, bytes: Data)? {
        try reader.withConnection { try $0.keptOutput(for: digest, encoding: encoding) }
    }

    func containsEntry(for digest: StableDigest, now: Double) throws -> Bool {
        try reading { db in
            let statement = try db.cachedStatement(sql: "SELECT 1 FROM entries WHERE id = ? AND digest = ? AND expires_at > ?")
            return try Int.fetchOne(statement, arguments: [digest.storedID, digest.storedBytes, now]) != nil
        }
    }

    /// Entries, PNG bytes and expired entries in the whole store.
    func totals(now: Double) throws -> (count: Int, bytes: Int, expired: Int) {
        try reading { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*), total(byte_size), (SELECT count(*) FROM entries WHERE expires_at <= ?) FROM entries
                """, arguments: [now])
            return (row?[0] ?? 0, Int(row?[1] ?? 0.0), row?[2] ?? 0)
        }
    }

    /// Entries and bytes per component type, largest first.
    func typeSummaries() throws -> [DiskCacheTypeSummary] {
        try reading { db in
            try Row.fetchAll(db, sql: """
                SELECT type_name, count(*), total(byte_size) FROM entries GROUP BY type_name
                ORDER BY total(byte_size) DESC, type_name
                """).map { row in
                DiskCacheTypeSummary(typeName: row[0], count: row[1], totalBytes: Int(row[2] as Double))
            }
        }
    }

    /// Metadata of the entries of one type, oldest first.
    func entries(typeName: String) throws -> [DiskCacheEntryInfo] {
        try entryInfos(where: "type_name = ?", arguments: [typeName])
    }

    /// Metadata of the entries created before `time`, oldest first.
    func entries(createdBefore time: Double) throws -> [DiskCacheEntryInfo] {
        try entryInfos(where: "created_at < ?", arguments: [time])
    }

    /// Every entry's digest, PNG bytes and creation time, for integrity checks in tests.
    func allPNGs() throws -> [(digest: StableDigest, png: Data, created: Double)] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT digest, png, created_at FROM entries").compactMap { row in
                StableDigest(storedBytes: row[0]).map { ($0, row[1], row[2]) }
            }
        }
    }

    /// `PRAGMA quick_check` on the store as it is now.
    func quickCheck() throws -> [String] {
        try reading { try String.fetchAll($0, sql: "PRAGMA quick_check") }
    }

    private func entryInfos(where condition: String, arguments: StatementArguments) throws -> [DiskCacheEntryInfo] {
        try reading { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT digest, type_name, render_version, key_description, pixel_width, pixel_height, scale,
                       cap_top, cap_left, cap_bottom, cap_right, byte_size, created_at, \(DiskCacheSchema.lastAccessSQL),
                       expires_at, children
                FROM entries WHERE \(condition) ORDER BY created_at, digest
                """, arguments: arguments)
            var infos: [DiskCacheEntryInfo] = []
            while let row = try rows.next() {
                let digest: Data = row[0]
                var capInsets: EdgeInsets?
                if let top: Double = row[7], let left: Double = row[8], let bottom: Double = row[9], let right: Double = row[10] {
                    capInsets = EdgeInsets(top: top, left: left, bottom: bottom, right: right)
                }
                infos.append(DiskCacheEntryInfo(
                    digest: StableDigest(storedBytes: digest)?.hex ?? HexDigits.of(digest),
                    typeName: row[1], renderVersion: row[2], keyDescription: row[3], pixelWidth: row[4],
                    pixelHeight: row[5], scale: row[6], capInsets: capInsets, byteSize: row[11],
                    created: Date(timeIntervalSince1970: row[12]), lastAccess: Date(timeIntervalSince1970: row[13]),
                    expires: Date(timeIntervalSince1970: row[14]),
                    children: DiskCacheChildren.decode(row[15]) ?? []))
            }
            return infos
        }
    }
}

/// Children are kept as a JSON array of `{"renderVersion":…,"typeName":…}`, readable in the
/// sqlite3 shell and queryable with `json_each`; NULL when the render drew no components.
enum DiskCacheChildren {
    static func encode(_ children: [ComponentVersion]) -> String? {
        guard !children.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(children)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// nil when the text is not such an array. Entries of a batch share a handful of child
    /// lists, and decoding JSON costs more than the rest of a disk hit, so each distinct text is
    /// decoded once (up to `memoLimit` of them).
    static func decode(_ text: String?) -> [ComponentVersion]? {
        guard let text else { return [] }
        if let known = memo.withLock({ $0[text] }) { return known }
        guard let decoded = try? JSONDecoder().decode([ComponentVersion].self, from: Data(text.utf8)) else {
            return nil
        }
        memo.withLock { memo in
            if memo.count >= memoLimit { memo.removeAll(keepingCapacity: true) }
            memo[text] = decoded
        }
        return decoded
    }

    private static let memo = Lock<[String: [ComponentVersion]]>([:])
    private static let memoLimit = 4_096
}
