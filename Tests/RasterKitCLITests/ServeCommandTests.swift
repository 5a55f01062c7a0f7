import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RasterKitTestSupport
import Testing

/// `rasterkit serve` as a user runs it: the built binary on an ephemeral loopback port.
@Suite("rasterkit serve") struct ServeCommandTests {
    @Test func servesPrintsItsAddressAndStopsOnSIGTERM() async throws {
        let folder = TestScratch.path("rasterkit-serve-cli")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("kit.yaml")
        try """
            components:
              dot:
                sizes: ["10x10"]
                layers:
                  - ellipse: {fill: "#D93B3B"}
            """.write(to: manifest, atomically: true, encoding: .utf8)
        let process = try ChildProcess(try CLI.binary().path, ["serve", manifest.path, "--port", "0", "--no-cache"], error: .null)
        defer { process.send(SIGKILL); process.waitUntilExit() }
        let address = try Self.address(printedBy: process)
        let (body, response) = try await URLSession.shared.data(from: URL(string: address + "/components/dot/default.png?scale=2")!)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "X-RasterKit-Origin") == "drawn")
        #expect(body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        process.send(SIGTERM)
        #expect(process.waitUntilExit() == .success)
    }

    /// The `http://127.0.0.1:PORT` a server prints on its first line once it listens.
    static func address(printedBy process: ChildProcess) throws -> String {
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = process.standardOutput!.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        return try #require(text.firstRange(of: /http:\/\/127\.0\.0\.1:\d+/).map { String(text[$0]) }, "\(text)")
    }

    /// `rasterkit report --serve`: the review page, served by `rasterkit-server review`.
    @Test func reportServeServesTheReviewPage() async throws {
        let project = try GoldensAcceptCommandTests.Project()
        try project.fail("BadgeTests/unread@2x")
        let process = try ChildProcess(try CLI.binary().path, ["report", project.artifacts.path, "--serve", "--goldens", project.goldens.path],
                                       error: .null)
        defer { process.send(SIGKILL); process.waitUntilExit() }
        let address = try Self.address(printedBy: process)
        let (body, response) = try await URLSession.shared.data(from: URL(string: address + "/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("data-golden=\"BadgeTests/unread@2x\"><button class=\"accept\""))
        process.send(SIGTERM)
        #expect(process.waitUntilExit() == .success)
        let wrongHost = try CLI.run(["report", project.artifacts.path, "--serve", "--junit", "x.xml"])
        #expect(wrongHost.status == 2)
    }

    @Test func usageMistakesExitWith2() throws {
        let nothing = try CLI.run(["serve"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("give a manifest"))
        let unsetKey = try CLI.run(["serve", "--icons", "/tmp", "--signing-key-env", "RASTERKIT_TEST_UNSET_KEY_\(UUID().uuidString.prefix(8))"])
        #expect(unsetKey.status == 2)
        #expect(unsetKey.stderr.contains("not set"))
        let badPort = try CLI.run(["serve", "--icons", "/tmp", "--port", "70000"])
        #expect(badPort.status == 2)
        let missing = try CLI.run(["serve", "/nonexistent/kit.yaml", "--port", "0"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read the manifest"))
    }

    /// `rasterkit serve` runs `rasterkit-server` in its place: the server's own help answers, and
    /// a `rasterkit` with no server beside it says how to build one.
    @Test func serveRunsTheServerBesideItOrSaysHowToBuildIt() throws {
        let help = try CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--max-connections") && help.stdout.contains("--remote-cache"), "\(help.stdout)")
        let alone = TestScratch.path("rasterkit-alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let copy = alone.appendingPathComponent("rasterkit")
        try FileManager.default.copyItem(at: try CLI.binary(), to: copy)
        let missing = try CLI.run(executable: copy, ["serve", "--icons", "/tmp", "--port", "0"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("rasterkit-server") && missing.stderr.contains("swift build -c release --product rasterkit-server"),
                "\(missing.stderr)")
        let others = try CLI.run(executable: copy, ["--help"])
        #expect(others.status == 0 && others.stdout.contains("serve"))
    }
}
