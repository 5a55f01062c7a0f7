public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import RasterKit

/// A remote store over plain HTTP: `GET` and `PUT` of `<url>/<format-version>/<digest>` (or
/// `<url>/ac/<64 hex digits>` with ``Layout/bazelRemote``), as nginx's WebDAV module and
/// bazel-remote serve them; HTTPS when the URL says so, with the system's certificate authorities.
///
/// ```swift
/// let cache = RasterCache(disk: try DiskCache(at: url), remote: RemoteCache(url: URL(string: "http://cache:8080/rasterkit")!))
/// ```
///
/// Requests go through Foundation's `URLSession` (libcurl on Linux), so this module builds no
/// HTTP stack of its own. Every request is bounded: it must finish within
/// ``Configuration-swift.struct/requestTimeout``, connecting included, or it is cancelled and
/// counted as timed out. Redirects are not followed, and a body longer than the caller can hold
/// is cancelled as soon as it is known to be.
public final class RemoteCache: RemoteStore {
    /// How object names become paths under the URL.
    public enum Layout: String, Sendable, CaseIterable {
        /// `<url>/<format-version>/<digest>`: any server that stores `PUT` bodies as files
        /// (nginx with `dav_methods PUT; create_full_put_path on;`).
        case plain
        /// `<url>/ac/<digest><format version as 32 hex digits>`: bazel-remote's action cache,
        /// whose keys are 64 hexadecimal digits (start it with `--disable_http_ac_validation`).
        case bazelRemote
    }

    /// Timeouts, credentials and limits of a ``RemoteCache``.
    public struct Configuration: Sendable {
        /// Seconds for a whole request, connecting included (default 1).
        public var requestTimeout: Double = 1
        /// The `Authorization` header sent with every request, or nil. By default the value of
        /// the environment variable `RASTERKIT_REMOTE_CACHE_AUTHORIZATION` (for instance
        /// `Bearer …` or `Basic …`), so credentials stay out of command lines.
        public var authorization: String?
        /// How names become paths (default ``Layout/plain``).
        public var layout: Layout = .plain
        /// The largest object accepted from the server, in bytes (default 64 MiB); a larger body
        /// is a fault.
        public var maximumObjectBytes = 64 << 20
        /// Requests to the server in flight at once (default 8); more wait for one to finish.
        public var maximumConnections = 8

        /// The defaults, with the `Authorization` header from `RASTERKIT_REMOTE_CACHE_AUTHORIZATION`.
        public init() {
            authorization = ProcessInfo.processInfo.environment["RASTERKIT_REMOTE_CACHE_AUTHORIZATION"]
                .flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The base URL objects are stored under.
    public let url: URL
    /// The timeouts, credentials and limits in use.
    public let configuration: Configuration
    private let transfers: HTTPTransfers

    /// A store at `url` (`http://` or `https://`), with `configuration`.
    public init(url: URL, configuration: Configuration = Configuration()) {
        self.url = url
        self.configuration = configuration
        transfers = HTTPTransfers(timeout: Self.clamped(configuration.requestTimeout),
                                  maximumConnections: max(1, configuration.maximumConnections))
    }

    /// A store at `url`, with the default timeout and the `Authorization` header from the
    /// environment.
    public convenience init(url: URL) {
        self.init(url: url, configuration: Configuration())
    }

    deinit {
        transfers.close()
    }

    /// The URL of the object named `name`.
    public func objectURL(for name: RemoteObjectName) -> URL {
        switch configuration.layout {
        case .plain:
            return url.appendingPathComponent(String(name.formatVersion)).appendingPathComponent(name.digest)
        case .bazelRemote:
            let version = String(name.formatVersion, radix: 16)
            let padded = String(repeating: "0", count: max(0, 32 - version.count)) + version
            return url.appendingPathComponent("ac").appendingPathComponent(name.digest + padded)
        }
    }

    /// `GET`s every object at once (up to ``Configuration-swift.struct/maximumConnections`` in
    /// flight) and waits for each answer, each within the request timeout: its body on `200`, nil
    /// on `404`, a `RemoteStoreError` for a timeout, a failed connection, any other status or a
    /// body over `maximumBytes` (or ``Configuration-swift.struct/maximumObjectBytes``), whose
    /// reading stops there.
    public func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>] {
        let limit = min(max(0, maximumBytes), configuration.maximumObjectBytes)
        let answers = transfers.perform(names.map { request(method: "GET", url: objectURL(for: $0)) }, maximumBytes: limit)
        return answers.map { answer in
            Result {
                let (status, body) = try answer.get()
                switch status {
                case 200: return body
                case 404: return nil
                case 401, 403: throw RemoteStoreError.forbidden(status: status)
                default: throw RemoteStoreError.status(status)
                }
            }
        }
    }

    /// `PUT`s every object at once and waits for each answer (each within the request timeout).
    public func put(_ objects: [RemoteStoreUpload]) -> [RemoteStoreError?] {
        let requests = objects.map { object in
            var request = request(method: "PUT", url: objectURL(for: object.name))
            request.httpBody = object.bytes
            return request
        }
        // What a server says about a PUT is a short status page at most; its length is bounded
        // like an object's so a hostile answer cannot grow without end.
        return transfers.perform(requests, maximumBytes: 64 << 10).map { answer in
            switch answer {
            case .success((let status, _)):
                switch status {
                case 200, 201, 204: return nil
                case 401, 403, 405: return RemoteStoreError.forbidden(status: status)
                default: return RemoteStoreError.status(status)
                }
            case .failure(let error): return error
            }
        }
    }

    private func request(method: String, url: URL) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
                                 timeoutInterval: Self.clamped(configuration.requestTimeout))
        request.httpMethod = method
        if let authorization = configuration.authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        return request
    }

    private static func clamped(_ seconds: Double) -> Double {
        seconds.isFinite ? max(0.001, min(seconds, 3_600)) : 1
    }
}
