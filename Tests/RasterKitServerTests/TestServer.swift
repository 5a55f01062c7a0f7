import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RasterKitTestSupport
import Logging
import RasterKit
@testable import RasterKitServer
import ServiceLifecycle

/// A render server on an ephemeral loopback port, over a temporary folder holding a manifest and
/// an icon folder, with a real HTTP client. Only 127.0.0.1 is ever contacted.
final class TestServer: Sendable {
    let folder: URL
    let service: RasterRenderService
    let base: String
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    /// This server's own client: a connection kept alive to a server that has stopped is never
    /// offered to the next one (a run once saw an empty reply from a restarted server).
    private let client = TestServer.makeClient()

    /// A reply: status, headers and body.
    struct Reply: Sendable {
        var status: Int
        /// The response's headers, by lowercased name.
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? { headers[name.lowercased()] }
        /// The JSON error body's message, or nil when the body is not such an object.
        var errorMessage: String? {
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
        }
    }

    static let manifest = """
        version: 1
        components:
          badge:
            sizes: ["40x20"]
            states:
              normal: {fill: "#2F6FEB", dark: {fill: "#0F172A"}}
              alert: {fill: "#D93B3B"}
            layers:
              - roundedRect: {radius: 4, fill: "$fill"}
          slow:
            sizes: ["1000x1000"]
            layers:
              - roundedRect: {inset: 150, radius: 40, fill: white, shadow: {color: "#000000CC", offset: [0, 0], blur: 200}}
          panel:
            sizes: [{width: 64, height: 48, caps: [8, 8, 8, 8]}]
            layers:
              - roundedRect: {inset: 1, radius: 6, fill: "#E2E8F0"}
        """

    static let star = """
        <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
        <path d="M12 2 L15 9 L22 9 L16.5 13.5 L18.5 21 L12 16.5 L5.5 21 L7.5 13.5 L2 9 L9 9 Z" fill="black"/></svg>
        """

    static func start(rasterizer: Rasterizer? = nil, folder: URL? = nil, manifest manifestText: String = manifest,
                      _ configure: (inout RasterServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        let folder = folder ?? TestScratch.path("rasterkit-serve")
        let icons = folder.appendingPathComponent("site/icons")
        try FileManager.default.createDirectory(at: icons.appendingPathComponent("nested"), withIntermediateDirectories: true)
        try manifestText.write(to: folder.appendingPathComponent("site/manifest.yaml"), atomically: true, encoding: .utf8)
        try star.write(to: icons.appendingPathComponent("star.svg"), atomically: true, encoding: .utf8)
        try star.write(to: icons.appendingPathComponent("nested/dot.svg"), atomically: true, encoding: .utf8)
        // Outside the icon folder: no request may reach it.
        try star.write(to: folder.appendingPathComponent("site/secret.svg"), atomically: true, encoding: .utf8)
        var configuration = RasterServerConfiguration(manifest: folder.appendingPathComponent("site/manifest.yaml"), icons: icons)
        configure(&configuration)
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let service = try RasterRenderService(configuration: configuration, rasterizer: rasterizer, logger: quiet)
        let (addresses, continuation) = AsyncStream<String>.makeStream()
        let group = RasterServer(service: service, host: "127.0.0.1", port: 0, logger: quiet)
            .serviceGroup(signals: []) { address in continuation.yield(address) }
        let running = Task { try await group.run() }
        var address: String?
        for await bound in addresses {
            address = bound
            break
        }
        guard let address, address.hasPrefix("127.0.0.1:") else { throw TestFailure("the server did not report a loopback address") }
        return TestServer(folder: folder, service: service, base: "http://\(address)", group: group, running: running)
    }

    private init(folder: URL, service: RasterRenderService, base: String, group: ServiceGroup, running: Task<Void, any Error>) {
        self.folder = folder
        self.service = service
        self.base = base
        self.group = group
        self.running = running
    }

    /// `method path` with `headers`, with Foundation's client (redirects and caching off: the
    /// test sees exactly what the server answered).
    func request(_ path: String, method: String = "GET", headers: [(String, String)] = [],
                 timeout: Double = 60) async throws -> Reply {
        guard let url = URL(string: base + path) else { throw TestFailure("not a URL: \(base + path)") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await client.data(for: request)
        guard let response = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response") }
        var replyHeaders: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields { replyHeaders[name.lowercased()] = value }
        return Reply(status: response.statusCode, headers: replyHeaders, body: body)
    }

    /// A client with no cookies and no cache, which answers redirects as they are.
    private static func makeClient() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpMaximumConnectionsPerHost = 16
        return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    /// Starts a graceful shutdown and waits for the server to finish; the folder is removed
    /// unless `keepingFolder`.
    func stop(keepingFolder: Bool = false) async throws {
        defer { client.finishTasksAndInvalidate() }
        await group.triggerGracefulShutdown()
        try await running.value
        if !keepingFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Begins a graceful shutdown without waiting.
    func beginShutdown() async { await group.triggerGracefulShutdown() }

    /// Waits for the server's run to end.
    func waitUntilStopped() async throws { try await running.value }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// PNG files start with these eight bytes.
let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

/// Answers a redirect as the response it is.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
