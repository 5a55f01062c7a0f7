import ArgumentParser
import Foundation
import RasterKitArguments

/// How a command gives up before doing its work: `rasterkit <command>: <message>` on stderr,
/// `{"error": …}` on stdout with `--json`, and exit status 2.
enum UsageFailure {
    static func exit(command: String, _ message: String, json: Bool) -> Never {
        exit(lines: ["rasterkit \(command): \(message)"], json: json ? JSONLine.encode(["error": message]) : nil)
    }

    /// Prints `lines` on stderr and `json`, when given, on stdout, and exits with 2.
    static func exit(lines: [String], json: String?) -> Never {
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        if let json { print(json) }
        RasterKitCommand.exit(withError: ExitStatus.usage)
    }
}
