import Foundation
internal import Logging

/// Records of whole batch runs, kept in the store beside the renders they name.
///
/// A CI job on a fresh checkout, with only the store restored, runs a batch into an empty
/// folder. Every output's bytes are in the store, yet finding them means loading the manifest,
/// planning it and computing every key — most of what such a run costs once the bytes are copied
/// rather than encoded again. A batch therefore leaves a record of what it wrote, named by the
/// run's identity (the program, the options, and the manifest and every input by content); the
/// next identical run reads the record and copies the bytes it names. Each record is
/// checksummed like an entry; the store keeps the most recently used ``runRecordLimit`` of them.
extension DiskCache {
    /// How many run records a store keeps: the most recently used.
    package static let runRecordLimit = 32
    /// The largest record kept, in bytes; a run whose record would be larger leaves none.
    package static let runRecordByteLimit = 16 << 20

    /// The record kept under `identity`, checked against its checksum (a damaged one is removed
    /// and answered as nil), or nil.
    package func runRecord(for identity: StableDigest) -> Data? {
        guard !isClosed.withLock({ $0 }) else { return nil }
        let found: (checksum: Int64, lastAccess: Double, body: Data)?
        do { found = try store.runRecord(for: identity) } catch {
            options.logger.debug("cannot read a run record; loading the manifest instead", metadata: ["error": "\(error)"])
            return nil
        }
        guard let found else { return nil }
        guard found.checksum == Self.runRecordChecksum(identity, found.body) else {
            options.logger.warning("removing a run record whose checksum does not match", metadata: ["run": "\(identity)"])
            counters.withLock { $0.integrityFailures += 1 }
            forgetRunRecord(identity)
            return nil
        }
        let now = options.clock()
        if now - found.lastAccess >= options.touchInterval { try? store.touchRunRecord(identity, now: now) }
        return found.body
    }

    /// Keeps `body` as the record of the run named `identity`, replacing an older one, and
    /// drops the least recently used records beyond ``runRecordLimit``. Written at once (a run
    /// leaves its record as it ends); a failure only costs the next run the manifest's loading,
    /// so it is logged, not thrown. A body over ``runRecordByteLimit`` is not kept.
    package func keepRunRecord(_ body: Data, for identity: StableDigest) {
        guard !isClosed.withLock({ $0 }), body.count <= Self.runRecordByteLimit else { return }
        do {
            try store.saveRunRecord(body, checksum: Self.runRecordChecksum(identity, body), for: identity,
                                    now: options.clock(), limit: Self.runRecordLimit)
        } catch {
            options.logger.warning("cannot keep the record of a run; the next identical run loads its manifest",
                                   metadata: ["error": "\(error)"])
        }
    }

    /// Removes the record of `identity`: it is damaged, or not a record this build can read.
    package func forgetRunRecord(_ identity: StableDigest) {
        guard !isClosed.withLock({ $0 }) else { return }
        try? store.removeRunRecord(identity)
    }

    private static func runRecordChecksum(_ identity: StableDigest, _ body: Data) -> Int64 {
        DiskCacheChecksum.of(digest: identity, encoding: "run-record", bytes: body)
    }

    /// Whether the store holds, committed, the bytes a batch wrote for the render of `digest` with
    /// the encoder named `encoding` — without reading them (a run checks this for every output
    /// before recording it). Flush first for what this process has just kept.
    package func holdsEncodedOutput(forDigest digest: StableDigest, encoding: String) -> Bool {
        guard !isClosed.withLock({ $0 }) else { return false }
        return (try? store.holdsEncodedOutput(for: digest, encoding: encoding, now: options.clock())) ?? false
    }

    /// What a batch wrote for the render whose key digest is `digest` with the encoder named
    /// `encoding` (see ``encodedOutput(for:encoding:)``), for a caller that has the digest from a
    /// run record rather than a component.
    package func encodedOutput(forDigest digest: StableDigest, encoding: String) -> Data? {
        encodedOutput(for: CacheKey(recorded: digest), encoding: encoding)
    }
}

extension CacheKey {
    /// A key known only by its digest (from a run record): it finds the entry, and describes
    /// itself by the digest.
    init(recorded digest: StableDigest) {
        self.init(value: digest, typeName: "", renderVersion: 0, size: nil, scale: 1) { "recorded" }
    }
}
