import Foundation
import FuzzSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOEmbedded
import RasterKit
import RasterKitServer
import Synchronization

/// HTTP requests to the render routes, as `rasterkit serve` mounts them: the request target
/// (path, percent-escapes and query) and headers go through the router, the query parser, the
/// signature check and the conditional-request headers, and must end in a response — a render,
/// a 304, or a 4xx/5xx with a JSON error — never a trap, a leak or a render over the limits.
///
/// The input is text: the first line is the request target, optionally after `HEAD `; each
/// further line is a header, `Name: value`. A target with `sig=` in it goes to a server that
/// signs URLs, every other one to a server that does not.
enum ServerRequestHarness {
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
          panel:
            sizes: [{width: 64, height: 48, caps: [8, 8, 8, 8]}]
            layers:
              - roundedRect: {inset: 1, radius: 6, fill: "#E2E8F0"}
        """

    static let star = """
        <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
        <path d="M12 2 L15 9 L22 9 L16.5 13.5 L18.5 21 L12 16.5 L5.5 21 L7.5 13.5 L2 9 L9 9 Z" fill="black"/></svg>
        """

    /// The folder the servers serve, made once (see `lsan.supp` for why the name matters).
    static let folder = makeHarnessFixture()

    private static func makeHarnessFixture() -> URL {
        do {
            let folder = Seeds.scratchFolder("server")
            let icons = folder.appendingPathComponent("icons")
            try FileManager.default.createDirectory(at: icons.appendingPathComponent("nested"), withIntermediateDirectories: true)
            try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.yaml"))
            try Data(star.utf8).write(to: icons.appendingPathComponent("star.svg"))
            try Data(star.utf8).write(to: icons.appendingPathComponent("nested/dot.svg"))
            // Outside the icon folder: no request may reach it, and a link to it is never followed.
            try Data(star.utf8).write(to: folder.appendingPathComponent("secret.svg"))
            try FileManager.default.createSymbolicLink(at: icons.appendingPathComponent("link.svg"),
                                                       withDestinationURL: folder.appendingPathComponent("secret.svg"))
            return folder
        } catch {
            fatalError("the harness's folder failed: \(error)")
        }
    }

    /// The configuration of a server over the folder — unsigned, or signing URLs — with limits
    /// small enough that a request the fuzzer makes valid renders in microseconds.
    static func configuration(signing: Bool) -> RasterServerConfiguration {
        var configuration = RasterServerConfiguration(manifest: folder.appendingPathComponent("manifest.yaml"),
                                                      icons: folder.appendingPathComponent("icons"))
        configuration.maximumPixels = 64 << 10
        configuration.maximumSide = 512
        configuration.signingKey = signing ? Data("fuzz-secret".utf8) : nil
        return configuration
    }

    /// The routes of the two servers, made once.
    static let responders = (plain: responder(signing: false), signing: responder(signing: true))

    private static func responder(signing: Bool) -> RouterResponder<BasicRequestContext> {
        do {
            let service = try RasterRenderService(configuration: configuration(signing: signing), logger: quiet)
            let router = Router()
            RasterKitRoutes(service: service).register(on: router)
            return router.buildResponder()
        } catch {
            fatalError("the harness's server failed: \(error)")
        }
    }

    static let quiet = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
    static let channel = EmbeddedChannel()

    static func run(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        guard let pointer else { return 0 }
        let text = String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(33).map(String.init)
        guard var target = lines.first else { return 0 }
        lines.removeFirst()
        let isHead = target.hasPrefix("HEAD ")
        if isHead { target.removeFirst(5) }
        let method: HTTPRequest.Method = isHead ? .head : .get
        var headers = HTTPFields()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            headers.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: target, headerFields: headers),
                              body: RequestBody(buffer: ByteBuffer()))
        let responder = target.contains("sig=") ? responders.signing : responders.plain
        waitFor {
            let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: quiet))
            let response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch {
                // The router's own errors (no such route, a method it does not take).
                return
            }
            let written = ByteTally()
            try? await response.body.write(CountingWriter(bytes: written))
            precondition(response.status.code < 500 || response.status.code == 503,
                         "a request made the server fail: \(response.status)")
            precondition(method != .head || written.count.load(ordering: .relaxed) == 0, "a HEAD response had a body")
        }
        return 0
    }
}

/// Counts a response body's bytes.
struct CountingWriter: ResponseBodyWriter {
    let bytes: ByteTally
    mutating func write(_ buffer: ByteBuffer) async throws { bytes.count.add(buffer.readableBytes, ordering: .relaxed) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Bytes written, shared with the writer that counts them.
final class ByteTally: Sendable {
    let count = Atomic<Int>(0)
}
