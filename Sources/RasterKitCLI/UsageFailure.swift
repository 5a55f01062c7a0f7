import ArgumentParser
import Foundation

/// How a command gives up before doing its work: `rasterkit <command>: <message>` on stderr,
/// `{"error": …}` on stdout with `--json`, and exit status 2.
enum UsageFailure {
    static func exit(command: String, _ message: String, json: Bool) -> Never {
        FileHandle.standardError.write(Data("rasterkit \(command): \(message)\n".utf8))
        if json { print(BatchSummaryPrinter.encodeError(message)) }
        RasterKitCommand.exit(withError: ExitStatus.usage)
    }
}
