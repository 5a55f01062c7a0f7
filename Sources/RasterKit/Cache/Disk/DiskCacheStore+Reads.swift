import Foundation

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
        try reader.withConnection { try $0.containsEntry(for: digest, now: now) }
    }

    /// Entries, PNG bytes and expired entries in the whole store.
    func totals(now: Double) throws -> (count: Int, bytes: Int, expired: Int) {
        try reading { try DiskCacheQueries.totals($0, now: now) }
    }

    /// Entries and bytes per component type, largest first.
    func typeSummaries() throws -> [DiskCacheTypeSummary] {
        try reading { try DiskCacheQueries.typeSummaries($0) }
    }

    /// Metadata of the entries of one type, oldest first.
    func entries(typeName: String) throws -> [DiskCacheEntryInfo] {
        try reading { try DiskCacheQueries.entryInfos($0, where: "type_name = ?1", [.text(typeName)]) }
    }

    /// Metadata of the entries created before `time`, oldest first.
    func entries(createdBefore time: Double) throws -> [DiskCacheEntryInfo] {
        try reading { try DiskCacheQueries.entryInfos($0, where: "created_at < ?1", [.real(time)]) }
    }

    /// Every entry's digest, PNG bytes and creation time, for integrity checks in tests.
    func allPNGs() throws -> [(digest: StableDigest, png: Data, created: Double)] {
        try reading { connection in
            try connection.statement("SELECT digest, png, created_at FROM entries").rows { row in
                StableDigest(storedBytes: row.data(0)).map { ($0, row.data(1), row.double(2)) }
            }.compactMap { $0 }
        }
    }

    /// `PRAGMA quick_check` on the store as it is now.
    func quickCheck() throws -> [String] {
        try reading { try $0.column("PRAGMA quick_check").compactMap(\.string) }
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
