import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
public import UnixSignals

/// A standalone render server: a Hummingbird application with ``RasterKitRoutes`` and the
/// service's change watcher, run in a `ServiceGroup` that shuts down gracefully on SIGTERM and
/// SIGINT — it stops accepting connections and finishes the requests (and renders) under way.
/// `rasterkit serve` is this with flags.
///
/// ```swift
/// let server = RasterServer(service: service, host: "127.0.0.1", port: 0)
/// try await server.run { address in print("listening on http://\(address)") }
/// ```
public struct RasterServer: Sendable {
    /// The service answering requests.
    public let service: RasterRenderService
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 lets the system choose a free one.
    public var port: Int
    /// Where the server logs.
    public var logger: Logger

    /// A server for `service` on `host`:`port`.
    public init(service: RasterRenderService, host: String = "127.0.0.1", port: Int = 8080,
                logger: Logger = Logger(label: "RasterKitServer")) {
        self.service = service
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// The service group running the server; `onListening` receives the bound address
    /// (`127.0.0.1:43121`) once connections are accepted. Trigger its graceful shutdown (or send
    /// one of `signals`) to stop it.
    public func serviceGroup(signals: [UnixSignal] = [.sigterm, .sigint],
                             onListening: @escaping @Sendable (String) async -> Void = { _ in }) -> ServiceGroup {
        let router = Router()
        // Added before the routes: Hummingbird wraps each route, and the not-found responder,
        // in the middleware present when it is added.
        router.add(middleware: JSONNotFoundMiddleware())
        RasterKitRoutes(service: service).register(on: router)
        let configuration = service.configuration
        let connections = ConnectionCount(limit: configuration.maximumConnections)
        let idle = TimeAmount.nanoseconds(Int64(max(0.001, configuration.idleTimeout) * 1e9))
        let stall = TimeAmount.nanoseconds(Int64(max(0.001, configuration.writeTimeout) * 1e9))
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedHTTPChannel(base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idle)),
                                   connections: connections, writeTimeout: stall)
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "RasterKit"),
            services: [service],
            onServerRunning: ServerLifecycle.reportingAddress(onListening),
            logger: logger)
        return ServerLifecycle.group(application, signals: signals, logger: logger)
    }

    /// Runs until SIGTERM or SIGINT, then finishes the requests under way and returns.
    ///
    /// - Throws: ``ServerSetupError`` naming the port when it is taken (NIO's own message was
    ///   `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`), and what the
    ///   server's services throw.
    public func run(onListening: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        try await ServerLifecycle.run(serviceGroup(onListening: onListening), host: host, port: port)
    }
}
