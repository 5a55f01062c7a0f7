import Foundation
import NIOCore
import RasterKit
@testable import RasterKitServer
import Testing

/// Issue 46: clients that hold connections, read nothing, ask for expensive documents, or plant
/// links in a served folder cannot make the server unavailable or reach outside its folder.
@Suite(.serialized) struct HostileClientTests {
    /// A raw TCP connection to the server, for clients no HTTP library would be.
    final class RawConnection: @unchecked Sendable {
        let descriptor: Int32

        /// A connection to `port` on loopback; `receiveBuffer` shrinks its receive buffer (and so
        /// the window it offers) before it connects, as a client on a slow link would have.
        init(port: Int, receiveBuffer: Int32? = nil) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket: \(errno)") }
            if var size = receiveBuffer {
                setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(descriptor)
                throw TestFailure("connect: \(errno)")
            }
        }

        deinit { close(descriptor) }

        func send(_ text: String) {
            _ = text.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        }

        /// What the server sent until it closed the connection or `seconds` passed, read on a
        /// thread of its own: a blocking read on Swift concurrency's few threads could starve the
        /// server under test, whose handlers run there too.
        func readAll(seconds: Double) async -> (text: String, closed: Bool) {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: self.blockingReadAll(seconds: seconds)) }.start()
            }
        }

        private func blockingReadAll(seconds: Double) -> (text: String, closed: Bool) {
            var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
                // A server that closes with requests still unread resets the connection: closed too.
                if count < 0 { return (String(decoding: received, as: UTF8.self), errno == ECONNRESET) }
                received.append(contentsOf: buffer[0..<count])
            }
        }
    }

    private func port(of server: TestServer) throws -> Int {
        guard let port = Int(server.base.split(separator: ":").last ?? "") else { throw TestFailure("no port in \(server.base)") }
        return port
    }

    @Test func connectionsOverTheLimitAre503AndHealthStaysAnswered() async throws {
        let server = try await TestServer.start { $0.maximumConnections = 8 }
        let port = try port(of: server)
        // Eight half-open connections: a request head never finished.
        let held = try (0..<8).map { _ in try RawConnection(port: port) }
        for connection in held { connection.send("GET /health HTTP/1.1\r\nHost: x\r\n") }
        try await Task.sleep(for: .milliseconds(200))
        let refused = try RawConnection(port: port)
        let answer = await refused.readAll(seconds: 5)
        #expect(answer.text.hasPrefix("HTTP/1.1 503"), "\(answer.text)")
        #expect(answer.text.contains("Retry-After: 1") && answer.closed)
        // Once they go, /health is answered again.
        for connection in held { close(connection.descriptor) }
        #expect(await eventually { (try? await server.request("/health").status) == 200 })
        try await server.stop()
    }

    @Test func idleAndSlowlyWrittenConnectionsAreClosed() async throws {
        let server = try await TestServer.start { $0.idleTimeout = 0.5 }
        let port = try port(of: server)
        let idle = try RawConnection(port: port)
        let dribbling = try RawConnection(port: port)
        dribbling.send("GET /hea")
        let start = ContinuousClock.now
        #expect(await idle.readAll(seconds: 5).closed)
        #expect(await dribbling.readAll(seconds: 5).closed)
        #expect(ContinuousClock.now - start < .seconds(4))
        try await server.stop()
    }

    @Test func aClientThatReadsNothingIsClosedAfterTheWriteTimeout() async throws {
        let server = try await TestServer.start { $0.writeTimeout = 0.5 }
        let port = try port(of: server)
        // A large response, drawn and encoded once, then asked for many times over one
        // connection that reads nothing: the responses pile up in the server until it gives up.
        let path = "/components/slow/default.png"
        let size = try await server.request(path).body.count
        #expect(size > 10_000)
        let reader = try RawConnection(port: port, receiveBuffer: 1024)
        let count = 200
        for _ in 0..<count { reader.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n") }
        // Ten write timeouts: time enough on a loaded machine (two seconds were not, once).
        try await Task.sleep(for: .seconds(5))
        let (received, closed) = await reader.readAll(seconds: 2)
        #expect(closed, "the connection of a client that reads nothing is still open")
        #expect(received.utf8.count < count * size / 2, "the server sent \(received.utf8.count) bytes to a client that read nothing")
        #expect(try await server.request("/health").status == 200)
        try await server.stop()
    }

    @Test func vectorDocumentsNeverStarveHealthOrWarmHits() async throws {
        let server = try await TestServer.start()
        let warm = try await server.request("/components/badge/normal.png")
        #expect(warm.status == 200)
        // More slow PDFs than there are cores, at once.
        let documents = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<6 {
                    group.addTask { try await server.request("/components/slow/default.pdf?v=\(index)").status }
                }
                return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await server.request("/health").status == 200)
        #expect(try await server.request("/components/badge/normal.png").status == 200)
        #expect(clock.now - start < .seconds(2), "health and a warm hit waited \(clock.now - start) behind documents")
        _ = try await documents.value
        try await server.stop()
    }

    @Test func aLinkPlantedInTheIconFolderIsNeverFollowed() async throws {
        let server = try await TestServer.start()
        let icons = server.folder.appendingPathComponent("site/icons")
        let secret = server.folder.appendingPathComponent("site/secret.svg")
        // The indexed file swapped for a link to a file outside the folder, then a folder on
        // an icon's path swapped for a link to a folder outside it.
        let star = icons.appendingPathComponent("star.svg")
        try FileManager.default.removeItem(at: star)
        try FileManager.default.createSymbolicLink(at: star, withDestinationURL: secret)
        let outside = server.folder.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try TestServer.star.write(to: outside.appendingPathComponent("dot.svg"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: icons.appendingPathComponent("nested"))
        try FileManager.default.createSymbolicLink(at: icons.appendingPathComponent("nested"), withDestinationURL: outside)
        for path in ["/icons/star.png?size=24", "/icons/nested/dot.png?size=24"] {
            let reply = try await server.request(path)
            #expect(reply.status != 200, "\(path) served what lies outside the folder")
        }
        // And after the reload notices the change, the links are not icons at all.
        try await Task.sleep(for: .seconds(2.5))
        #expect(try await server.request("/icons/star.png?size=24").status == 404)
        try await server.stop()
    }

    @Test func everyMalformedValueIs400AndHeadAnswersWhereGetDoes() async throws {
        let server = try await TestServer.start()
        for query in ["size=+24", "size=24.", "size=2.4e1", "size=0x18", "size=024", "size=1e-300", "scale=0x1p1", "scale=2e0",
                      "size=24&scale=0.001", "v=", "v=a%20b", "exp=soon", "exp=-1", "sig=zz", "size=24x", "size=%2024"] {
            let reply = try await server.request("/icons/star.png?\(query)")
            #expect(reply.status == 400, "\(query): \(reply.status)")
            #expect(reply.errorMessage != nil, "\(query)")
        }
        let panel = try await server.request("/components/panel/default.png?size=4x4")
        #expect(panel.status == 400, "caps larger than the size: \(panel.status)")
        for path in ["/health", "/metrics"] {
            let head = try await server.request(path, method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty, "HEAD \(path): \(head.status)")
        }
        try await server.stop()
    }
}

/// Polls `condition` for up to five seconds.
func eventually(_ condition: @escaping () async -> Bool) async -> Bool {
    for _ in 0..<100 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}
