import Foundation

/// The object a whole batch run is shared as through a remote store: a record of the run with
/// every output's bytes in it, so that a machine with an empty local store writes the run with
/// one request instead of one per output. Stored under the run's identity (a digest of the
/// build, the options and the manifest), framed like a render object so that it is verified
/// before use: `RKRUNPK1`, then the first 64 bits of SipHash over the identity and the body
/// (little-endian), then the body. A truncated, damaged or misplaced object fails the check and
/// is a miss.
enum RemoteRunPack {
    static let magic = Data("RKRUNPK1".utf8)
    /// The most bytes of a pack that are read: its outputs' bytes (at most 8 MiB, the batch's
    /// `packByteLimit`) in base64, with its record's text. A longer object is a fault.
    static let maximumBytes = 16 << 20

    static func encode(identity: StableDigest, body: Data) -> Data {
        var object = magic
        withUnsafeBytes(of: checksum(identity, body).littleEndian) { object.append(contentsOf: $0) }
        object.append(body)
        return object
    }

    /// The body of `object` when it is a whole pack of `identity`; nil otherwise.
    static func decode(_ object: Data, identity: StableDigest) -> Data? {
        let header = magic.count + 8
        guard object.count >= header, object.prefix(magic.count) == magic else { return nil }
        let stored = object.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: magic.count, as: UInt64.self)) }
        let body = object.subdata(in: object.startIndex + header..<object.endIndex)
        return stored == checksum(identity, body) ? body : nil
    }

    private static func checksum(_ identity: StableDigest, _ body: Data) -> UInt64 {
        UInt64(bitPattern: DiskCacheChecksum.of(digest: identity, encoding: "run-pack", bytes: body))
    }
}

extension RemoteTier {
    /// The verified body of the run pack stored under `identity`, or nil for a miss, a fault
    /// (counted, and told to the circuit breaker) or an object that fails verification.
    func runPack(for identity: StableDigest) -> Data? {
        guard let answer = ask(RemoteObjectName(digest: identity), maximumBytes: RemoteRunPack.maximumBytes) else { return nil }
        guard let object = answer else {
            counters.withLock { $0.misses += 1 }
            return nil
        }
        guard let opened = seal.open(object, name: RemoteObjectName(digest: identity)),
              let body = RemoteRunPack.decode(opened, identity: identity) else {
            counters.withLock { $0.rejected += 1; $0.misses += 1 }
            return nil
        }
        countHit()
        return body
    }

    /// Stores the run pack `body` under `identity`, now (a run leaves it as it ends, once); a
    /// failure is counted, never thrown. It is not told to the circuit breaker: a pack is larger
    /// than a render, and a pack that could not go up in time must not stop the run's renders
    /// from going up.
    func storeRunPack(_ body: Data, for identity: StableDigest) {
        guard !counters.withLock({ $0.isReadOnly }), breaker.mayAsk() else {
            counters.withLock { $0.uploadsDropped += 1 }
            return
        }
        let name = RemoteObjectName(digest: identity)
        let upload = RemoteStoreUpload(name: name, bytes: seal.seal(RemoteRunPack.encode(identity: identity, body: body), name: name))
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
    /// The body of the run pack the remote store holds for the run `identity`, verified; nil
    /// without a remote store, for a miss or a fault.
    package func remoteRunPack(for identity: StableDigest) -> Data? {
        remoteTier?.runPack(for: identity)
    }

    /// Stores `body` as the run pack of `identity` in the remote store, if there is one and it
    /// is answering. Blocks for the upload (within the store's timeouts).
    package func storeRemoteRunPack(_ body: Data, for identity: StableDigest) {
        remoteTier?.storeRunPack(body, for: identity)
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
