import Foundation

/// A shared store of renders that several machines read and write: the tier under the disk
/// store. RasterKit keeps what makes it safe (the object format, verification, the circuit
/// breaker, the background uploader) in ``RasterCache``; a `RemoteStore` only moves bytes.
/// `RasterKitRemoteCache`'s `RemoteCache` implements it over HTTP (nginx WebDAV, bazel-remote).
///
/// Both methods are called from threads that may block (a render thread, the uploader), never
/// from Swift concurrency's own pool on purpose, and must return within the store's timeouts.
/// What a store answers is untrusted (anyone who can write to it could have written it): the
/// cache bounds it before reading and verifies it before use.
public protocol RemoteStore: Sendable {
    /// The objects stored under `names`, one result per name, in order: the bytes, nil when the
    /// store has none (HTTP `404`), or the fault (a timeout, a refused connection, a `5xx`; the
    /// cache counts it, treats it as a miss and may stop asking for a while). An object longer
    /// than `maximumBytes` is a fault, ``RemoteStoreError/tooLarge(limit:)``, found before more
    /// than that is read: a store answers no more than the caller can hold. A run asks for the
    /// renders it is about to look up a few dozen at a time; a store that can have several
    /// requests in flight should.
    func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>]

    /// Stores each object, and returns one outcome per object, in order: nil when it was stored,
    /// or the error (``RemoteStoreError/forbidden(status:)`` for a read-only store).
    func put(_ objects: [RemoteStoreUpload]) -> [RemoteStoreError?]
}

extension RemoteStore {
    /// The object stored under `name`, at most `maximumBytes` long, or nil when the store has
    /// none; throws for a fault.
    public func get(_ name: RemoteObjectName, maximumBytes: Int) throws -> Data? {
        try get([name], maximumBytes: maximumBytes).first?.get() ?? nil
    }
}

/// The name a render is stored under remotely: the key's digest and the library's render-format
/// version, so renders of another format version are never asked for.
public struct RemoteObjectName: Hashable, Sendable, CustomStringConvertible {
    /// ``CacheKey/formatVersion`` of the library that made the render.
    public let formatVersion: Int
    /// The key's 32 lowercase hexadecimal digits (``CacheKey/digest``).
    public let digest: String

    /// The name of the render stored under `key`.
    public init(key: CacheKey) {
        self.init(digest: key.value)
    }

    /// The name of the render stored under the key whose digest is `digest`.
    init(digest: StableDigest) {
        formatVersion = CacheKey.formatVersion
        self.digest = digest.hex
    }

    /// `<format-version>/<digest>`: the path under the store's URL.
    public var description: String { "\(formatVersion)/\(digest)" }
}

/// One object for ``RemoteStore/put(_:)``.
public struct RemoteStoreUpload: Sendable {
    /// Where it goes.
    public let name: RemoteObjectName
    /// The object's bytes (a header, then the PNG: see `RemoteCacheObject`).
    public let bytes: Data

    /// An object to store.
    public init(name: RemoteObjectName, bytes: Data) {
        self.name = name
        self.bytes = bytes
    }
}

/// Why a remote store could not answer or store an object.
public enum RemoteStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store refused the write or read (HTTP `401`, `403`, `405`): a read-only cache.
    case forbidden(status: Int)
    /// The store answered with a status that is neither success nor "not found" (a `5xx`).
    case status(Int)
    /// No answer in time (connecting, or the whole request).
    case timedOut
    /// The connection failed or broke (refused, reset, a bad TLS handshake).
    case transport(String)
    /// The object is longer than the caller can hold; reading stopped at `limit` bytes.
    case tooLarge(limit: Int)

    /// A short description for logs.
    public var description: String {
        switch self {
        case .forbidden(let status): "forbidden (HTTP \(status))"
        case .status(let status): "HTTP \(status)"
        case .timedOut: "timed out"
        case .transport(let reason): reason
        case .tooLarge(let limit): "an object over \(limit) bytes"
        }
    }
}
