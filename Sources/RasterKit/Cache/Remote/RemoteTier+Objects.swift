import Foundation

/// Objects a layer above keeps in the remote store beside renders, under a digest of its own
/// (a batch's run pack): sealed and verified like renders, their contents the caller's to check.
extension RemoteTier {
    /// The object stored under `digest`, opened by the seal, or nil for a miss, a fault (counted,
    /// and told to the circuit breaker), an object over `maximumBytes`, or one the caller's
    /// `verify` refuses (counted as rejected).
    func object(for digest: StableDigest, maximumBytes: Int, verify: (Data) -> Data?) -> Data? {
        guard let answer = ask(RemoteObjectName(digest: digest), maximumBytes: maximumBytes) else { return nil }
        guard let object = answer else {
            counters.withLock { $0.misses += 1 }
            return nil
        }
        guard let opened = seal.open(object, name: RemoteObjectName(digest: digest)), let contents = verify(opened) else {
            counters.withLock { $0.rejected += 1; $0.misses += 1 }
            return nil
        }
        countHit()
        return contents
    }

    /// Stores `bytes` under `digest`, now; a failure is counted, never thrown. It is not told to
    /// the circuit breaker: such an object is larger than a render, and one that could not go up
    /// in time must not stop renders from going up.
    func storeObject(_ bytes: Data, for digest: StableDigest) {
        guard !counters.withLock({ $0.isReadOnly }), breaker.mayAsk() else {
            counters.withLock { $0.uploadsDropped += 1 }
            return
        }
        let name = RemoteObjectName(digest: digest)
        let upload = RemoteStoreUpload(name: name, bytes: seal.seal(bytes, name: name))
        switch store.put([upload]).first ?? .timedOut {
        case nil:
            counters.withLock { $0.uploads += 1 }
            breaker.recordSuccess()
        case .forbidden(let status)?:
            counters.withLock { $0.noteUploadError(.forbidden(status: status)); $0.isReadOnly = true }
        case let error?:
            counters.withLock { $0.noteUploadError(error) }
        }
    }
}

extension RasterCache {
    /// What `verify` makes of the object the remote store holds under `digest` (see
    /// `RemoteTier.object(for:maximumBytes:verify:)`); nil without a remote store, for a miss,
    /// a fault, or an object `verify` refuses.
    package func remoteObject(for digest: StableDigest, maximumBytes: Int, verify: (Data) -> Data?) -> Data? {
        remoteTier?.object(for: digest, maximumBytes: maximumBytes, verify: verify)
    }

    /// Stores `bytes` under `digest` in the remote store, if there is one and it is answering.
    /// Blocks for the upload (within the store's timeouts).
    package func storeRemoteObject(_ bytes: Data, for digest: StableDigest) {
        remoteTier?.storeObject(bytes, for: digest)
    }

    /// Whether a remote store is configured.
    package var hasRemote: Bool { remoteTier != nil }

    /// Whether the remote store is asked now: configured, and its circuit breaker closed (a
    /// store that failed is not asked until the breaker lets a probe through).
    package var isAskingRemote: Bool {
        guard let remoteTier else { return false }
        return !remoteTier.breaker.isOpen
    }

    /// Whether the remote store would be asked now: configured, its circuit breaker closed, and
    /// (for uploads) not found read-only. A run makes its pack only then.
    package var remoteTakesUploads: Bool {
        isAskingRemote && !(remoteTier?.counters.withLock { $0.isReadOnly } ?? true)
    }
}
