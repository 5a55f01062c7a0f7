import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitCommandOptions
import RasterKitDiff

extension GoldensCommand {
    /// `rasterkit goldens accept [NAME-GLOB…]`: copies the actual images of the last run's failed
    /// or missing goldens over their goldens, after a reviewer has looked at them.
    struct Accept: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept",
            abstract: "Accept the actual images of failed or missing goldens as their new goldens.",
            discussion: "Reads the failures golden assertions left in the artifacts folder (as `rasterkit report` "
                + "does) and, for each whose name matches a glob (every one without globs), writes its actual "
                + "image over its golden, records the render environment beside it, and removes the failure's "
                + "artifacts. Only mismatched, missing and unreadable goldens are accepted, never a render that differed "
                + "from itself, and only into the goldens folder. A golden kept in a lockfile (`goldens check --lock`) is "
                + "uploaded to the remote cache (--remote-cache, else the one the check used, else "
                + "$RASTERKIT_REMOTE_CACHE) and locked in its lockfile (which must exist, or be named with --lock). Exits 0 when every matching failure was accepted, 1 "
                + "when some could not be or none matched, 2 for usage errors.")

        @Argument(help: ArgumentHelp("Golden names or globs, such as 'BadgeTests/*' (as `rasterkit report` lists them).",
                                     valueName: "name-glob"))
        var names: [String] = []

        @Option(name: .long, help: ArgumentHelp("The failure artifacts of the last run.", valueName: "dir"))
        var artifacts: String?

        @Option(name: .customLong("goldens"),
                help: ArgumentHelp("The goldens folder: nothing is written outside it (default: Goldens).", valueName: "dir"))
        var goldensOption: String?

        var goldens: String { goldensOption ?? "Goldens" }

        @Option(name: .long, help: ArgumentHelp("The only lockfile locked goldens may be accepted into (created if missing).",
                                                valueName: "file"))
        var lock: String?

        @OptionGroup var remote: RemoteOptions

        @Flag(name: .long, help: "Say what would be accepted, and write nothing.")
        var dryRun = false

        var artifactsPath: String {
            artifacts ?? ProcessInfo.processInfo.environment["RASTERKIT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
                ?? ".build/rasterkit-artifacts"
        }

        func validate() throws {
            if let artifacts { try PathChecks.requireNonEmpty(artifacts, "--artifacts") }
            try PathChecks.requireNonEmpty(goldens, "--goldens")
            for name in names where name.isEmpty || name.contains("\0") {
                throw ValidationError("a golden name or glob must be non-empty text, not \(name.debugDescription)")
            }
            if let lock { try PathChecks.requireNonEmpty(lock, "--lock") }
            var isDirectory: ObjCBool = false
            // Named, the goldens folder must exist; by default it is needed only by goldens kept as files.
            if let goldensOption, !FileManager.default.fileExists(atPath: goldensOption, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw ValidationError("--goldens \(goldensOption) is not a folder")
            }
            guard FileManager.default.fileExists(atPath: artifactsPath, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--artifacts \(artifactsPath) is not a folder (no failure is recorded there)")
            }
        }

        func run() throws {
            let report = try GoldenReport(artifactsDirectory: URL(fileURLWithPath: artifactsPath, isDirectory: true))
            let matching = report.failures.filter { failure in
                names.isEmpty || names.contains { $0 == failure.identifier || fnmatch($0, failure.identifier, 0) == 0 }
            }
            guard !matching.isEmpty else {
                let listed = report.failures.map(\.identifier).sorted().joined(separator: ", ")
                FileHandle.standardError.write(Data(("rasterkit goldens accept: no failure in \(artifactsPath) matches "
                    + (names.isEmpty ? "" : names.joined(separator: " ")) + (listed.isEmpty ? "" : " (failures: \(listed))") + "\n").utf8))
                throw ExitStatus.partialFailure
            }
            let root = goldens
            var refused = 0
            for failure in matching.sorted(by: { $0.identifier < $1.identifier }) {
                do {
                    let golden = try GoldenAcceptance.accept(failure, goldensRoot: root, lockfile: lock,
                                                             remote: remote.goldenRemote(recorded:), dryRun: dryRun)
                    print((dryRun ? "would accept " : "accepted ") + "\(failure.identifier) → \(golden)")
                } catch {
                    refused += 1
                    FileHandle.standardError.write(Data("rasterkit goldens accept: \(failure.identifier): \(error.reason)\n".utf8))
                }
            }
            if refused > 0 { throw ExitStatus.partialFailure }
        }
    }
}
