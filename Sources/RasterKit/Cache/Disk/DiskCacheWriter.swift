import Dispatch
import Foundation
internal import Logging

/// Takes renders off the render path and writes them in batches: one transaction per
/// `batchSize` entries or per `batchInterval`, whichever comes first, on one serial queue that
/// owns the store's writer connection. PNG encoding happens here too, unless a batch hands
/// over the PNG it already wrote to a file. Last-access times and
/// deletions ride along in the same transactions. Until an entry is committed, lookups in this
/// process are served from it.
final class DiskCacheWriter: Sendable {
    private struct State {
        /// Entries not yet taken by a batch, oldest first.
        var queued: [DiskCachePendingEntry] = []
        /// Pixel bytes held by `queued`.
        var queuedBytes = 0
        /// Every entry not yet committed (queued or in a batch being written), newest per key.
        var unwritten: [StableDigest: DiskCachePendingEntry] = [:]
        /// The latest hit time per entry since the last batch.
        var touches: [StableDigest: Double] = [:]
        var deletions: Set<DiskCacheDeletion> = []
        /// Files' bytes a batch handed over for entries (see `DiskCache.keepEncodedOutput`).
        var keptOutputs: [DiskCacheEncodedOutput] = []
        /// Kept bytes found damaged, to delete.
        var forgottenOutputs: Set<KeptOutputName> = []
        var nextSequence: UInt64 = 0
        var isDrainScheduled = false
        var isClosed = false
        /// The first write failure since the last flush, which that flush reports.
        var failureSinceFlush: DiskCacheError?
        /// Whether the last batch failed: a full or read-only disk fails every batch, and one
        /// warning says so; the next success re-arms it.
        var isFailing = false
        /// The store's PNG bytes as last counted, plus what this process wrote since, and when
        /// they were counted: batches skip counting while the estimate is well under the limit.
        var estimatedBytes: Int?
        var lastCount = -Double.infinity

        var hasWork: Bool {
            !queued.isEmpty || !touches.isEmpty || !deletions.isEmpty || !keptOutputs.isEmpty || !forgottenOutputs.isEmpty
        }

        /// Counts `queuedBytes` again after renders were taken out of the queue other than by a batch.
        mutating func recountQueuedBytes() {
            queuedBytes = queued.reduce(0) { $0 + $1.byteCount } + keptOutputs.reduce(0) { $0 + $1.bytes.count }
        }
    }

    private struct Batch {
        var entries: [DiskCachePendingEntry]
        var touches: [StableDigest: Double]
        var deletions: [DiskCacheDeletion]
        var keptOutputs: [DiskCacheEncodedOutput]
        var forgottenOutputs: [KeptOutputName]
    }

    /// Kept bytes of one entry and encoding.
    struct KeptOutputName: Hashable, Sendable {
        let digest: StableDigest
        let encoding: String
    }

    private let store: DiskCacheStore
    private let options: DiskCacheOptions
    private let byteLimit: Int
    private let counters: DiskCacheCounters
    private let queue = DispatchQueue(label: "RasterKit.DiskCache.writer", qos: .utility)
    private let state = Lock(State())

    init(store: DiskCacheStore, options: DiskCacheOptions, byteLimit: Int, counters: DiskCacheCounters) {
        self.store = store
        self.options = options
        self.byteLimit = byteLimit
        self.counters = counters
    }

    // MARK: Called from render threads

    /// Queues a render for writing, with `png` when it is already encoded (by the encoder named
    /// `encoding`; nil for the store's own), so that it is not encoded again; returns at once.
    func enqueue(key: CacheKey, image: RasterImage, png: Data?, encoding: String?, children: [ComponentVersion],
                 created: Double, expires: Double) {
        enqueue(key: key, byteCount: image.byteCount) { sequence in
            var entry = DiskCachePendingEntry(key: key, image: image, children: children, created: created, expires: expires,
                                              sequence: sequence)
            entry.png = png
            entry.pngEncoding = encoding
            return entry
        }
    }

    /// Queues a render known only as `png` (made by the encoder named `encoding`, nil for the
    /// store's own) for writing, without decoding it; returns at once.
    func enqueue(key: CacheKey, png: Data, encoding: String?, geometry: StoredRenderGeometry, children: [ComponentVersion],
                 created: Double, expires: Double) {
        enqueue(key: key, byteCount: png.count) { sequence in
            DiskCachePendingEntry(key: key, png: png, encoding: encoding, geometry: geometry, children: children,
                                  created: created, expires: expires, sequence: sequence)
        }
    }

