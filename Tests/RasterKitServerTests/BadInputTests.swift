import Foundation
@testable import RasterKitServer
import Testing

@Suite("Bad input") struct BadInputTests {
    /// Each request and the status it must get; every one with a JSON error body, nothing drawn.
    static let cases: [(path: String, status: Int)] = [
        ("/components/badge/normal.png?size=abc", 400),
        ("/components/badge/normal.png?size=0x20", 400),
        ("/components/badge/normal.png?size=-5", 400),
        ("/components/badge/normal.png?size=40x", 400),
        ("/components/badge/normal.png?size=100000x100000", 400),
        ("/components/badge/normal.png?size=4000x4000&scale=2", 400),
        ("/components/badge/normal.png?scale=0", 400),
        ("/components/badge/normal.png?scale=nan", 400),
        ("/components/badge/normal.png?scale=NaN", 400),
        ("/components/badge/normal.png?scale=100", 400),
        ("/components/badge/normal.png?scale=inf", 400),
        ("/components/badge/normal.png?color=red", 400),
        ("/components/badge/normal.png?scale=2&scale=2", 400),
        ("/components/badge/normal.png?tint=FF0000", 400),
        ("/icons/star.png", 400),
        ("/icons/star.png?size=24&tint=zzzzzz", 400),
        ("/icons/star.png?size=24&tint=bleu", 400),
        ("/icons/star.png?size=24&tint=FF00000", 400),
        ("/icons/%2e%2e/secret.png?size=24", 400),
        ("/icons/%2E%2E/secret.png?size=24", 400),
        ("/icons/nested/%2e%2e%2f%2e%2e%2fsecret.png?size=24", 400),
        ("/icons/.hidden.png?size=24", 400),
        ("/components/%2e%2e/normal.png", 400),
        ("/components/nope/normal.png", 404),
        ("/components/badge/nope.png", 404),
        ("/components/badge/normal.gif", 404),
        ("/components/badge/normal", 404),
        ("/icons/nope.png?size=24", 404),
        ("/icons/secret.png?size=24", 404),
        ("/icons/nested.png?size=24", 404),
        ("/nothing/here.png", 404),
        ("/components/badge", 404),
    ]

    @Test func refusedWithJSONErrors() async throws {
        let server = try await TestServer.start()
        for (path, status) in Self.cases {
            let reply = try await server.request(path)
            #expect(reply.status == status, "\(path)")
            #expect(reply.header("Content-Type") == "application/json", "\(path)")
            #expect(reply.errorMessage?.isEmpty == false, "\(path): \(String(decoding: reply.body, as: UTF8.self))")
        }
        #expect(server.service.rasterizer.statistics.draws == 0)
        try await server.stop()
    }

    /// `..` spelled plainly, sent as it is (an HTTP library would resolve it first): it never
    /// reaches a file, in the icon folder or outside it.
    @Test func plainDotDotNeverEscapes() async throws {
        let server = try await TestServer.start()
        guard let port = Int(server.base.split(separator: ":").last ?? "") else { throw TestFailure("no port in \(server.base)") }
        for path in ["/icons/../secret.png?size=24", "/icons/nested/../../secret.png?size=24", "/icons/nested/../star.png?size=24"] {
            let connection = try HostileClientTests.RawConnection(port: port)
            connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            // Generous: the whole suite starts at once on two processors, and the server may wait
            // its turn; a server that never answers still fails here.
            let reply = await connection.readAll(seconds: 60).text
            #expect(reply.hasPrefix("HTTP/1.1 400") || reply.hasPrefix("HTTP/1.1 404"), "\(path) → \(reply.prefix(40))")
            #expect(!reply.contains("PNG\r\n\u{1A}\n"), "no PNG is served")
        }
        #expect(server.service.rasterizer.statistics.draws == 0)
        try await server.stop()
    }

    @Test func pixelLimitIsConfigurable() async throws {
        // The manifest's own sizes must fit too: its largest is 1000×1000.
        let server = try await TestServer.start { $0.maximumPixels = 1_000_000 }
        #expect(try await server.request("/components/badge/normal.png?size=500x500&scale=2").status == 200)
        let over = try await server.request("/components/badge/normal.png?size=500x501&scale=2")
        #expect(over.status == 400)
        #expect(over.errorMessage?.contains("1000000 allowed") == true)
        try await server.stop()
    }
}

@Suite("Bad input, manifest sizes") struct ManifestSizeLimitTests {
    /// The manifest's own size counts too: slow is 1000×1000, so scale 3 is 9 M pixels.
    @Test func defaultSizeAtAHighScaleIsRefusedBeforeDrawing() async throws {
        let server = try await TestServer.start()
        let reply = try await server.request("/components/slow/default.png?scale=3")
        #expect(reply.status == 400)
        #expect(reply.errorMessage?.contains("9000000 pixels") == true)
        #expect(server.service.rasterizer.statistics.misses == 0)
        try await server.stop()
    }
}
