import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import RasterKit
import RasterKitDiff
@testable import RasterKitServer
import RasterKitTestSupport
import Synchronization
import Testing

/// The review page of `rasterkit report --serve`: a reviewer accepts or rejects each golden
/// failure with a button; only loopback requests carrying the page's token are obeyed.
@Suite("Golden review page") struct GoldenReviewTests {
    /// A review server over a folder of failures left as golden assertions leave them.
    struct Review {
        let root: URL
        var goldens: URL { root.appendingPathComponent("Goldens") }
        var artifacts: URL { root.appendingPathComponent("artifacts") }
        let server: GoldenReviewServer
        let base: String
        let stop: @Sendable () async throws -> Void

        static func start(_ name: String = #function,
                          remote: @escaping @Sendable (String?) -> GoldenRemote? = { _ in nil }) async throws -> Review {
            let root = TestScratch.path("review-" + name.filter(\.isLetter))
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Goldens"), withIntermediateDirectories: true)
            for (identifier, kind) in [("BadgeTests/unread@2x", "mismatch"), ("BadgeTests/read@2x", "mismatch"),
                                       ("Flaky/clock@1x", "nondeterministic")] {
                try fail(identifier, kind: kind, in: root)
            }
            let server = try GoldenReviewServer(artifacts: root.appendingPathComponent("artifacts"),
                                                goldens: root.appendingPathComponent("Goldens").path, remote: remote, port: 0)
            let (addresses, continuation) = AsyncStream<String>.makeStream()
            let group = server.serviceGroup(signals: [], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) {
                continuation.yield($0)
            }
            let running = Task { try await group.run() }
            var address = ""
            for await bound in addresses {
                address = bound
                break
            }
            return Review(root: root, server: server, base: "http://\(address)") {
                await group.triggerGracefulShutdown()
                try await running.value
            }
        }

        static func fail(_ identifier: String, kind: String, in root: URL) throws {
            let folder = root.appendingPathComponent("artifacts/" + identifier.replacingOccurrences(of: "/", with: "."))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try TestImages.black(whiteAt: [(1, 1)]).pngData().write(to: folder.appendingPathComponent("actual.png"))
            let summary: [String: Any] = [
                "identifier": identifier, "message": "Golden \(identifier) differs", "recordMode": "never", "kind": kind,
                "golden": root.appendingPathComponent("Goldens/\(identifier).png").path,
                "goldensRoot": root.appendingPathComponent("Goldens").path,
            ]
            try JSONSerialization.data(withJSONObject: summary).write(to: folder.appendingPathComponent("result.json"))
        }

        func request(_ path: String, method: String = "GET", body: String? = nil,
                     headers: [String: String] = [:]) async throws -> (status: Int, body: Data) {
            var request = URLRequest(url: URL(string: base + path)!, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }

        func verdict(_ verdict: String, _ identifier: String, token: String? = nil) async throws -> (status: Int, body: Data) {
            try await request("/" + verdict, method: "POST", body: identifier,
                              headers: ["X-RasterKit-Review": token ?? server.token, "Content-Type": "text/plain"])
        }
    }

    @Test func thePageOffersAcceptAndRejectAndTheButtonsDoWhatTheySay() async throws {
        let review = try await Review.start()
        let page = try await review.request("/")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200 && html.contains("const reviewToken = '\(review.server.token)'"))
        #expect(html.contains("data-golden=\"BadgeTests/unread@2x\"><button class=\"accept\""))
        // A render that differed from itself has nothing to accept: Reject only.
        #expect(html.contains("data-golden=\"Flaky/clock@1x\"><button class=\"reject\""))

        let accepted = try await review.verdict("accept", "BadgeTests/unread@2x")
        #expect(accepted.status == 200, "\(String(decoding: accepted.body, as: UTF8.self))")
        let golden = review.goldens.appendingPathComponent("BadgeTests/unread@2x.png")
        #expect(try RGBABitmap(pngData: Data(contentsOf: golden)) == TestImages.black(whiteAt: [(1, 1)]))
        #expect(FileManager.default.fileExists(atPath: review.goldens.appendingPathComponent("BadgeTests/environment.json").path))
        let rejected = try await review.verdict("reject", "BadgeTests/read@2x")
        #expect(rejected.status == 200)
        #expect(!FileManager.default.fileExists(atPath: review.goldens.appendingPathComponent("BadgeTests/read@2x.png").path))
        #expect(try GoldenReport(artifactsDirectory: review.artifacts).failures.map(\.identifier) == ["Flaky/clock@1x"])
        let refused = try await review.verdict("accept", "Flaky/clock@1x")
        #expect(refused.status == 409 && String(decoding: refused.body, as: UTF8.self).contains("not_acceptable"))
        try await review.stop()
    }