    private func enqueue(key: CacheKey, byteCount: Int, entry makeEntry: (UInt64) -> DiskCachePendingEntry) {
        enum Outcome { case queued(batchIsFull: Bool), closed, overflowing }
        let outcome: Outcome = state.withLock { state in
            guard !state.isClosed else { return .closed }
            // Renders made faster than they can be written must not pile up without bound.
            guard state.queuedBytes + byteCount <= options.maximumQueuedBytes else { return .overflowing }
            state.nextSequence += 1
            let entry = makeEntry(state.nextSequence)
            state.queued.append(entry)
            state.queuedBytes += entry.byteCount
            state.unwritten[key.value] = entry
            return .queued(batchIsFull: state.queued.count >= options.batchSize)
        }
        switch outcome {
        case .queued(let batchIsFull):
            if batchIsFull { queue.async { self.drain() } } else { scheduleDrain() }
        case .closed:
            options.logger.debug("render not stored: the disk cache is closed", metadata: ["key": "\(key)"])
        case .overflowing:
            counters.withLock { $0.writeFailures += 1 }
            options.logger.warning("render not stored: too many renders are waiting to be written",
                                   metadata: ["key": "\(key)", "limit": "\(options.maximumQueuedBytes)"])
        }
    }

    /// The newest uncommitted render of `digest`, if any.
    func unwrittenEntry(for digest: StableDigest) -> DiskCachePendingEntry? {
        state.withLock { $0.unwritten[digest] }
    }

    /// Forgets the uncommitted render of `digest` made at `created` (one the cache refused), so
    /// it is neither served again nor written. One a batch has already taken is written; the
    /// deletion the caller queues with this removes it then.
    func dropUnwritten(digest: StableDigest, created: Double) {
        state.withLock { state in
            guard let entry = state.unwritten[digest], entry.created == created, !entry.isSealed else { return }
            state.unwritten[digest] = nil
            state.queued.removeAll { $0.key.value == digest && $0.sequence == entry.sequence }
            state.recountQueuedBytes()
        }
    }

    /// Keeps `png`, made by the encoder named `encoding` (nil: the store's own), with the
    /// unwritten entry of `digest`, to be stored instead of encoding it. Returns false when no
    /// entry of `digest` waits to be written, or its batch has already taken what was handed
    /// over (it is being encoded or committed): then the caller keeps the bytes with
    /// ``keep(_:)``, which writes them once the entry is committed. Adopting then would lose
    /// them: the cold run of a batch left a few outputs without their file's bytes that way.
    @discardableResult
    func adoptEncoding(_ png: Data, encoding: String?, for digest: StableDigest) -> Bool {
        state.withLock { state in
            guard let entry = state.unwritten[digest], !entry.isSealed else { return false }
            state.unwritten[digest]?.png = png
            state.unwritten[digest]?.pngEncoding = encoding
            return true
        }
    }

    /// Queues bytes a batch wrote to a file, for an entry that is stored or about to be.
    func keep(_ output: DiskCacheEncodedOutput) {
        let accepted = state.withLock { state in
            // Bounded like renders: kept bytes are an optimisation, never worth unbounded memory.
            guard !state.isClosed, state.queuedBytes + output.bytes.count <= options.maximumQueuedBytes else { return false }
            state.keptOutputs.append(output)
            state.queuedBytes += output.bytes.count
            return true
        }
        if accepted { scheduleDrain() }
    }

