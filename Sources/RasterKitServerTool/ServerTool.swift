import ArgumentParser
import Foundation

/// `rasterkit-server`: the render server (`serve`, the default: `rasterkit-server kit.yaml` is
/// `rasterkit-server serve kit.yaml`, which `rasterkit serve` runs) and the review page of golden
/// failures (`review`, which `rasterkit report --serve` runs). The executables that link an HTTP
/// server are these, so that `rasterkit` links none.
@main
struct ServerTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rasterkit-server",
        abstract: "RasterKit over HTTP: the render server, and the review page of golden failures.",
        subcommands: [ServerCommand.self, ReviewCommand.self],
        defaultSubcommand: ServerCommand.self)

    /// Usage mistakes exit with 2, as with every `rasterkit` command (ArgumentParser's is 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if let server = command as? ServerCommand {
                try await server.run()
            } else if let review = command as? ReviewCommand {
                try await review.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }
}
