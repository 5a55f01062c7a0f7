import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import RasterKit
import RasterKitDiff
import ServiceLifecycle
import UnixSignals

/// `rasterkit report --serve`: the golden failures of an artifacts folder as one page on the
/// loopback interface, where a reviewer accepts (the actual image becomes the golden, inside
/// the goldens folder only) or rejects (the golden stays) each change with a button.
///
/// Only loopback addresses are served, and only requests whose `Host` is one (a page of another
/// site that makes its name resolve to 127.0.0.1 is still refused). The buttons post with a
/// token the page carries in a header, which a page of another origin cannot send.
package struct GoldenReviewServer: Sendable {
    package let artifacts: URL
    package let goldens: String
    /// The only lockfile locked goldens may be accepted into; nil for the one their artifacts name.
    package let lockfile: String?
    /// The remote cache an accepted locked golden is uploaded to, from the address its check used.
    package let remote: @Sendable (String?) -> GoldenRemote?
    package let host: String
    package let port: Int
    /// Proves a verdict came from the page this server served.
    let token: String
    static let tokenHeader = HTTPField.Name("X-RasterKit-Review")!

    /// A review of `artifacts`' failures, accepting into `goldens` (and locked goldens into
    /// `lockfile` and `remote`), on `host` (a loopback address) and `port` (0 for any free one).
    package init(artifacts: URL, goldens: String, lockfile: String? = nil,
                 remote: @escaping @Sendable (String?) -> GoldenRemote? = { _ in nil },
                 host: String = "127.0.0.1", port: Int) throws(ServerSetupError) {
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw ServerSetupError("--host \(host): the review page is served on the loopback interface only (127.0.0.1, ::1)")
        }
        self.artifacts = artifacts
        self.goldens = goldens
        self.lockfile = lockfile
        self.remote = remote
        self.host = host
        self.port = port
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
        token = bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The router: `GET /` the page, `POST /accept` and `POST /reject` a verdict on the golden the
    /// body names.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONNotFoundMiddleware())
        let review = self
        router.get("/") { request, _ in
            guard review.isLoopback(request) else { return review.refusedHost(request) }
            do {
                let page = try GoldenReport(artifactsDirectory: review.artifacts).html(reviewToken: review.token)
                return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
            } catch {
                return RequestError(.internalServerError, "cannot read \(review.artifacts.path): \(error)").response
            }
        }
        router.post("/accept") { request, _ in await review.verdict(request, accepting: true) }
        router.post("/reject") { request, _ in await review.verdict(request, accepting: false) }
        return router
    }

    /// Carries out a verdict on the golden named by the request's body.
    private func verdict(_ request: Request, accepting: Bool) async -> Response {
        guard isLoopback(request) else { return refusedHost(request) }
        guard let sent = request.headers[Self.tokenHeader], HMACSHA256.matches(Array(sent.utf8), Array(token.utf8)) else {
            return RequestError(.forbidden, "a verdict needs the review page's token", code: "bad_token").response
        }
        guard let body = try? await request.body.collect(upTo: 4_096) else {
            return RequestError.badRequest("the body must name one golden, in at most 4096 bytes").response
        }
        let identifier = String(buffer: body)
        let report: GoldenReport
        do { report = try GoldenReport(artifactsDirectory: artifacts) } catch {
            return RequestError(.internalServerError, "cannot read \(artifacts.path): \(error)").response
        }
        guard let failure = report.failures.first(where: { $0.identifier == identifier }) else {
            return RequestError.notFound("no failure named '\(identifier)' in \(artifacts.path)", code: "unknown_golden").response
        }
        let message: String
        if accepting {
            // Accepting may upload to the remote cache, whose client blocks: off the server's threads.
            let (goldens, lockfile, remote) = (goldens, lockfile, remote)
            let accepted: Result<String, GoldenAcceptance.Refusal> = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: Result { () throws(GoldenAcceptance.Refusal) in
                        try GoldenAcceptance.accept(failure, goldensRoot: goldens, lockfile: lockfile, remote: remote)
                    })
                }
            }
            switch accepted {
            case .success(let golden): message = "accepted: \(golden)"
            case .failure(let error): return RequestError(.conflict, error.reason, code: "not_acceptable").response
            }
        } else {
            GoldenAcceptance.forget(failure)
            message = "rejected: the golden stays, and the test fails until the rendering is fixed"
        }
        let json = (try? JSONSerialization.data(withJSONObject: ["message": message], options: [.sortedKeys])) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    /// Whether the request names a loopback host: `127.0.0.1`, `[::1]` or `localhost`, any port.
    private func isLoopback(_ request: Request) -> Bool {
        guard let authority = request.head.authority else { return false }
        let name = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }.dropFirst())
            : String(authority.prefix { $0 != ":" })
        return ["127.0.0.1", "::1", "localhost"].contains(name.lowercased())
    }

    private func refusedHost(_ request: Request) -> Response {
        RequestError(.forbidden, "the review page answers requests for 127.0.0.1, [::1] or localhost only", code: "bad_host").response
    }

    /// The service group serving the page; `onListening` receives the bound address.
    package func serviceGroup(signals: [UnixSignal] = [.sigterm, .sigint], logger: Logger,
                              onListening: @escaping @Sendable (String) async -> Void = { _ in }) -> ServiceGroup {
        let application = Application(
            router: router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "RasterKit review"),
            onServerRunning: ServerLifecycle.reportingAddress(onListening),
            logger: logger)
        return ServerLifecycle.group(application, signals: signals, logger: logger)
    }

    /// Serves until SIGTERM or SIGINT; a taken port is a ``ServerSetupError`` naming it.
    package func run(logger: Logger, onListening: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        try await ServerLifecycle.run(serviceGroup(logger: logger, onListening: onListening), host: host, port: port)
    }
}
