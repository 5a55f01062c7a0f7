import Foundation

/// Runs the built `rasterkit` binary, for end-to-end tests of its commands.
package enum CLI {
    /// A finished run: its exit status and everything it printed.
    package struct Run {
        package var status: Int32
        package var stdout: String
        package var stderr: String

        /// stdout parsed as one JSON object, as `--json` prints.
        package func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let dictionary = object as? [String: Any] else { throw Failure("stdout is not a JSON object: \(stdout)") }
            return dictionary
        }
    }

    /// The `rasterkit` binary (or the product `name`) beside the running test executable (the
    /// build's products directory).
    package static func binary(named name: String = "rasterkit") throws -> URL {
        let candidates = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ].map { $0.appendingPathComponent(name) }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let found else { throw Failure("no \(name) at \(candidates.map(\.path)); build the \(name) product first") }
        return found
    }

    /// Runs `rasterkit arguments…` (or the built product `tool`) to completion. Output is read on
    /// a background thread while the process runs, so a chatty command cannot fill a pipe and block.
    package static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                            tool: String = "rasterkit") throws -> Run {
        try run(executable: try binary(named: tool), arguments, in: folder, environment: environment)
    }

    /// Runs any `executable` with `arguments` to completion, as ``run(_:in:environment:tool:)``
    /// runs a product (see ``ChildProcess``: at most five minutes, then it is killed).
    package static func run(executable: URL, _ arguments: [String], in folder: URL? = nil,
                            environment: [String: String]? = nil) throws -> Run {
        let (termination, out, errors) = try ChildProcess.run(executable.path, arguments, environment: environment ?? [:],
                                                              in: folder?.path)
        // A signal is reported as a shell does, 128 + its number, so no test mistakes it for an exit.
        let status = termination.reason == .exit ? termination.status : 128 + termination.status
        return Run(status: status, stdout: String(decoding: out, as: UTF8.self),
                   stderr: String(decoding: errors, as: UTF8.self))
    }

    /// Why a run could not be made or read.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
