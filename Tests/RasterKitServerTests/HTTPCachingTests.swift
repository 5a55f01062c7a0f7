import Foundation
@testable import RasterKitServer
import Testing

@Suite("HTTP caching") struct HTTPCachingTests {
    @Test func ifNoneMatchAnswers304WithoutDrawing() async throws {
        let server = try await TestServer.start()
        let path = "/components/badge/alert.png?scale=2"
        // The tag is the key, known before drawing: ask for it with a tag never served.
        let probe = try await server.request(path, method: "HEAD")
        let tag = try #require(probe.header("ETag"))
        let drawsBefore = server.service.rasterizer.statistics.draws
        let cold = try await server.request("/components/badge/normal.png?scale=3")
        let coldTag = try #require(cold.header("ETag"))
        let drawsAfterCold = server.service.rasterizer.statistics.draws
        #expect(drawsAfterCold == drawsBefore + 1)
        // A fresh key's tag, revalidated: 304 and nothing drawn or read.
        let otherKey = try await TestServer.start()
        let revalidated = try await otherKey.request("/components/badge/normal.png?scale=3", headers: [("If-None-Match", coldTag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(revalidated.header("ETag") == coldTag)
        var untouched = otherKey.service.rasterizer.statistics
        untouched.mirrorFallbacks = 0  // counted for the whole process, which other tests share
        #expect(untouched == .init())
        // A list with a weak prefix still matches; another tag does not.
        let weak = try await server.request(path, headers: [("If-None-Match", "\"nope\", W/\(tag)")])
        #expect(weak.status == 304)
        let mismatch = try await server.request(path, headers: [("If-None-Match", "\"0123\"")])
        #expect(mismatch.status == 200 && !mismatch.body.isEmpty)
        try await otherKey.stop()
        try await server.stop()
    }

    @Test func headHasHeadersAndNoBody() async throws {
        let server = try await TestServer.start()
        let head = try await server.request("/icons/star.png?size=32", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Type") == "image/png")
        let get = try await server.request("/icons/star.png?size=32")
        #expect(head.header("Content-Length") == String(get.body.count))
        #expect(head.header("ETag") == get.header("ETag"))
        try await server.stop()
    }

    @Test func versionedURLsAreImmutable() async throws {
        let server = try await TestServer.start { $0.maxAge = 120 }
        let plain = try await server.request("/components/badge/normal.png")
        #expect(plain.header("Cache-Control") == "public, max-age=120")
        let versioned = try await server.request("/components/badge/normal.png?v=3")
        #expect(versioned.header("Cache-Control") == "public, max-age=31536000, immutable")
        // v= steers caching only: same render, same tag.
        #expect(versioned.header("ETag") == plain.header("ETag"))
        try await server.stop()
    }
}
