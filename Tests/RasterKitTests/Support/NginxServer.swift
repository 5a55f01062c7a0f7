import Foundation
import RasterKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx with WebDAV on a loopback port, started as a foreground process from a
/// temporary folder and stopped by the test: `/rw/` stores `PUT` bodies under `store/`, and
/// `/ro/` serves the same files but answers `403` to anything but `GET` and `HEAD`, and `/auth/`
/// is `/rw/` for requests with `Authorization: Bearer <authorizationToken>` only (401 otherwise).
/// With `https`, the same locations are also served over TLS on ``httpsPort``, with a
/// certificate made for the test and signed by no authority the system trusts.
/// Debian's nginx, which `make deps` installs.
final class NginxServer: Sendable {
    let directory: URL
    let port: Int
    /// The TLS port, when started with `https`.
    let httpsPort: Int?
    private let process: ChildProcess
    static let authorizationToken = "rasterkit-test-token"


    static var executable: String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    init(_ name: String = #function, https: Bool = false) throws {
        guard let executable = Self.executable else { throw SetupError("nginx is not installed: run `make deps`") }
        directory = try TestSupport.temporaryDirectory("nginx-" + name)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("store"), withIntermediateDirectories: true)
        port = try Self.freePort()
        let root = directory.path
        var tls = ""
        if https {
            let tlsPort = try Self.freePort()
            try Self.makeCertificate(in: directory)
            tls = "listen 127.0.0.1:\(tlsPort) ssl; ssl_certificate \(root)/cert.pem; ssl_certificate_key \(root)/key.pem;"
            httpsPort = tlsPort
        } else {
            httpsPort = nil
        }
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 512; }
            http {
              access_log off;
              client_body_temp_path \(root)/tmp; proxy_temp_path \(root)/tmp; fastcgi_temp_path \(root)/tmp;
              uwsgi_temp_path \(root)/tmp; scgi_temp_path \(root)/tmp;
              client_max_body_size 64m;
              server {
                listen 127.0.0.1:\(port);
                \(tls)
                location /rw/ { alias \(root)/store/; dav_methods PUT DELETE; create_full_put_path on; }
                location /auth/ {
                  if ($http_authorization != "Bearer \(Self.authorizationToken)") { return 401; }
                  alias \(root)/store/; dav_methods PUT DELETE; create_full_put_path on;
                }
                location /ro/ { alias \(root)/store/; limit_except GET HEAD { deny all; } }
              }
            }
            """
        try configuration.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process = try ChildProcess(executable, ["-c", "\(root)/nginx.conf", "-p", root, "-e", "\(root)/error.log"],
                                   output: .null, error: .null)
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port: port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw SetupError("nginx did not start on port \(port): \(log)")
            }
            usleep(10_000)
        }
    }

    /// The writable store that asks for ``authorizationToken``.
    var authorized: URL { URL(string: "http://127.0.0.1:\(port)/auth")! }
    /// The writable store over TLS (nil unless started with `https`).
    var secure: URL? { httpsPort.map { URL(string: "https://127.0.0.1:\($0)/rw")! } }

    /// A self-signed certificate and its key, made with openssl for this server alone.
    private static func makeCertificate(in directory: URL) throws {
        let openssl = try ChildProcess("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-keyout", directory.appendingPathComponent("key.pem").path, "-out", directory.appendingPathComponent("cert.pem").path,
        ], output: .null, error: .null)
        guard openssl.waitUntilExit() == .success else { throw SetupError("openssl could not make a certificate") }
    }

    /// The writable store's URL.
    var writable: URL { URL(string: "http://127.0.0.1:\(port)/rw")! }
    /// The same objects, read-only (`PUT` answers `403`).
    var readOnly: URL { URL(string: "http://127.0.0.1:\(port)/ro")! }
    /// The folder nginx stores objects in.
    var store: URL { directory.appendingPathComponent("store") }

    /// Stops the server (the port then refuses connections) and waits for it to exit.
    func stop() {
        // SIGKILL: nginx in single-process mode may inherit a mask that blocks SIGTERM.
        process.send(SIGKILL)
        process.waitUntilExit()
    }

    /// Stops the server and removes its folder.
    func remove() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        return port
    }

    static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { Glibc.close(socket) }
        var address = SilentListener.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A loopback socket that listens and never accepts nor answers: connections complete (the
/// kernel's backlog takes them) and then nothing is ever said.
final class SilentListener: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw NginxServer.SetupError("socket failed") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(socket, 128) == 0 else {
            Glibc.close(socket)
            throw NginxServer.SetupError("bind or listen failed")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = Int(UInt16(bigEndian: actual.sin_port))
        self.socket = socket
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/rw")! }

    func close() { Glibc.close(socket) }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