    /// Queues the deletion of kept bytes that failed their checksum.
    func forgetEncodedOutput(digest: StableDigest, encoding: String) {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.forgottenOutputs.insert(KeptOutputName(digest: digest, encoding: encoding))
            return true
        }
        if accepted { scheduleDrain() }
    }

    /// Notes a hit, to be written with the next batch.
    func touch(_ digest: StableDigest, at time: Double) {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.touches[digest] = max(time, state.touches[digest] ?? time)
            return true
        }
        if accepted { scheduleDrain() }
    }

    /// Queues the deletion of an entry that could not be served.
    func delete(_ deletion: DiskCacheDeletion) {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.deletions.insert(deletion)
            return true
        }
        if accepted { scheduleDrain() }
    }

    var pendingCount: Int { state.withLock { $0.unwritten.count } }

    // MARK: Called by the cache's maintenance methods

    /// Writes everything queued so far; throws the first write failure since the last flush.
    func flush() throws {
        let failure: DiskCacheError? = queue.sync {
            drain()
            // Lookups then read the new pages through the file's memory mapping, not the WAL.
            store.checkpoint()
            return state.withLock { state in
                defer { state.failureSinceFlush = nil }
                return state.failureSinceFlush
            }
        }
        if let failure { throw failure }
    }

    /// Starts writing everything queued so far on the writer queue, and returns at once.
    func startDraining() {
        queue.async { self.drain() }
    }

    /// Runs `body` on the writer queue, after everything queued has been written, so that no
    /// batch interleaves with it. The store's size is counted again afterwards.
    func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync {
            drain()
            defer { state.withLock { $0.estimatedBytes = nil } }
            return try body()
        }
    }

    /// Forgets uncommitted renders that `shouldDiscard` picks (for removals); run inside `exclusively`.
    func discardUnwritten(where shouldDiscard: (DiskCachePendingEntry) -> Bool) {
        state.withLock { state in
            state.queued.removeAll(where: shouldDiscard)
            state.recountQueuedBytes()
            state.unwritten = state.unwritten.filter { !shouldDiscard($0.value) }
        }
    }

    /// Refuses new work, writes what is queued, and reports the first failure since the last flush.
    func close() -> DiskCacheError? {
        state.withLock { $0.isClosed = true }
        return queue.sync {
            drain()
            store.checkpoint()
            return state.withLock { state in
                defer { state.failureSinceFlush = nil }
                return state.failureSinceFlush
            }
        }
    }

    // MARK: On the writer queue

    private func scheduleDrain() {
        let schedule = state.withLock { state in
            guard !state.isDrainScheduled else { return false }
            state.isDrainScheduled = true
            return true
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: .now() + options.batchInterval) { self.drain() }
    }

    /// Writes batches until nothing is left.
    private func drain() {
        while let batch = takeBatch() { write(batch) }
    }

    private func takeBatch() -> Batch? {
        state.withLock { state in
            guard state.hasWork else {
                state.isDrainScheduled = false
                return nil
            }
            let count = min(options.batchSize, state.queued.count)
            let entries = Array(state.queued.prefix(count))
            // Kept bytes go with their entry's batch or after it: inserted before the entry,
            // they would find no row to belong to.
            let inBatch = Set(entries.map(\.key.value))
            var kept: [DiskCacheEncodedOutput] = [], waiting: [DiskCacheEncodedOutput] = []
            for output in state.keptOutputs {
                if state.unwritten[output.digest] == nil || inBatch.contains(output.digest) {
                    kept.append(output)
                } else {
                    waiting.append(output)
                }
            }
            let batch = Batch(entries: entries, touches: state.touches, deletions: Array(state.deletions),
                              keptOutputs: kept, forgottenOutputs: Array(state.forgottenOutputs))
            state.queuedBytes -= batch.entries.reduce(0) { $0 + $1.byteCount } + kept.reduce(0) { $0 + $1.bytes.count }
            state.queued.removeFirst(count)
            state.keptOutputs = waiting
            state.touches = [:]
            state.deletions = []
            state.forgottenOutputs = []
            if batch.entries.isEmpty, batch.touches.isEmpty, batch.deletions.isEmpty, kept.isEmpty,
               batch.forgottenOutputs.isEmpty {
                // Only kept bytes whose entries are in a batch being written: they go next time.
                state.isDrainScheduled = false
                return nil
            }
            return batch
        }
    }

    private func write(_ batch: Batch) {
        var encoded: [DiskCacheStore.EncodedEntry] = []
        var encodingFailures = 0
        var failure: DiskCacheError?
        // A key rendered twice in one batch is written once: the newest render wins.
        var newest: [StableDigest: DiskCachePendingEntry] = [:]
        for entry in batch.entries { newest[entry.key.value] = entry }
        // PNGs handed over since the batch was taken live on the unwritten entries; from here on
        // the entries take no more (see `adoptEncoding`).
        let adopted = state.withLock { state in
            batch.entries.reduce(into: [StableDigest: (png: Data?, encoding: String?)]()) { adopted, entry in
                guard let unwritten = state.unwritten[entry.key.value], unwritten.sequence == entry.sequence else { return }
                adopted[entry.key.value] = (unwritten.png, unwritten.pngEncoding)
                state.unwritten[entry.key.value]?.isSealed = true
            }
        }
        for entry in batch.entries where newest[entry.key.value]?.sequence == entry.sequence {
            do {
                let handedOver = adopted[entry.key.value]
                encoded.append(try encode(entry, png: handedOver?.png, pngEncoding: handedOver?.encoding))
            } catch {
                encodingFailures += 1
                failure = failure ?? DiskCacheError.wrapping(error, operation: .write, path: store.path)
                options.logger.error("cannot encode a render for the disk cache",
                                     metadata: ["key": "\(entry.key)", "error": "\(error)"])
            }
        }
        var commitFailed = false
        let now = options.clock()
        let added = encoded.reduce(0) { $0 + $1.png.count }
        // Counting every entry's bytes each batch costs a scan of an index; an estimate from the
        // last count serves until it nears the limit, or other processes may have added enough.
        let mustCount = state.withLock { state in
            (state.estimatedBytes ?? .max) > byteLimit - added || now - state.lastCount > Self.countInterval
        }
        do {
            let result = try commitRetryingContention {
                try store.commit(encoded, encodedOutputs: batch.keptOutputs, touches: batch.touches,
                                        deletions: batch.deletions, forgottenOutputs: batch.forgottenOutputs,
                                        byteLimit: byteLimit, enforcingLimit: mustCount, now: now)
            }
            counters.withLock { statistics in
                statistics.writes += encoded.count
                statistics.evictions += result.eviction.removedCount
            }
            state.withLock { state in
                state.isFailing = false
                if let total = result.totalBytes {
                    state.estimatedBytes = total
                    state.lastCount = now
                } else {
                    state.estimatedBytes = state.estimatedBytes.map { $0 + added }
                }
            }
        } catch {
            let wrapped = DiskCacheError.wrapping(error, operation: .write, path: store.path)
            failure = wrapped
            commitFailed = true
            let isFirst = state.withLock { state in
                defer { state.isFailing = true }
                return !state.isFailing
            }
            options.logger.log(level: isFirst ? .warning : .debug,
                               "cannot write renders to the disk cache; they stay in memory only",
                               metadata: ["entries": "\(encoded.count)", "error": "\(wrapped)"])
        }
        let failedEntries = encodingFailures + (commitFailed ? encoded.count : 0)
        if failedEntries > 0 { counters.withLock { $0.writeFailures += failedEntries } }
        state.withLock { state in
            for entry in batch.entries where state.unwritten[entry.key.value]?.sequence == entry.sequence {
                state.unwritten[entry.key.value] = nil
            }
            if let failure, state.failureSinceFlush == nil { state.failureSinceFlush = failure }
        }
    }

    /// Runs `commit`, trying again when other processes kept the store locked past the busy
    /// timeout: on a loaded machine several writers can queue behind each other's transactions
    /// for longer than one timeout, and a batch dropped then is a batch of renders lost.
    private func commitRetryingContention<T>(_ commit: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do { return try commit() } catch let error as DiskCacheError where error.isContention && attempt < Self.commitAttempts {
                options.logger.debug("the disk cache is busy; trying the batch again", metadata: ["attempt": "\(attempt)"])
                attempt += 1
            }
        }
    }

    /// How many times a batch is offered to a busy store before its renders stay in memory only.
    private static let commitAttempts = 3

    /// Seconds between counts of the store's bytes while the estimate stays under the limit.
    private static let countInterval: Double = 5

    /// The entry as columns, with `png` when someone else already encoded its pixels (made by
    /// the encoder named `pngEncoding`, when a batch wrote it to a file).
    private func encode(_ entry: DiskCachePendingEntry, png: Data?, pngEncoding: String?) throws -> DiskCacheStore.EncodedEntry {
        let geometry = entry.geometry
        // Handed over, or the entry's own when it came as a PNG; else encoded now.
        let given: (png: Data, encoding: String?)? = png.map { ($0, pngEncoding) } ?? entry.png.map { ($0, entry.pngEncoding) }
        let pngEncoding = given?.encoding
        guard let png = try given?.png ?? entry.image?.pngData(compression: .fast) else { throw PNGError.notPNG(byteCount: 0) }
        return DiskCacheStore.EncodedEntry(
            digest: entry.key.value, typeName: entry.key.typeName, renderVersion: entry.key.renderVersion,
            keyDescription: entry.key.description, pixelWidth: geometry.pixelWidth, pixelHeight: geometry.pixelHeight,
            scale: geometry.scale, capInsets: geometry.capInsets, png: png, pngEncoding: pngEncoding,
            checksum: DiskCacheChecksum.of(digest: entry.key.value, png: png),
            created: entry.created, expires: entry.expires, childrenJSON: DiskCacheChildren.encode(entry.children))
    }
}
