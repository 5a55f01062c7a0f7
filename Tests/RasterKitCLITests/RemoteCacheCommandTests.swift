import Foundation
import RasterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--remote-cache` on `rasterkit svg`, end to end: two runs with their own stores sharing renders
/// through a real nginx on a loopback port, and a remote that is down.
@Suite struct RemoteCacheCommandTests {
    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts nginx with WebDAV on a free loopback port, serving `folder/store`; with
    /// `accessLog`, each request's method and path go to `folder/access.log`.
    static func startNginx(in folder: URL, accessLog: Bool = false, failingPuts: Bool = false) throws -> (ChildProcess, Int) {
        let port = try freePort()
        let root = folder.path
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("store"), withIntermediateDirectories: true)
        try """
            daemon off; master_process off; worker_processes 1; pid \(root)/nginx.pid; error_log \(root)/error.log warn;
            events { worker_connections 256; }
            http { \(accessLog ? "log_format requests '$request_method $uri'; access_log \(root)/access.log requests;" : "access_log off;")
              client_body_temp_path \(root)/tmp; proxy_temp_path \(root)/tmp; fastcgi_temp_path \(root)/tmp;
              uwsgi_temp_path \(root)/tmp; scgi_temp_path \(root)/tmp;
              server { listen 127.0.0.1:\(port); location / { root \(root)/store; dav_methods PUT; create_full_put_path on;
                \(failingPuts ? "if ($request_method = PUT) { return 500; }" : "") } } }
            """.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = try ChildProcess("/usr/sbin/nginx", ["-c", "\(root)/nginx.conf", "-p", root, "-e", "\(root)/error.log"],
                                       output: .null, error: .null)
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: "\(root)/nginx.pid"), Date() < deadline { usleep(10_000) }
        usleep(50_000)
        return (process, port)
    }

    private func svg(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> CLI.Run {
        try CLI.run(["svg", "icons", "--size", "16", "--scale", "1", "--scale", "2"] + arguments, in: folder,
                    environment: SVGCommandTests.environment(for: folder).merging(environment) { $1 })
    }

    @Test func twoRunsWithTheirOwnStoresShareRendersThroughNginx() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed: make deps")
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (nginx, port) = try Self.startNginx(in: folder)
        defer { nginx.send(SIGKILL); nginx.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/renders"

        let first = try svg(["--out", "first", "--cache", "first.sqlite", "--remote-cache", url, "--json"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let firstRemote = try #require(try first.json()["remote"] as? [String: Any])
        #expect(firstRemote["uploads"] as? Int == 4 && firstRemote["misses"] as? Int == 4)

        // Another machine: its own empty store, the URL from the environment.
        let second = try svg(["--out", "second", "--cache", "second.sqlite", "--json"], in: folder,
                             environment: ["RASTERKIT_REMOTE_CACHE": url])
        #expect(second.status == 0, "\(second.stderr)")
        let json = try second.json()
        #expect(json["drawn"] as? Int == 0 && json["cached"] as? Int == 4)
        let secondRemote = try #require(json["remote"] as? [String: Any])
        #expect(secondRemote["hits"] as? Int == 4 && secondRemote["errors"] as? Int == 0)
        for name in ["a", "sub/b"] {
            for suffix in ["", "@2x"] {
                let path = "\(name)-16\(suffix).png"
                let a = try Data(contentsOf: folder.appendingPathComponent("first/\(path)"))
                #expect(try Data(contentsOf: folder.appendingPathComponent("second/\(path)")) == a, "\(path)")
            }
        }
    }

    /// `render` with a remote: another machine with an empty store draws nothing, asks for each
    /// render once (the batch fetches ahead, many at once, and its lookups take those answers
    /// instead of asking again), and `--json` reports the remote's counts.
    @Test func aManifestRenderedOnAnotherMachineAsksForEachRenderOnce() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed: make deps")
        // 25 states × 2 scales: more renders than one prefetch window (32).
        let states = (0..<25).map { "      s\($0): {fill: \"#\(String(format: "%06X", $0 * 0x0A0B0C))\"}" }.joined(separator: "\n")
        let workspace = try RenderCommandTests.Workspace(manifest: """
            components:
              swatch:
                sizes: ["20x12"]
                scales: [1, 2]
                states:
            \(states)
                layers: [roundedRect: {radius: 3, fill: "$fill"}]
            """)
        defer { workspace.remove() }
        let (nginx, port) = try Self.startNginx(in: workspace.folder, accessLog: true)
        defer { nginx.send(SIGKILL); nginx.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/renders"
        // No pack of the whole run: each render is asked for on its own.
        workspace.makeManifestTooFreshToRecord()

        let first = try workspace.render(["--cache", workspace.path("first.sqlite"), "--remote-cache", url, "--json"], out: "first")
        #expect(first.status == 0, "\(first.stderr)")
        let firstRemote = try #require(try first.json()["remote"] as? [String: Any], "render --json reports the remote")
        #expect(firstRemote["uploads"] as? Int == 50 && firstRemote["hits"] as? Int == 0)
        let log = workspace.folder.appendingPathComponent("access.log")
        try Data().write(to: log)

        let second = try workspace.render(["--cache", workspace.path("second.sqlite"), "--remote-cache", url, "--json"], out: "second")
        #expect(second.status == 0, "\(second.stderr)")
        let json = try second.json()
        #expect(json["drawn"] as? Int == 0 && json["cached"] as? Int == 50)
        let remote = try #require(json["remote"] as? [String: Any])
        #expect(remote["hits"] as? Int == 50 && remote["errors"] as? Int == 0 && remote["uploads"] as? Int == 0)
        #expect(workspace.files("second") == workspace.files("first"))
        for path in workspace.files("first") {
            #expect(try Data(contentsOf: workspace.folder.appendingPathComponent("second/\(path)"))
                    == Data(contentsOf: workspace.folder.appendingPathComponent("first/\(path)")), "\(path)")
        }
        // nginx writes its log line when each response is done; it is done before the run exits.
        let requests = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        // One more: the pack of the whole run, asked for first, which the first run did not leave
        // (its manifest too fresh to be recorded).
        #expect(requests.count == 51, "each render asked for once: \(requests.count) requests: \(requests.prefix(60))")
        #expect(remote["misses"] as? Int == 1)
        #expect(Set(requests).count == requests.count)
        #expect(requests.allSatisfy { $0.hasPrefix("GET /renders/") })
    }

    @Test func aRemoteThatIsDownCostsNoOutput() throws {
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = "http://127.0.0.1:\(try Self.freePort())/renders"
        let run = try svg(["--out", "out", "--cache", "store.sqlite", "--remote-cache", url, "--json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["drawn"] as? Int == 4 && json["failed"] as? Int == 0)
        let remote = try #require(json["remote"] as? [String: Any])
        #expect((remote["errors"] as? Int ?? 0) >= 1 && remote["hits"] as? Int == 0)

        let text = try svg(["--out", "out2", "--no-cache", "--remote-cache", url], in: folder)
        #expect(text.status != 0 && text.stderr.contains("--remote-cache and --no-cache"))
        let bad = try svg(["--out", "out3", "--remote-cache", "ftp://example.invalid/x"], in: folder)
        #expect(bad.status != 0 && bad.stderr.contains("http:// or https://"))
    }
}
