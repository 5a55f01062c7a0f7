import Foundation
import RasterKit
import Synchronization

/// A store that answers every name with the same bytes and keeps what is uploaded.
public final class ServedBytes: RemoteStore {
    /// What every lookup is answered with.
    public let bytes: Data
    private let uploads = Mutex<[RemoteObjectName: [UInt8]]>([:])
    /// A store serving `bytes`.
    public init(_ bytes: Data) { self.bytes = bytes }

    /// Every object uploaded, by name.
    public var uploaded: [RemoteObjectName: [UInt8]] { uploads.withLock { $0 } }

    /// `bytes` for every name, or ``RemoteStoreError/tooLarge(limit:)`` past `maximumBytes`.
    public func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>] {
        names.map { _ in bytes.count > maximumBytes ? .failure(RemoteStoreError.tooLarge(limit: maximumBytes)) : .success(bytes) }
    }

    /// Keeps every object.
    public func put(_ objects: [RemoteStoreUpload]) -> [RemoteStoreError?] {
        uploads.withLock { stored in
            for object in objects { stored[object.name] = [UInt8](object.bytes) }
        }
        return objects.map { _ in nil }
    }
}
