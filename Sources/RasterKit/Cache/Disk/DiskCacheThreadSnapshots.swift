import Foundation

/// Lookups on one thread that share a store connection and its snapshot, for as long as
/// ``sharing(_:)`` runs: a batch worker looks up one stored render after another, and each
/// lookup on its own would take and drop SQLite's shared locks, with the mutex of the WAL index
/// that the other workers take too.
///
/// A snapshot is kept only while it is recent (``DiskCacheReadConnection/snapshotLookups``), so
/// the thread still sees what was stored since, a moment later. A lookup that misses something
/// stored within that moment draws it again; nothing wrong is ever served, since every entry
/// found is checked against its key as always. The connections go back to their readers, with
/// no snapshot open, when ``sharing(_:)`` returns.
final class DiskCacheThreadSnapshots {
    /// The connection this thread holds from each reader it looked up in.
    private var held: [(reader: DiskCacheReader, connection: DiskCacheReadConnection)] = []

    private init() {}

    /// Runs `body` with this thread's lookups sharing snapshots; inside another `sharing`, the
    /// outer one's.
    static func sharing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if current != nil { return try body() }
        let snapshots = DiskCacheThreadSnapshots()
        pthread_setspecific(threadKey, Unmanaged.passUnretained(snapshots).toOpaque())
        defer {
            pthread_setspecific(threadKey, nil)
            snapshots.returnConnections()
        }
        return try body()
    }

    /// The current thread's snapshots, inside ``sharing(_:)``.
    static var current: DiskCacheThreadSnapshots? {
        pthread_getspecific(threadKey).map { Unmanaged<DiskCacheThreadSnapshots>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The connection this thread keeps from `reader`, checked out on its first lookup.
    func connection(of reader: DiskCacheReader) throws -> DiskCacheReadConnection {
        if let kept = held.first(where: { $0.reader === reader }) { return kept.connection }
        let connection = try reader.checkOut()
        held.append((reader, connection))
        return connection
    }

    private func returnConnections() {
        for (reader, connection) in held { reader.checkIn(connection) }
        held = []
    }

    /// Holds no reference: ``sharing(_:)`` keeps the object alive while the key points to it.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}

extension DiskCache {
    /// Runs `body` with the current thread's store lookups sharing a connection and a recent
    /// snapshot of the store (see `DiskCacheThreadSnapshots`): for a thread that looks up many
    /// stored renders in a row, such as a batch worker.
    package static func sharingSnapshots<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try DiskCacheThreadSnapshots.sharing(body)
    }
}
