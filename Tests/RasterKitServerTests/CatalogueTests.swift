import Foundation
import Logging
import RasterKit
@testable import RasterKitServer
import RasterKitTestSupport
import Synchronization
import Testing

/// What a new user meets first: the catalogue, errors that say what was meant, a stable `code`
/// in every error, a broken manifest reported once, and a taken port named.
@Suite("Catalogue and errors") struct CatalogueTests {
    static func json(_ reply: TestServer.Reply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    @Test func theCatalogueListsEveryComponentWithItsStatesSizesAndAppearances() async throws {
        let server = try await TestServer.start()
        let reply = try await server.request("/components")
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/json")
        let catalogue = try Self.json(reply)
        let components = try #require(catalogue["components"] as? [[String: Any]])
        #expect(components.map { $0["name"] as? String } == ["badge", "panel", "slow"])
        let badge = components[0]
        #expect(badge["states"] as? [String] == ["normal", "alert"])
        #expect(badge["sizes"] as? [String] == ["40x20"])
        #expect(badge["appearances"] as? [String] == ["light", "dark"])
        #expect(badge["url"] as? String == "/components/badge/{state}.png")
        #expect(catalogue["formats"] as? [String] == ["pdf", "png", "svg", "webp"])
        #expect(catalogue["icons"] as? Int == 2)
        #expect(try await server.request("/components", method: "HEAD").status == 200)
        try await server.stop()
    }

    @Test func misspeltNamesSuggestTheClosestAndEveryErrorHasACode() async throws {
        let server = try await TestServer.start()
        let component = try await server.request("/components/bagde/normal.png")
        #expect(component.status == 404)
        #expect(try Self.json(component)["code"] as? String == "unknown_component")
        #expect(component.errorMessage?.contains("did you mean \"badge\"?") == true)
        let state = try await server.request("/components/badge/alrt.png")
        #expect(try Self.json(state)["code"] as? String == "unknown_state")
        #expect(state.errorMessage?.contains("did you mean \"alert\"?") == true)
        let icon = try await server.request("/icons/stra.png?size=24")
        #expect(try Self.json(icon)["code"] as? String == "unknown_icon")
        #expect(icon.errorMessage?.contains("did you mean \"star\"?") == true)
        // Nothing close: no guess. A long name is not compared at all.
        let far = try await server.request("/components/zzzzzzzz/normal.png")
        #expect(far.errorMessage?.contains("did you mean") == false)
        let long = try await server.request("/components/" + String(repeating: "b", count: 200) + "/normal.png")
        #expect(long.status == 404 && long.errorMessage?.contains("did you mean") == false)
        for (path, code) in [("/nowhere", "unknown_route"), ("/components/badge/normal.gif", "unknown_format"),
                             ("/components/badge/normal.png?size=0x0", "bad_request"),
                             ("/components/badge/normal.png?appearance=sepia", "bad_request")] {
            let reply = try await server.request(path)
            let body = try Self.json(reply)
            #expect(body["code"] as? String == code, "\(path): \(body)")
            #expect(body["status"] as? Int == reply.status && body["error"] is String, "\(path)")
        }
        try await server.stop()
    }

    /// Collects the messages logged at `error` level.
    final class ErrorLog: LogHandler, @unchecked Sendable {
        let messages = Mutex<[String]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            if event.level >= .error { messages.withLock { $0.append(event.message.description) } }
        }
    }

    @Test func aBrokenManifestIsReportedOncePerChange() throws {
        let folder = TestScratch.path("catalogue-reload")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("kit.yaml")
        try TestServer.manifest.write(to: manifest, atomically: true, encoding: .utf8)
        let log = ErrorLog()
        let service = try RasterRenderService(configuration: RasterServerConfiguration(manifest: manifest, icons: nil),
                                              logger: Logger(label: "test") { _ in log })
        // Stamps notice a change by size and times: each version differs in length.
        try "components: [".write(to: manifest, atomically: true, encoding: .utf8)
        for _ in 0..<5 { #expect(!service.reloadIfChanged()) }
        #expect(log.messages.withLock { $0.count } == 1)
        #expect(log.messages.withLock { $0.first?.contains("reported once until the inputs change again") } == true)
        try "components: [[".write(to: manifest, atomically: true, encoding: .utf8)
        for _ in 0..<5 { #expect(!service.reloadIfChanged()) }
        #expect(log.messages.withLock { $0.count } == 2)
        try TestServer.manifest.write(to: manifest, atomically: true, encoding: .utf8)
        #expect(service.reloadIfChanged())
        #expect(!service.reloadIfChanged())
        #expect(log.messages.withLock { $0.count } == 2)
    }

    @Test func aTakenPortIsNamedWithTheWayOut() async throws {
        let server = try await TestServer.start()
        let port = try #require(server.base.split(separator: ":").last.map(String.init))
        let run = try CLI.run([server.folder.appendingPathComponent("site/manifest.yaml").path, "--host", "127.0.0.1",
                               "--port", port, "--no-cache"], tool: "rasterkit-server")
        #expect(run.status == 2)
        #expect(run.stderr.contains("port \(port) on 127.0.0.1 is already in use") && run.stderr.contains("--port 0"), "\(run.stderr)")
        #expect(!run.stderr.contains("bind(descriptor"))
        try await server.stop()
    }
}
