import Foundation
import RasterKit

/// Appends each golden an assertion checks to this process's ``GoldenRunRecord``, so
/// `rasterkit goldens unused` can tell which goldens the last full run never touched.
///
/// The record goes to `$RASTERKIT_GOLDEN_RUNS/<run>/<pid>.txt`, by default
/// `<package root>/.build/rasterkit-golden-runs`. `<run>` is the parent process (the `swift test`
/// that started this test process) and its start time, so a run's XCTest and Swift Testing
/// processes write into one folder. Lines are appended as assertions run: a run that crashes
/// leaves a record of what it did check, and nothing more.
enum GoldenRunLog {
    /// Where this process appends, per runs directory, once its header is written.
    private static let written = Lock<Set<String>>([])

    /// Records that `golden` was asserted. Failing to write never fails the test: the record
    /// is a help for cleaning up, not part of the assertion.
    static func record(golden: URL, runsDirectory: URL, arguments: [String] = CommandLine.arguments) {
        let folder = runsDirectory.appendingPathComponent(runName(), isDirectory: true)
        let file = folder.appendingPathComponent("\(getpid()).txt")
        written.withLock { headers in
            var text = GoldenRunRecord.line(forGolden: golden.standardizedFileURL.resolvingSymlinksInPath().path)
            if !headers.contains(file.path) {
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let record = GoldenRunRecord(started: Date().timeIntervalSince1970,
                                             filtered: GoldenRunRecord.isFiltered(arguments: Array(arguments.dropFirst())),
                                             arguments: arguments.dropFirst().joined(separator: " "))
                text = record.headerText + text
                // A new file: a record left by an earlier process with this pid is replaced.
                guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8)) else { return }
                headers.insert(file.path)
                return
            }
            guard let handle = FileHandle(forWritingAtPath: file.path) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: Data(text.utf8))
        }
    }

    /// `<parent pid>-<parent start time in clock ticks since boot>`: unique per `swift test` run.
    static func runName() -> String {
        let parent = getppid()
        // /proc/<pid>/stat: the 22nd field is the start time; the name in field 2 may hold spaces,
        // so count from the closing parenthesis.
        let stat = (try? String(contentsOfFile: "/proc/\(parent)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last.map { $0.split(separator: " ") } ?? []
        let start = fields.count > 19 ? String(fields[19]) : "0"
        return "\(parent)-\(start)"
    }
}
