import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// What the render server and the review page share around their Hummingbird applications.
enum ServerLifecycle {
    /// `onListening` given the address a channel is bound to: `127.0.0.1:43121`.
    static func reportingAddress(_ onListening: @escaping @Sendable (String) async -> Void) -> @Sendable (any Channel) async -> Void {
        { channel in
            let address = channel.localAddress
            await onListening("\(address?.ipAddress ?? "?"):\(address?.port ?? 0)")
        }
    }

    /// `service` in a group stopped gracefully by `signals`.
    static func group(_ service: some Service, signals: [UnixSignal], logger: Logger) -> ServiceGroup {
        ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], gracefulShutdownSignals: signals, logger: logger))
    }

    /// Runs `group`; a port already in use is a ``ServerSetupError`` naming it (NIO's own message
    /// was `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`).
    static func run(_ group: ServiceGroup, host: String, port: Int) async throws {
        do {
            try await group.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServerSetupError("port \(port) on \(host) is already in use: stop what listens there, choose another "
                + "with --port, or use --port 0 for any free port (the address is printed once it listens)")
        }
    }
}
