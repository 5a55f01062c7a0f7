import ArgumentParser
import Foundation

/// `rasterkit serve …`: runs `rasterkit-server`, installed beside `rasterkit`, with the same
/// arguments. The server is an executable of its own so that `rasterkit` — and every package
/// that builds it — links no HTTP server, event loop or TLS stack.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a manifest's components and a folder of SVG icons over HTTP (runs rasterkit-server).",
        discussion: """
            Runs the rasterkit-server executable found beside rasterkit with these arguments; \
            `rasterkit serve --help` lists them. Build it with: \
            swift build -c release --product rasterkit-server
            """)

    @Argument(parsing: .captureForPassthrough, help: "The server's arguments (see `rasterkit serve --help`).")
    var arguments: [String] = []

    func run() throws {
        ServerExecutable.run(["serve"] + arguments)
    }
}

/// The `rasterkit-server` executable beside this one, and running it in this process's place.
enum ServerExecutable {
    static let name = "rasterkit-server"

    /// The server's path: beside the running `rasterkit` (symbolic links followed, so a link to
    /// `rasterkit` in a `bin` folder still finds the server beside the real file).
    static var path: String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Replaces this process with the server, given `arguments`; when it cannot, says why and
    /// how to build it, and exits with status 2.
    static func run(_ arguments: [String], command: String = "serve") -> Never {
        let path = path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            fail("""
                rasterkit \(command): the server is its own executable, \(name), and there is none beside rasterkit (\(path)).
                Build it and put it there:
                  swift build -c release --product \(name)
                  cp "$(swift build -c release --show-bin-path)/\(name)" \(URL(fileURLWithPath: path).deletingLastPathComponent().path)/
                """)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        fail("rasterkit \(command): cannot run \(path): \(String(cString: strerror(errno)))")
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
