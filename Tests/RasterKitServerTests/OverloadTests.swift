import Foundation
@testable import RasterKitServer
import Testing

@Suite("Overload, reload and shutdown") struct LifecycleTests {
    @Test func fullQueueAnswers503WithRetryAfter() async throws {
        let server = try await TestServer.start { $0.renderQueueLimit = 1 }
        // Twelve distinct slow renders at once, one queue slot: the rest are refused at once.
        let replies = try await withThrowingTaskGroup(of: TestServer.Reply.self) { group in
            for index in 0..<12 {
                group.addTask { try await server.request("/components/slow/default.png?size=1000x\(1000 - index)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let statuses = replies.map(\.status)
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        #expect(statuses.contains(200))
        let refused = replies.filter { $0.status == 503 }
        #expect(!refused.isEmpty, "\(statuses)")
        for reply in refused {
            #expect(reply.header("Retry-After") == "1")
            #expect(reply.errorMessage?.contains("queue is full") == true)
        }
        // Nothing refused was drawn.
        #expect(server.service.rasterizer.statistics.draws == statuses.filter { $0 == 200 }.count)
        try await server.stop()
    }

    @Test func reloadsTheManifestWhenItChanges() async throws {
        let server = try await TestServer.start { $0.reloadInterval = 0.05 }
        let before = try await server.request("/components/badge/normal.png")
        #expect(try await server.request("/components/badge/hovered.png").status == 404)
        let manifest = server.folder.appendingPathComponent("site/manifest.yaml")
        let changed = TestServer.manifest
            .replacingOccurrences(of: "normal: {fill: \"#2F6FEB\",", with: "hovered: {fill: \"#000000\"}\n      normal: {fill: \"#1F9D55\",")
        #expect(changed != TestServer.manifest)
        try changed.write(to: manifest, atomically: true, encoding: .utf8)
        var after = before
        for _ in 0..<100 where after.header("ETag") == before.header("ETag") {
            try await Task.sleep(for: .milliseconds(50))
            after = try await server.request("/components/badge/normal.png")
        }
        #expect(after.status == 200)
        #expect(after.header("ETag") != before.header("ETag"))
        #expect(try await server.request("/components/badge/hovered.png").status == 200)
        #expect(server.service.reloadCount >= 1)
        // A broken manifest keeps the last good one serving.
        try "components: [".write(to: manifest, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await server.request("/components/badge/hovered.png").status == 200)
        try await server.stop()
    }

    @Test func reloadsTheIconFolder() async throws {
        let server = try await TestServer.start { $0.reloadInterval = 0.05 }
        #expect(try await server.request("/icons/heart.png?size=24").status == 404)
        try TestServer.star.write(to: server.folder.appendingPathComponent("site/icons/heart.svg"), atomically: true, encoding: .utf8)
        var status = 404
        for _ in 0..<100 where status == 404 {
            try await Task.sleep(for: .milliseconds(50))
            status = try await server.request("/icons/heart.png?size=24").status
        }
        #expect(status == 200)
        try await server.stop()
    }

    @Test func gracefulShutdownFinishesARenderInFlight() async throws {
        let server = try await TestServer.start()
        let inFlight = Task { try await server.request("/components/slow/default.png") }
        // Wait until the render holds its queue slot, then shut down.
        for _ in 0..<400 where server.service.admission.outstanding == 0 {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(server.service.admission.outstanding == 1)
        await server.beginShutdown()
        let reply = try await inFlight.value
        #expect(reply.status == 200)
        #expect(reply.header("X-RasterKit-Origin") == "drawn")
        try await server.waitUntilStopped()
        // Stopped: no longer accepting.
        await #expect(throws: (any Error).self) { _ = try await server.request("/health", timeout: 2) }
    }
}
