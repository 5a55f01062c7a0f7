import ArgumentParser
import Foundation

/// The exit statuses every RasterKit command shares: 0 success, 1 some work failed (or images
/// differ), 2 usage mistakes and unreadable input.
package enum ExitStatus {
    /// Some outputs failed; the others were written.
    package static let partialFailure = ExitCode(1)
    /// A usage mistake or an input that cannot be used.
    package static let usage = ExitCode(2)

    /// `error` as `command` exits with it: ArgumentParser's usage exit code (64) becomes 2, its
    /// message printed on stderr first.
    package static func normalize<Command: ParsableCommand>(_ error: any Error, for command: Command.Type) -> any Error {
        if let code = error as? ExitCode { return code }
        let code = command.exitCode(for: error)
        guard code == .validationFailure else { return error }
        let message = command.fullMessage(for: error)
        if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        return usage
    }
}
