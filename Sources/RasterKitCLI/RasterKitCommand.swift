import ArgumentParser
import CSQLite
import Foundation
import RasterKitArguments

/// `rasterkit`: render manifests and SVG folders, compare images, manage the render cache.
@main
struct RasterKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rasterkit",
        abstract: "Render UI assets with cairo, compare images, and manage RasterKit's render cache.",
        version: "0.1.0",
        subcommands: [DiffCommand.self, SVGCommand.self, CacheCommand.self, ReportCommand.self, GoldensCommand.self, RenderCommand.self, ServeCommand.self])

    /// Usage mistakes exit with 2 (ArgumentParser's default is 64), as the CLI documents.
    static func main() async {
        // Before any store is opened: the command runs nothing else that uses SQLite's memory
        // statistics, and a batch's workers would queue on the mutex that keeps them.
        _ = rk_sqlite_disable_memory_statistics()
        // Every argument after `serve` is the server's, `--help` included.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "serve" { ServerExecutable.run(["serve"] + arguments.dropFirst()) }
        do {
            var command = try parseAsRoot(arguments)
            // Casts to the asynchronous commands, not to `any AsyncParsableCommand`: an
            // existential cast scans every protocol conformance in the binary on first use.
            if let diff = command as? DiffCommand {
                try await diff.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: ExitStatus.normalize(error, for: Self.self))
        }
    }
}
