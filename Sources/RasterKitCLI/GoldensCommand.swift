import ArgumentParser
import Foundation
import RasterKitArguments
import RasterKitDiff

/// `rasterkit goldens unused [--delete]`: golden files that no assertion touched in the last full
/// test run.
struct GoldensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goldens",
        abstract: "Look after the golden images of golden tests.",
        subcommands: [Check.self, Accept.self, Unused.self])

    /// Lists (and with `--delete` removes) the PNGs under the goldens folder that the last full
    /// test run never asserted, as its run records say.
    struct Unused: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unused",
            abstract: "List golden PNGs that no assertion touched in the last full test run.",
            discussion: "Golden assertions record what they check in .build/rasterkit-golden-runs (or "
                + "$RASTERKIT_GOLDEN_RUNS). The newest run that was not filtered (--filter, --skip) is used; "
                + "goldens written after it started are kept. Prints one path a line; exits 0, or 2 when "
                + "there is no full run to go by.")

        @Option(name: .long, help: ArgumentHelp("The goldens folder.", valueName: "dir"))
        var goldens: String = "Goldens"

        @Option(name: .long, help: ArgumentHelp("Where test runs recorded the goldens they checked.", valueName: "dir"))
        var runs: String?

        @Flag(name: .long, help: "Delete the unused goldens.")
        var delete = false

        var runsPath: String {
            runs ?? ProcessInfo.processInfo.environment["RASTERKIT_GOLDEN_RUNS"].flatMap { $0.isEmpty ? nil : $0 }
                ?? ".build/rasterkit-golden-runs"
        }

        func validate() throws {
            try PathChecks.requireNonEmpty(goldens, "--goldens")
            if let runs { try PathChecks.requireNonEmpty(runs, "--runs") }
            for (path, flag) in [(goldens, "--goldens"), (runsPath, "--runs")] {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw ValidationError(flag == "--runs"
                        ? "no test run is recorded: \(path) does not exist; run the whole test suite (swift test) first"
                        : "--goldens \(path) does not exist")
                }
                guard isDirectory.boolValue else { throw ValidationError("\(flag) \(path) is not a directory") }
            }
        }

        func run() throws {
            let run = try Self.lastFullRun(in: runsPath)
            let root = URL(fileURLWithPath: goldens, isDirectory: true)
            var unused: [String] = [], kept = 0, total = 0
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .contentModificationDateKey])
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension.lowercased() == "png",
                      let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .contentModificationDateKey]),
                      values.isRegularFile == true else { continue }
                total += 1
                if run.goldens.contains(url.standardizedFileURL.resolvingSymlinksInPath().path) { continue }
                if let modified = values.contentModificationDate, modified.timeIntervalSince1970 >= run.started {
                    kept += 1
                    continue
                }
                unused.append(url.path)
            }
            unused.sort()
            for path in unused {
                if delete {
                    do { try FileManager.default.removeItem(atPath: path) } catch {
                        throw ValidationError("cannot delete \(path): \(error)")
                    }
                    print("deleted \(path)")
                } else {
                    print(path)
                }
            }
            var summary = "\(unused.count) unused golden\(unused.count == 1 ? "" : "s") of \(total)"
                + (delete && !unused.isEmpty ? " deleted" : "") + " (last full run: \(run.name))"
            if kept > 0 { summary += "; \(kept) written since that run began kept" }
            if !run.skipped.isEmpty { summary += "; newer filtered runs not used: \(run.skipped.joined(separator: ", "))" }
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        }

        /// The newest run folder whose processes all ran unfiltered, with what they asserted,
        /// and the newer filtered runs passed over.
        static func lastFullRun(in directory: String) throws
            -> (name: String, started: Double, goldens: Set<String>, skipped: [String]) {
            let manager = FileManager.default
            var runs: [(name: String, records: [GoldenRunRecord])] = []
            for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] {
                let folder = directory + "/" + name
                var records: [GoldenRunRecord] = []
                // A record that cannot be read in full says nothing certain about what its run
                // asserted: nothing is decided from that run, and nothing deleted.
                for file in ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted() where file.hasSuffix(".txt") {
                    guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8),
                          let record = GoldenRunRecord(text: text) else {
                        throw ValidationError("cannot read the test run record \(folder)/\(file) in full (cut short, or not a "
                            + "record), so no golden is judged unused: remove \(folder) once that run is over, and run the whole "
                            + "test suite (swift test) again")
                    }
                    records.append(record)
                }
                if !records.isEmpty { runs.append((name, records)) }
            }
            guard !runs.isEmpty else {
                throw ValidationError("no test run is recorded in \(directory); run the whole test suite (swift test) first")
            }
            runs.sort { ($0.records.map(\.started).min() ?? 0) > ($1.records.map(\.started).min() ?? 0) }
            var skipped: [String] = []
            for run in runs {
                if let filtered = run.records.first(where: \.filtered) {
                    skipped.append("\(run.name) (\(filtered.arguments))")
                    continue
                }
                let goldens = Set(run.records.flatMap(\.goldens))
                return (run.name, run.records.map(\.started).min() ?? 0, goldens, skipped)
            }
            throw ValidationError("every recorded test run was filtered (\(skipped.joined(separator: ", "))), so none "
                + "checked every golden; run the whole test suite (swift test) first")
        }
    }
}
