import Foundation

extension DiskCache {
    /// Removes the render stored for `key`, a pending one included; returns whether one was
    /// stored or pending. Other processes sharing the store miss it from their next lookup on
    /// (what they already hold in memory stays there).
    @discardableResult
    public func remove(_ key: CacheKey) throws -> Bool {
        try remove(key.value)
    }

    /// Removes the render whose key has `digest`, 32 hexadecimal digits as ``CacheKey/digest``
    /// prints them (what `rasterkit cache remove --key` takes); returns whether one was stored.
    ///
    /// - Throws: ``CacheRemovalError/invalidDigest(_:)`` for anything but 32 hexadecimal
    ///   digits, before the store is touched; ``DiskCacheError`` when the store fails.
    @discardableResult
    public func remove(digest: String) throws -> Bool {
        try remove(StableDigest.parsing(digest))
    }

    /// Removes every render of the entries `filter` picks, pending ones included; returns how
    /// many were stored.
    ///
    /// - Throws: ``CacheRemovalError`` for a filter that cannot be run (an empty type name, a
    ///   negative or NaN age), before the store is touched, or a type name several modules'
    ///   types have, before anything is removed; ``DiskCacheError`` when the store fails.
    @discardableResult
    public func removeAll(where filter: CacheEntryFilter) throws -> Int {
        try filter.validate()
        switch filter.criterion {
        case .typeName:
            try checkOpen(.write)
            return try writer.exclusively {
                // Pending renders are written by now, so the store knows every type name.
                guard let typeName = try filter.resolvedTypeName(among: store.typeSummaries().map(\.typeName)) else { return 0 }
                writer.discardUnwritten { $0.key.typeName == typeName }
                return try store.remove(typeName: typeName)
            }
        case .olderThan(let age):
            try checkOpen(.write)
            return try writer.exclusively {
                let cutoff = options.clock() - age
                writer.discardUnwritten { $0.created < cutoff }
                return try store.remove(createdBefore: cutoff)
            }
        }
    }

    private func remove(_ digest: StableDigest) throws -> Bool {
        try checkOpen(.write)
        return try writer.exclusively {
            let wasPending = writer.unwrittenEntry(for: digest) != nil
            writer.discardUnwritten { $0.key.value == digest }
            let wasStored = try store.remove(digest: digest)
            return wasPending || wasStored
        }
    }
}
