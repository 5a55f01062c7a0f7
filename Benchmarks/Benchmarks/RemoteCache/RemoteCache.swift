// Issue 22: a shared remote cache. The showcase into a new folder with an empty local store,
// against a cold run (new folder, new store, no remote), in the same process:
// - with a warm remote (nginx with WebDAV on a loopback port, filled by one run first): ≥ 5×
//   faster than cold, nothing drawn;
// - with the remote down (a closed port): within 1.2× of a run with no remote configured,
//   measured just before it;
// - with a listener that accepts connections and never answers: one timeout per run.
// nginx (Debian's, which `make deps` installs) is started from a scratch folder and stopped
// when the benchmark process exits; nothing but 127.0.0.1 is contacted.
import Benchmark
import BenchmarkSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let rasterkit = rasterkitBinary
let showcase = FileManager.default.currentDirectoryPath + "/../Examples/showcase.yaml"
let nginx = "/usr/sbin/nginx"

/// A loopback port nothing listens on now (bound, read, closed).
func freePort() -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { Glibc.close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// nginx with WebDAV on a free loopback port, in its own scratch folder; killed at exit.
let server: (url: String, pid: pid_t)? = {
    guard FileManager.default.isExecutableFile(atPath: nginx) else { return nil }
    let root = scratchFolder("nginx")
    let port = freePort()
    let configuration = """
        daemon off; master_process off; worker_processes 1; pid \(root)/nginx.pid; error_log \(root)/error.log warn;
        events { worker_connections 512; }
        http { access_log off; client_body_temp_path \(root)/tmp; proxy_temp_path \(root)/tmp; fastcgi_temp_path \(root)/tmp;
          uwsgi_temp_path \(root)/tmp; scgi_temp_path \(root)/tmp; client_max_body_size 64m;
          server { listen 127.0.0.1:\(port); location / { root \(root)/store; dav_methods PUT; create_full_put_path on; } } }
        """
    try? FileManager.default.createDirectory(atPath: root + "/store", withIntermediateDirectories: true)
    guard (try? configuration.write(toFile: root + "/nginx.conf", atomically: true, encoding: .utf8)) != nil else { return nil }
    var pid = pid_t()
    let arguments: [String] = [nginx, "-c", root + "/nginx.conf", "-p", root, "-e", root + "/error.log"]
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&pid, nginx, nil, nil, argv, environ) == 0 else { return nil }
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: root + "/nginx.pid") { usleep(10_000) }
    usleep(50_000)
    nginxPID = pid
    atexit { if nginxPID > 0 { kill(nginxPID, SIGKILL) } }
    return ("http://127.0.0.1:\(port)/renders", pid)
}()
nonisolated(unsafe) var nginxPID: pid_t = 0

/// A socket that accepts connections (the kernel's backlog) and never answers.
let silentURL: String = {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    Glibc.listen(socket, 1024)
    return "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/renders"
}()

func showcaseRun(out: String, store: String, remote: String?) -> [String] {
    ["render", showcase, "--out", out, "--jobs", "2", "--cache", store] + (remote.map { ["--remote-cache", $0] } ?? [])
}

let benchmarks: @Sendable () -> Void = {
    guard FileManager.default.isExecutableFile(atPath: rasterkit), FileManager.default.fileExists(atPath: showcase) else { return }
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 20)

    /// One measured run per iteration into a new folder with a new, empty local store.
    func register(_ name: String, inMemory: Bool = false, remote: @escaping @Sendable () -> String?,
                  prepare: @escaping @Sendable () throws -> Void = {}) {
        Benchmark(name, configuration: timing) { benchmark in
            try prepare()
            for _ in benchmark.scaledIterations {
                let scratch = scratchFolder("remote", inMemory: inMemory)
                sync()
                benchmark.startMeasurement()
                try runCommand(rasterkit, showcaseRun(out: scratch + "/out", store: scratch + "/cache.sqlite", remote: remote()))
                benchmark.stopMeasurement()
            }
        }
    }

    register("remote showcase: cold (new folder, new store, no remote)", remote: { nil })
    if let server {
        register("remote showcase: new folder, empty store, warm remote", remote: { server.url }) {
            let scratch = scratchFolder("remote-fill")
            try runCommand(rasterkit, showcaseRun(out: scratch + "/out", store: scratch + "/cache.sqlite", remote: server.url))
        }
    }
    // The same on a memory file system, where creating the 528 files costs no disk (on this
    // kind of virtual machine, file creation alone can take a third of the cold run).
    register("remote showcase in memory: cold (new folder, new store, no remote)", inMemory: true, remote: { nil })
    if let server {
        register("remote showcase in memory: new folder, empty store, warm remote", inMemory: true, remote: { server.url }) {
            let scratch = scratchFolder("remote-fill", inMemory: true)
            try runCommand(rasterkit, showcaseRun(out: scratch + "/out", store: scratch + "/cache.sqlite", remote: server.url))
        }
    }
    // The run the remote-down figure is a ratio to, measured right before it: the disk runs
    // above leave hundreds of megabytes for the file system to write back and age, and a
    // baseline taken first, on an idle disk, made the same program look 20 % slower later on.
    register("remote showcase: new folder, empty store, no remote (baseline beside remote down)", remote: { nil })
    register("remote showcase: new folder, empty store, remote down (closed port)", remote: { "http://127.0.0.1:\(freePort())/renders" })
    register("remote showcase: new folder, empty store, remote never answers (1 s timeout)", remote: { silentURL })
    // The same pair on a memory file system, where the disk's write-back of the runs before
    // cannot make the second run of the pair slower than the first: the difference is the wait.
    register("remote showcase in memory: new folder, empty store, no remote (baseline beside never answers)", inMemory: true,
             remote: { nil })
    register("remote showcase in memory: new folder, empty store, remote never answers (1 s timeout)", inMemory: true,
             remote: { silentURL })
}
