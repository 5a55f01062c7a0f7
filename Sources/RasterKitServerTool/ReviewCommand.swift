import ArgumentParser
import Foundation
import Logging
import RasterKitArguments
import RasterKitCommandOptions
import RasterKitServer

/// `rasterkit-server review ARTIFACTS --goldens DIR` (or `rasterkit report ARTIFACTS --serve`):
/// the review page of golden failures on the loopback interface, until SIGTERM or SIGINT.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Serve the golden failures of an artifacts folder as a page where each change is accepted or rejected.",
        discussion: """
            Accept writes the failure's actual image over its golden (inside --goldens only) and records the \
            render environment beside it, or for a golden kept in a lockfile, uploads it to the remote cache and \
            locks it; Reject keeps the golden. Either removes the failure from the folder. \
            Served on the loopback interface only; prints 'review on http://HOST:PORT' once it listens.
            """)

    @Argument(help: "The artifacts folder (where failed golden assertions leave their images).")
    var artifacts: String = ".build/rasterkit-artifacts"

    @Option(help: ArgumentHelp("The goldens folder: nothing is written outside it.", valueName: "dir"))
    var goldens: String = "Goldens"

    @Option(help: ArgumentHelp("The only lockfile locked goldens may be accepted into.", valueName: "file"))
    var lock: String?

    @OptionGroup var remote: RemoteOptions

    @Option(help: "The loopback address to listen on (127.0.0.1 or ::1).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    func validate() throws {
        try PathChecks.requireNonEmpty(artifacts, "the artifacts folder")
        try PathChecks.requireNonEmpty(goldens, "--goldens")
        if let lock { try PathChecks.requireNonEmpty(lock, "--lock") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: artifacts, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("the artifacts folder \(artifacts) is not a folder")
        }
    }

    func run() async throws {
        let review: GoldenReviewServer
        do {
            review = try GoldenReviewServer(artifacts: URL(fileURLWithPath: artifacts, isDirectory: true), goldens: goldens,
                                            lockfile: lock, remote: { [remote] in remote.goldenRemote(recorded: $0) },
                                            host: host, port: port)
        } catch {
            FileHandle.standardError.write(Data("rasterkit report: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        var logger = Logger(label: "rasterkit.review")
        logger.logLevel = .notice
        do {
            try await review.run(logger: logger) { address in
                FileHandle.standardOutput.write(Data("rasterkit report: review on http://\(address)/\n".utf8))
            }
        } catch let error as ServerSetupError {
            FileHandle.standardError.write(Data("rasterkit report: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }
}
