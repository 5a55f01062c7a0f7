extension RasterCache {
    /// How many renders a removal took out of each tier.
    public struct RemovalReport: Hashable, Sendable {
        /// Images removed from memory.
        public var memory = 0
        /// Entries removed from the disk store, pending ones included.
        public var disk = 0

        /// A report of nothing removed.
        public init() {}
    }

    /// Removes the render for `key` from memory and from the disk store, so the next request
    /// draws it again; returns whether either tier held it. A draw of that key already under
    /// way still stores its result when it finishes.
    ///
    /// - Throws: ``DiskCacheError`` when the disk store cannot be written; the memory tier has
    ///   then already dropped the image.
    @discardableResult
    public func remove(_ key: CacheKey) throws -> Bool {
        let wasInMemory = memory.contains(key)
        memory.removeImage(for: key)
        let wasOnDisk = try disk?.remove(key) ?? false
        return wasInMemory || wasOnDisk
    }

    /// Removes the renders `filter` picks — every render of a type, or every render stored more
    /// than an age ago — from memory and from the disk store.
    ///
    /// ```swift
    /// try cache.removeAll(where: .typeName(String(reflecting: Badge.self)))
    /// try cache.removeAll(where: .olderThan(24 * 60 * 60))
    /// ```
    ///
    /// - Throws: ``CacheRemovalError`` for a filter that cannot be run, before anything is
    ///   removed; ``DiskCacheError`` when the disk store fails (memory is then already trimmed).
    @discardableResult
    public func removeAll(where filter: CacheEntryFilter) throws -> RemovalReport {
        try filter.validate()
        var report = RemovalReport()
        report.memory = try memory.removeAll(where: filter)
        report.disk = try disk?.removeAll(where: filter) ?? 0
        return report
    }
}
