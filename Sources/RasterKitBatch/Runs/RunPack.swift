import Foundation
import RasterKit

/// The object a whole batch run is shared as through a remote store: a record of the run with
/// every output's bytes in it, so that a machine with an empty local store writes the run with
/// one request instead of one per output. Stored under the run's identity (a digest of the
/// build, the options and the manifest), framed so that it is verified before use: `RKRUNPK1`,
/// then the first 64 bits of SipHash over the identity and the body (little-endian), then the
/// body. A truncated, damaged or misplaced object fails the check and is a miss.
enum RunPack {
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

extension RasterCache {
    /// The body of the run pack the remote store holds for the run `identity`, verified; nil
    /// without a remote store, for a miss or a fault.
    func remoteRunPack(for identity: StableDigest) -> Data? {
        remoteObject(for: identity, maximumBytes: RunPack.maximumBytes) { RunPack.decode($0, identity: identity) }
    }

    /// Stores `body` as the run pack of `identity` in the remote store, if there is one and it
    /// is answering. Blocks for the upload (within the store's timeouts).
    func storeRemoteRunPack(_ body: Data, for identity: StableDigest) {
        storeRemoteObject(RunPack.encode(identity: identity, body: body), for: identity)
    }
}
