import Foundation
import Testing

/// Runs the built `rasterkit` binary, for end-to-end tests of its commands.
enum CLI {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout parsed as one JSON object, as `--json` prints.
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout)")
        }
    }

    /// The `rasterkit` binary beside the running test executable (the build's products directory).
    static func binary() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("rasterkit") }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no rasterkit at \(candidates.map(\.path)); build the rasterkit product first")
    }

    /// Runs `rasterkit arguments…` to completion. Output is read on a background thread while
    /// the process runs, so a chatty command cannot fill a pipe and block.
    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Written by the reader before it leaves the group; read only after `wait()`, which
        // orders the two (and lets ThreadSanitizer see that it does).
        final class Box: @unchecked Sendable { var data = Data() }
        let errors = Box()
        let reading = DispatchGroup()
        reading.enter()
        Thread {
            errors.data = stderr.fileHandleForReading.readDataToEndOfFile()
            reading.leave()
        }.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        reading.wait()
        return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                   stderr: String(decoding: errors.data, as: UTF8.self))
    }
}
