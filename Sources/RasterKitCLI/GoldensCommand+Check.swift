import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitBatch
import RasterKitCommandOptions
import RasterKitDiff

extension GoldensCommand {
    /// `rasterkit goldens check MANIFEST --goldens DIR`: every PNG the manifest renders, compared
    /// with its golden under assertGolden's rules, for design systems tested without Swift.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Compare every PNG a manifest renders with its golden, as golden tests do.",
            discussion: "Each component × state × size × scale × appearance (and each svgs: entry) is rendered as "
                + "`rasterkit render --format png` would write it and compared with <goldens>/<its path> under the "
                + "rules of assertGolden: pixelmatch's threshold 0.1, anti-aliasing excused only where its colour "
                + "is a blend of its neighbours', no different pixel by default. A failure leaves expected.png, "
                + "actual.png, diff.png and result.json in the artifacts folder, for `rasterkit report` and "
                + "`rasterkit goldens accept`. Goldens are recorded as --record (or RASTERKIT_RECORD) says: missing "
                + "by default on a developer machine, never when CI is set; whatever is recorded is rendered twice more "
                + "and must come out the same, and a recording run fails so the goldens get reviewed. Exits 0 when "
                + "every golden matches, 1 when one differs, is missing or was recorded, 2 for usage errors and "
                + "manifest problems. With --lock, goldens are kept in a lockfile instead of a folder: see "
                + "`rasterkit goldens check --lock`'s help.")

        @Argument(help: "The manifest (YAML or JSON).")
        var manifest: String

        @Option(name: .customLong("goldens"), help: ArgumentHelp("The goldens folder (default: Goldens).", valueName: "dir"))
        var goldensOption: String?

        @Option(name: .long, help: ArgumentHelp("Keep the goldens in this lockfile instead of a folder: each golden's state key "
            + "and pixel digest, with the PNGs in the remote cache (--remote-cache) under their digests. A golden whose key "
            + "and render environment are unchanged is not drawn; one that changed is drawn and compared by digest, and its "
            + "PNG fetched only when the pixels differ. Recording and `goldens accept` lock and upload.", valueName: "file"))
        var lock: String?

        @OptionGroup var remote: RemoteOptions

        @Option(name: .long, help: ArgumentHelp("Check only the outputs whose path (without .png) matches; repeatable.",
                                                valueName: "glob"))
        var only: [String] = []

        @Option(name: .long, help: ArgumentHelp("When to write goldens: missing, failed, all, never or compare "
            + "(note differences without failing). Default: RASTERKIT_RECORD, else never when CI is set, else missing.",
                                                valueName: "mode"))
        var record: RecordMode?

        @Option(name: .long, help: ArgumentHelp("Where failures leave their images.", valueName: "dir"))
        var artifacts: String?

        @Option(name: .long, help: ArgumentHelp("Also write the HTML report of the failures here.", valueName: "file"))
        var report: String?

        @Option(name: .long, help: ArgumentHelp("Also write the failures as JUnit XML here.", valueName: "file"))
        var junit: String?

        @Option(name: .long, help: ArgumentHelp("Also append the failures as Markdown here ($GITHUB_STEP_SUMMARY).",
                                                valueName: "file"))
        var markdown: String?

        var environment: [String: String] { ProcessInfo.processInfo.environment }

        var goldens: String { goldensOption ?? "Goldens" }

        var artifactsPath: String {
            artifacts ?? environment["RASTERKIT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 } ?? ".build/rasterkit-artifacts"
        }

        func validate() throws {
            try PathChecks.requireNonEmpty(manifest, "the manifest")
            try PathChecks.requireNonEmpty(goldens, "--goldens")
            if let lock {
                guard goldensOption == nil else {
                    throw ValidationError("--lock keeps the goldens in a lockfile; give --goldens or --lock, not both")
                }
                try PathChecks.requireNonEmpty(lock, "--lock")
                guard !PathChecks.isInside(lock, artifactsPath) else {
                    throw ValidationError("--lock \(lock) is inside the artifacts folder, which each run empties; keep it beside the manifest")
                }
            }
            if let artifacts { try PathChecks.requireNonEmpty(artifacts, "--artifacts") }
            for glob in only where glob.isEmpty || glob.contains("\0") {
                throw ValidationError("--only needs a glob, not \(glob.debugDescription)")
            }
            if let record, RecordMode.isCI(environment), record != .never, record != .compare {
                throw ValidationError("--record \(record.rawValue): CI is set, and CI never records goldens; record them on a "
                    + "developer machine, look at them and commit them")
            }
            for (path, flag) in [(report, "--report"), (junit, "--junit"), (markdown, "--markdown")] {
                guard let path else { continue }
                try PathChecks.requireNonEmpty(path, flag)
                guard !PathChecks.isInside(path, artifactsPath), !PathChecks.isInside(path, goldens) else {
                    throw ValidationError("\(flag) \(path) is inside the artifacts or goldens folder; write it elsewhere")
                }
                try PathChecks.requireReplaceable(path, flag)
            }
        }

        func run() throws {
            let (mode, modeSource) = try modeAndSource()
            let loaded: Manifest, plan: BatchPlan
            do {
                loaded = try Manifest(contentsOf: URL(fileURLWithPath: manifest))
                plan = try loaded.plan(format: .png)
            } catch {
                let lines = error.problems.map(\.description)
                    + ["rasterkit goldens check: \(error.problems.count) problem(s) in the manifest; nothing was checked"]
                UsageFailure.exit(lines: lines, json: nil)
            }
            let outputs = plan.outputs.filter { output in
                only.isEmpty || only.contains { fnmatch($0, Self.identifier(of: output), 0) == 0 }
            }
            guard !outputs.isEmpty else {
                UsageFailure.exit(command: "goldens check", only.isEmpty ? "\(manifest) renders no PNG to check"
                    : "no output of \(manifest) matches --only \(only.joined(separator: " "))", json: false)
            }
            let goldensRoot = URL(fileURLWithPath: goldens, isDirectory: true).standardizedFileURL
            let artifactsRoot = URL(fileURLWithPath: artifactsPath, isDirectory: true)
            let limits = loaded.limits
            let rasterizer = Rasterizer(cache: RasterCache(respondsToMemoryPressure: false), limits: limits)
            let lockRun = try makeLockRun(mode: mode)
            let command = "rasterkit goldens check \(Self.quoted(manifest)) "
                + (lock.map { "--lock \(Self.quoted($0))" } ?? "--goldens \(Self.quoted(goldens))")
            let settings = Dictionary(loaded.components.map { ($0.name, $0.golden) }, uniquingKeysWith: { first, _ in first })
            var failed = 0, passed = 0
            for output in outputs {
                let identifier = Self.identifier(of: output)
                // A component's outputs have the source "<component>/<state>"; an SVG's, its file.
                let golden = settings[String(output.source.prefix { $0 != "/" })] ?? nil
                let artifactsDirectory = artifactsRoot.appendingPathComponent(
                    "goldens." + identifier.replacingOccurrences(of: "/", with: "."), isDirectory: true)
                let key = lockRun == nil ? nil : try? output.fingerprint?()
                if let lockRun, lockRun.isUnchanged(identifier, key: key) {
                    // Passed without drawing; its artifacts of an earlier run go, as a drawn pass's do.
                    try? FileManager.default.removeItem(at: artifactsDirectory)
                    passed += 1
                    continue
                }
                let storage: any GoldenStorage = lockRun?.golden(identifier, key: key)
                    ?? GoldenFile(url: goldensRoot.appendingPathComponent(output.path), goldensDirectory: goldensRoot)
                var check = GoldenCheck(
                    identifier: identifier, golden: storage, artifactsDirectory: artifactsDirectory,
                    mode: mode, modeSource: modeSource,
                    tolerance: ResolvedTolerance(argument: golden.map(Self.tolerance), environment: environment,
                                                 argumentSource: "golden: in the manifest"),
                    ignored: IgnoredRegions.none, subject: "check",
                    recordCommand: { "\(command) --record \($0.rawValue) --only \(Self.quoted(identifier))" })
                do {
                    let image = try Self.written(output, by: rasterizer)
                    if let lockRun, lockRun.hasLockedPixels(identifier, key: key, image) {
                        try? FileManager.default.removeItem(at: artifactsDirectory)
                        passed += 1
                        continue
                    }
                    if let masks = golden?.ignore, !masks.isEmpty {
                        check.ignored = try IgnoredRegions(masks, scale: image.scale, imageSize: image.size)
                    }
                    let outcome = try check.run(image) {
                        try Self.written(output, by: Rasterizer(cache: RasterCache(respondsToMemoryPressure: false), limits: limits))
                    }
                    switch outcome {
                    case .passed:
                        passed += 1
                    case .failed(let message, _):
                        failed += 1
                        FileHandle.standardError.write(Data((message + "\n\n").utf8))
                    case .noted(let message):
                        passed += 1
                        let line = message.split(separator: "\n").first.map(String.init) ?? message
                        FileHandle.standardError.write(Data("rasterkit compare: \(line)\n".utf8))
                    }
                } catch {
                    failed += 1
                    FileHandle.standardError.write(Data("\(identifier): \(error)\n\n".utf8))
                }
            }
            let notes = try lockRun?.finish() ?? []
            try writeReports()
            for note in notes { print(note) }
            print("\(outputs.count) golden\(outputs.count == 1 ? "" : "s") checked: \(passed) passed, \(failed) failed"
                + " (record mode \(mode.rawValue): \(modeSource))")
            if failed > 0 { throw ExitStatus.partialFailure }
        }

        /// The lockfile of `--lock` and the remote cache of its PNGs; nil without `--lock`. A
        /// lockfile that cannot be read is a usage error.
        private func makeLockRun(mode: RecordMode) throws -> GoldenLockRun? {
            guard let lock else { return nil }
            let store = remote.goldenRemote(recorded: nil)
            do {
                return try GoldenLockRun(lockfile: lock, remote: store, mode: mode)
            } catch {
                UsageFailure.exit(command: "goldens check", "\(error)", json: false)
            }
        }

        /// The record mode, and where it came from.
        private func modeAndSource() throws -> (RecordMode, String) {
            if let record { return (record, "--record \(record.rawValue)") }
            do { return try RecordMode.current(environment) } catch { throw ValidationError("\(error)") }
        }

        /// The image `output`'s file would hold: rendered and encoded as `rasterkit render` writes
        /// it, then decoded.
        private static func written(_ output: BatchOutput, by rasterizer: Rasterizer) throws -> RasterImage {
            try RasterImage(pngData: output.encode(output.render(rasterizer).image))
        }

        /// A component's `golden:` settings as the tolerance they give.
        static func tolerance(_ settings: Manifest.GoldenSettings) -> Tolerance {
            Tolerance(threshold: settings.threshold ?? 0.1, maxDifferentPixels: settings.maxDifferentPixels,
                      maxDifferentRatio: settings.maxDifferentRatio, includeAA: settings.includeAA)
        }

        /// The output's path without `.png`: how reports, `--only` and `goldens accept` name it.
        static func identifier(of output: BatchOutput) -> String {
            output.path.hasSuffix(".png") ? String(output.path.dropLast(4)) : output.path
        }

        static func quoted(_ text: String) -> String {
            text.allSatisfy { $0.isLetter || $0.isNumber || "-_./@".contains($0) } ? text
                : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }

        /// The HTML report, JUnit and Markdown of the artifacts folder, as `rasterkit report` writes them.
        private func writeReports() throws {
            guard report != nil || junit != nil || markdown != nil else { return }
            let folder = URL(fileURLWithPath: artifactsPath, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ReportCommand.write(try GoldenReport(artifactsDirectory: folder), html: report, junit: junit, markdown: markdown)
        }
    }
}

/// `--record` values: ``RecordMode``'s names.
extension RecordMode: ExpressibleByArgument {}