    @Test func verdictsNeedThePagesTokenALoopbackHostAndAKnownGolden() async throws {
        let review = try await Review.start()
        let noToken = try await review.request("/accept", method: "POST", body: "BadgeTests/unread@2x")
        #expect(noToken.status == 403 && String(decoding: noToken.body, as: UTF8.self).contains("bad_token"))
        let wrongToken = try await review.verdict("accept", "BadgeTests/unread@2x", token: String(repeating: "0", count: 32))
        #expect(wrongToken.status == 403)
        // A page of another site whose name resolves to 127.0.0.1 sends its own Host.
        let rebound = try await review.request("/", headers: ["Host": "evil.example:80"])
        #expect(rebound.status == 403 && String(decoding: rebound.body, as: UTF8.self).contains("bad_host"))
        let unknown = try await review.verdict("accept", "../../etc/passwd")
        #expect(unknown.status == 404)
        let huge = try await review.verdict("accept", String(repeating: "x", count: 10_000))
        #expect(huge.status == 400)
        #expect(!FileManager.default.fileExists(atPath: review.goldens.appendingPathComponent("BadgeTests/unread@2x.png").path))
        #expect(try GoldenReport(artifactsDirectory: review.artifacts).failures.count == 3)
        try await review.stop()
        #expect(throws: ServerSetupError.self) {
            try GoldenReviewServer(artifacts: review.artifacts, goldens: review.goldens.path, host: "0.0.0.0", port: 0)
        }
    }

    @Test func acceptingALockedGoldenUploadsItAndLocksIt() async throws {
        let store = MemoryStore()
        let review = try await Review.start { recorded in
            recorded == "memory://store" ? GoldenRemote(store: store, url: "memory://store", signingKey: nil) : nil
        }
        let lockfile = review.root.appendingPathComponent("goldens.lock.json")
        try GoldenLockfile().data().write(to: lockfile)
        let folder = review.artifacts.appendingPathComponent("locked.badge")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let actual = TestImages.black(whiteAt: [(2, 3)])
        try actual.pngData().write(to: folder.appendingPathComponent("actual.png"))
        let summary: [String: Any] = [
            "identifier": "locked/badge", "message": "differs", "recordMode": "never", "kind": "mismatch",
            "golden": "\(lockfile.path): locked/badge",
            "lock": ["lockfile": lockfile.path, "name": "locked/badge", "key": "0123456789abcdef0123456789abcdef-png1",
                     "remote": "memory://store"],
        ]
        try JSONSerialization.data(withJSONObject: summary).write(to: folder.appendingPathComponent("result.json"))

        let accepted = try await review.verdict("accept", "locked/badge")
        #expect(accepted.status == 200, "\(String(decoding: accepted.body, as: UTF8.self))")
        let entry = try #require(try GoldenLockfile(contentsOf: lockfile).goldens["locked/badge"])
        #expect(entry.pixels == actual.pixelDigest.hex && entry.key == "0123456789abcdef0123456789abcdef-png1")
        #expect(try store.golden(pixelDigest: actual.pixelDigest, signingKey: nil) == actual)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        try await review.stop()
    }
}

/// A remote store in memory.
final class MemoryStore: RemoteStore {
    private let objects = Mutex<[String: Data]>([:])

    func get(_ names: [RemoteObjectName], maximumBytes: Int) -> [Result<Data?, any Error>] {
        names.map { name in .success(objects.withLock { $0[name.description] }) }
    }

    func put(_ uploads: [RemoteStoreUpload]) -> [RemoteStoreError?] {
        objects.withLock { objects in
            for upload in uploads { objects[upload.name.description] = upload.bytes }
        }
        return uploads.map { _ in nil }
    }
}
