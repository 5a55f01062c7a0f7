import Foundation
@testable import RasterKit
import RasterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 46: a remote store that fails uploads says so, with the HTTP status (and fails the run
/// with `--remote-required`); one that holds forged objects cannot put another image in a file.
@Suite struct HostileRemoteCommandTests {
    private func svg(_ arguments: [String], in folder: URL) throws -> CLI.Run {
        try CLI.run(["svg", "icons", "--size", "16", "--scale", "1", "--scale", "2"] + arguments, in: folder,
                    environment: SVGCommandTests.environment(for: folder))
    }

    @Test func failedUploadsAreReportedWithTheirStatusAndFailTheRunWhenRequired() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed: make deps")
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (nginx, port) = try RemoteCacheCommandTests.startNginx(in: folder, failingPuts: true)
        defer { nginx.send(SIGKILL); nginx.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/renders"

        let plain = try svg(["--out", "plain", "--cache", "plain.sqlite", "--remote-cache", url], in: folder)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("HTTP 500"), "\(plain.stdout)")
        #expect(plain.stderr.contains("warning: the remote cache failed") && plain.stderr.contains("HTTP 500"), "\(plain.stderr)")

        let required = try svg(["--out", "required", "--cache", "required.sqlite", "--remote-cache", url, "--remote-required", "--json"],
                               in: folder)
        #expect(required.status == 1, "\(required.stderr)")
        let remote = try #require(try required.json()["remote"] as? [String: Any])
        let failures = try #require(remote["uploadFailures"] as? [String: Int])
        #expect(failures["HTTP 500"] ?? 0 >= 1, "\(failures)")
        let uploads = (remote["uploads"] as? Int ?? 0) + (remote["uploadErrors"] as? Int ?? 0) + (remote["uploadsDropped"] as? Int ?? 0)
        #expect(uploads == 4, "every render is an upload, a failed one or a dropped one: \(remote)")
    }

    @Test func aForgedObjectNeverPutsAnotherImageInAFile() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed: make deps")
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (nginx, port) = try RemoteCacheCommandTests.startNginx(in: folder)
        defer { nginx.send(SIGKILL); nginx.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/renders"
        let first = try svg(["--out", "first", "--cache", "first.sqlite", "--remote-cache", url], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        // Every object rewritten, well framed, with a 64×64 image under its key.
        let store = folder.appendingPathComponent("store/renders/\(CacheKey.formatVersion)")
        let forged = try RasterImage(size: Size(64), scale: 1) { $0.fillAll(with: .color(.green)) }.pngData()
        let names = try FileManager.default.contentsOfDirectory(atPath: store.path)
        #expect(names.count == 4)
        for name in names {
            let digest = try #require(StableDigest(hex: name))
            try RemoteCacheObject.encode(digest: digest, png: forged, children: []).write(to: store.appendingPathComponent(name))
        }
        let second = try svg(["--out", "second", "--cache", "second.sqlite", "--remote-cache", url, "--json"], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        let remote = try #require(try second.json()["remote"] as? [String: Any])
        #expect(remote["rejected"] as? Int == 4 && remote["hits"] as? Int == 0, "\(remote)")
        for path in ["a-16.png", "a-16@2x.png"] {
            let header = try PNGHeader(Data(contentsOf: folder.appendingPathComponent("second/\(path)")))
            #expect(header.width == (path.contains("@2x") ? 32 : 16), "\(path): \(header.width)")
        }
    }
}
