public import Foundation
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
public import RasterKit

/// A remote store over plain HTTP: `GET` and `PUT` of `<url>/<format-version>/<digest>` (or
/// `<url>/ac/<64 hex digits>` with ``Layout/bazelRemote``), as nginx's WebDAV module and
/// bazel-remote serve them; HTTPS when the URL says so.
///
/// ```swift
/// let cache = RasterCache(disk: try DiskCache(at: url), remote: RemoteCache(url: URL(string: "http://cache:8080/rasterkit")!))
/// ```
///
/// Every request is bounded: a connection must be made within
/// ``Configuration-swift.struct/connectTimeout`` and the whole request must finish within
/// ``Configuration-swift.struct/requestTimeout``. Redirects are not followed.
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
        /// Seconds to make a connection (default 0.5).
        public var connectTimeout: Double = 0.5
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
    private let client: HTTPClient

    /// A store at `url` (`http://` or `https://`), with `configuration`.
    public init(url: URL, configuration: Configuration = Configuration()) {
        self.url = url
        self.configuration = configuration
        let timeout = HTTPClient.Configuration.Timeout(connect: .nanoseconds(Self.nanoseconds(configuration.connectTimeout)),
                                                       read: .nanoseconds(Self.nanoseconds(configuration.requestTimeout)))
        var clientConfiguration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: timeout)
        // A refused connection fails its request at once, instead of being retried until the
        // deadline: the cache's circuit breaker decides when to try again.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
    }

    /// A store at `url`, with the default timeouts and the `Authorization` header from the
    /// environment.
    public convenience init(url: URL) {
        self.init(url: url, configuration: Configuration())
    }

    deinit {
        client.shutdown { _ in }
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

    /// `GET`s every object at once (over up to eight connections, the client's pool) and waits
    /// for each answer, each within the request timeout: its body on `200`, nil on `404`, a
    /// `RemoteStoreError` for a timeout, a failed connection, any other status or a body over
    /// `maximumBytes` (or ``Configuration-swift.struct/maximumObjectBytes``), whose reading stops there.
    public func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>] {
        let limit = min(max(0, maximumBytes), configuration.maximumObjectBytes)
        let started = names.map { name in Result { try start(method: .GET, url: objectURL(for: name), body: nil, maximumBytes: limit) } }
        return started.map { result in Result { try object(in: wait(for: result.get(), maximumBytes: limit)) } }
    }

    /// The body of a `200`, nil for a `404`; throws for any other status.
    private func object(in response: HTTPClient.Response) throws -> Data? {
        switch response.status.code {
        case 200:
            guard let body = response.body else { return Data() }
            return Data(body.readableBytesView)
        case 404: return nil
        case 401, 403: throw RemoteStoreError.forbidden(status: Int(response.status.code))
        default: throw RemoteStoreError.status(Int(response.status.code))
        }
    }

    /// `PUT`s every object at once and waits for each answer (each within the request timeout).
    public func put(_ objects: [RemoteStoreUpload]) -> [RemoteStoreError?] {
        let started = objects.map { object in
            Result { try start(method: .PUT, url: objectURL(for: object.name), body: object.bytes,
                               maximumBytes: configuration.maximumObjectBytes) }
        }
        return started.map { result in
            do {
                let response = try wait(for: result.get(), maximumBytes: configuration.maximumObjectBytes)
                switch response.status.code {
                case 200, 201, 204: return nil
                case 401, 403, 405: return RemoteStoreError.forbidden(status: Int(response.status.code))
                default: return RemoteStoreError.status(Int(response.status.code))
                }
            } catch let error as RemoteStoreError {
                return error
            } catch {
                return Self.storeError(error)
            }
        }
    }

    // MARK: Requests

    private func start(method: HTTPMethod, url: URL, body: Data?, maximumBytes: Int) throws -> EventLoopFuture<HTTPClient.Response> {
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: method, body: body.map { .bytes($0) })
        } catch {
            throw RemoteStoreError.transport("invalid URL \(url): \(error)")
        }
        var headers = request.headers
        if let authorization = configuration.authorization { headers.replaceOrAdd(name: "Authorization", value: authorization) }
        let prepared = try HTTPClient.Request(url: url, method: method, headers: headers, body: body.map { .bytes($0) })
        let deadline = NIODeadline.now() + .nanoseconds(Self.nanoseconds(configuration.requestTimeout))
        let accumulator = ResponseAccumulator(request: prepared, maxBodySize: maximumBytes)
        return client.execute(request: prepared, delegate: accumulator, deadline: deadline).futureResult
    }

    private func wait(for future: EventLoopFuture<HTTPClient.Response>, maximumBytes: Int) throws -> HTTPClient.Response {
        do {
            return try future.wait()
        } catch let error as ResponseAccumulator.ResponseTooBigError {
            _ = error
            throw RemoteStoreError.tooLarge(limit: maximumBytes)
        } catch {
            throw Self.storeError(error)
        }
    }

    private static func storeError(_ error: any Error) -> RemoteStoreError {
        if let error = error as? HTTPClientError,
           [.connectTimeout, .deadlineExceeded, .readTimeout].contains(error) {
            return .timedOut
        }
        return .transport("\(error)")
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 {
        Int64(max(0.001, min(seconds, 3600)) * 1_000_000_000)
    }
}
