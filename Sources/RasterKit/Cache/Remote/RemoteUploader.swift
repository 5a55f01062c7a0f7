import Dispatch
import Foundation

/// Uploads fresh renders to a remote store in the background, in batches, off the render path:
/// ``enqueue(_:)`` returns at once, and a full queue, an open breaker or a read-only store drops
/// the render rather than wait. Encoding (PNG, then the object) happens here too.
final class RemoteUploader: Sendable {
    struct Pending: Sendable {
        let key: CacheKey
        let image: RasterImage
        let children: [ComponentVersion]
        /// When it was queued: it is uploaded `uploadDelay` later at the earliest.
        var queuedAt = DispatchTime.now()
    }

    private struct State {
        var queue: [Pending] = []
        var queued: Set<StableDigest> = []
        var queuedBytes = 0
        var isDraining = false
        /// PNGs a batch wrote for queued renders, with their encoders' names (see `attach`).
        var attached: [StableDigest: (png: Data, encoding: String)] = [:]
    }

    private let store: any RemoteStore
    private let options: RemoteCacheOptions
    private let breaker: RemoteCircuitBreaker
    private let counters: RemoteCounters
    private let seal: RemoteObjectSeal
    private let state = Lock(State())
    private let queue = DispatchQueue(label: "RasterKit.RemoteCache.uploader", qos: .utility)

    init(store: any RemoteStore, options: RemoteCacheOptions, breaker: RemoteCircuitBreaker,
         counters: RemoteCounters, seal: RemoteObjectSeal) {
        self.store = store
        self.options = options
        self.breaker = breaker
        self.counters = counters
        self.seal = seal
    }

    /// Queues a render to upload. Returns at once; drops it when it cannot be uploaded soon.
    func enqueue(_ pending: Pending) {
        let readOnly = counters.withLock { $0.isReadOnly }
        let startsDrain: Bool? = readOnly || breaker.isOpen ? nil : state.withLock { state in
            if state.queued.contains(pending.key.value) { return false }
            guard state.queue.count < options.maximumQueuedUploads,
                  state.queuedBytes + pending.image.byteCount <= options.maximumQueuedBytes else { return nil }
            state.queue.append(pending)
            state.queued.insert(pending.key.value)
            state.queuedBytes += pending.image.byteCount
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        switch startsDrain {
        case nil: counters.withLock { $0.uploadsDropped += 1 }
        case true?: queue.async { self.drain() }
        case false?: break
        }
    }

    /// Attaches `png` (the bytes of the encoder named `encoding`) to the queued upload of `key`,
    /// if it is still queued; counted with the queue's bytes, and dropped past its limit.
    func attach(_ png: Data, encoding: String, for key: CacheKey) {
        state.withLock { state in
            guard state.queued.contains(key.value), state.attached[key.value] == nil,
                  state.queuedBytes + png.count <= options.maximumQueuedBytes else { return }
            state.attached[key.value] = (png, encoding)
            state.queuedBytes += png.count
        }
    }

    /// Waits until every queued render is uploaded or dropped, for at most `timeout` seconds.
    /// Returns false when some were still waiting then (they go on in the background).
    func flush(timeout: Double) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while state.withLock({ $0.isDraining }) {
            if DispatchTime.now() >= deadline { return false }
            usleep(2_000)
        }
        return true
    }

    private func drain() {
        while let batch = takeBatch() {
            upload(batch)
            state.withLock { state in
                for pending in batch {
                    state.queued.remove(pending.key.value)
                    state.queuedBytes -= pending.image.byteCount
                    if let attached = state.attached.removeValue(forKey: pending.key.value) {
                        state.queuedBytes -= attached.png.count
                    }
                }
            }
        }
    }

    private func takeBatch() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.isDraining = false
                return nil
            }
            let batch = Array(state.queue.prefix(max(1, options.uploadBatchSize)))
            state.queue.removeFirst(batch.count)
            return batch
        }
    }

    private func upload(_ batch: [Pending]) {
        guard !counters.withLock({ $0.isReadOnly }), breaker.mayAsk() else {
            counters.withLock { $0.uploadsDropped += batch.count }
            return
        }
        // Give a batch the time to hand over the PNG it writes for the newest of these renders.
        if let newest = batch.map(\.queuedAt).max(), options.uploadDelay > 0 {
            let due = newest.uptimeNanoseconds + UInt64(options.uploadDelay * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(UInt32(min(due - now, 5_000_000_000) / 1_000)) }
        }
        let objects = batch.compactMap { pending -> RemoteStoreUpload? in
            // A batch's own PNG when it handed one over in time, else the quick encoding.
            let attached = state.withLock { $0.attached[pending.key.value] }
            guard let png = attached?.png ?? (try? pending.image.pngData(compression: .fast)) else { return nil }
            let bytes = RemoteCacheObject.encode(digest: pending.key.value, png: png, children: pending.children,
                                                 encoding: attached?.encoding)
            let name = RemoteObjectName(key: pending.key)
            return RemoteStoreUpload(name: name, bytes: seal.seal(bytes, name: name))
        }
        let outcomes = store.put(objects)
        var failed = false, answered = false
        counters.withLock { counters in
            counters.uploadsDropped += batch.count - objects.count
            for outcome in outcomes {
                switch outcome {
                case nil:
                    counters.uploads += 1
                    answered = true
                case .forbidden(let status)?:
                    counters.noteUploadError(.forbidden(status: status))
                    counters.isReadOnly = true
                    answered = true
                case let error?:
                    counters.noteUploadError(error)
                    failed = true
                }
            }
        }
        if failed { breaker.recordFailure() } else if answered { breaker.recordSuccess() }
    }
}
