import Foundation

/// A shared store of renders that several machines read and write: the tier under the disk
/// store. RasterKit keeps what makes it safe (the object format, verification, the circuit
/// breaker, the background uploader) in ``RasterCache``; a `RemoteStore` only moves bytes.
/// `RasterKitRemoteCache`'s `RemoteCache` implements it over HTTP (nginx WebDAV, bazel-remote).
///
/// Both methods are called from threads that may block (a render thread, the uploader), never
/// from Swift concurrency's own pool on purpose, and must return within the store's timeouts.
public protocol RemoteStore: Sendable {
    /// The bytes stored under `name`, or nil when the store has none (HTTP `404`).
    ///
    /// - Throws: any error for a fault (a timeout, a refused connection, a `5xx`); the cache
    ///   counts it, treats it as a miss and may stop asking for a while.
    func get(_ name: RemoteObjectName) throws -> Data?

    /// The objects stored under `names`, one result per name, in order: the bytes, nil when the
    /// store has none, or the fault. A run asks for the renders it is about to look up this way,
    /// a few dozen at a time; a store that can have several requests in flight should (the
    /// default asks one at a time, through `get(_:)` of one name).
    func get(_ names: [RemoteObjectName]) -> [Result<Data?, any Error>]

    /// Stores each object, and returns one outcome per object, in order: nil when it was stored,
    /// or the error (``RemoteStoreError/forbidden(status:)`` for a read-only store).
    func put(_ objects: [RemoteStoreUpload]) -> [RemoteStoreError?]
}

extension RemoteStore {
    /// Asks for each object in turn.
    public func get(_ names: [RemoteObjectName]) -> [Result<Data?, any Error>] {
        names.map { name in Result { try get(name) } }
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
    /// The connection failed or broke (refused, reset, a bad TLS handshake), or the body was
    /// larger than the store accepts.
    case transport(String)

    /// A short description for logs.
    public var description: String {
        switch self {
        case .forbidden(let status): "forbidden (HTTP \(status))"
        case .status(let status): "HTTP \(status)"
        case .timedOut: "timed out"
        case .transport(let reason): reason
        }
    }
}
