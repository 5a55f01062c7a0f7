import ArgumentParser
import Foundation
import RasterKit
import RasterKitArguments
import RasterKitDiff

/// `rasterkit report <artifacts-dir> --out report.html [--junit goldens.xml] [--markdown summary.md]`:
/// one page of every golden failure, and the same failures for CI.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML page of the golden failures in an artifacts directory, and optionally JUnit XML and Markdown.",
        discussion: "The directory is where failed golden assertions leave their images, "
            + ".build/rasterkit-artifacts by default. Failures are sorted by their share of differing pixels. "
            + "--markdown appends when the file exists (as $GITHUB_STEP_SUMMARY expects); --junit replaces it.")

    @Argument(help: "The artifacts directory.")
    var artifacts: String

    @Option(name: .long, help: "Where to write the page.")
    var out: String = "report.html"

    @Option(name: .long, help: "Also write the failures as JUnit XML to this file.")
    var junit: String?

    @Option(name: .long, help: "Also append the failures as Markdown to this file (for $GITHUB_STEP_SUMMARY).")
    var markdown: String?

    @Flag(name: .long, help: "Serve the report as a review page on 127.0.0.1 instead, with Accept and Reject on each failure (runs rasterkit-server).")
    var serve = false

    @Option(name: .long, help: ArgumentHelp("With --serve: the goldens folder accepted images are written into.", valueName: "dir"))
    var goldens: String = "Goldens"

    @Option(name: .long, help: ArgumentHelp("With --serve: the port; 0 (the default) picks a free one.", valueName: "port"))
    var port = 0

    func validate() throws {
        try PathChecks.requireNonEmpty(artifacts, "the artifacts directory")
        if serve {
            // The server checks the folders and the port itself; the files below are not written.
            guard junit == nil, markdown == nil else { throw ValidationError("--serve writes no file: leave out --junit and --markdown") }
            return
        }
        try PathChecks.requireNonEmpty(out, "--out")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: artifacts, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(artifacts) is not a directory")
        }
        // The page replaces whatever is at --out: never a file of the artifacts it is made from
        // (`--out ART/ok/actual.png` overwrote an input with HTML).
        guard !PathChecks.isInside(out, artifacts) else {
            throw ValidationError("--out \(out) is inside the artifacts directory \(artifacts); write the report elsewhere")
        }
        try PathChecks.requireReplaceable(out, "--out")
        var outputs = [(out, "--out")]
        for (path, flag) in [(junit, "--junit"), (markdown, "--markdown")] {
            guard let path else { continue }
            try PathChecks.requireNonEmpty(path, flag)
            guard !PathChecks.isInside(path, artifacts) else {
                throw ValidationError("\(flag) \(path) is inside the artifacts directory \(artifacts); write it elsewhere")
            }
            if let other = outputs.first(where: { PathChecks.canonical($0.0) == PathChecks.canonical(path) }) {
                throw ValidationError("\(flag) \(path) is the same file as \(other.1); give each output its own path")
            }
            try PathChecks.requireReplaceable(path, flag)
            outputs.append((path, flag))
        }
    }

    func run() throws {
        if serve {
            ServerExecutable.run(["review", artifacts, "--goldens", goldens, "--port", String(port)], command: "report --serve")
        }
        let report = try GoldenReport(artifactsDirectory: URL(fileURLWithPath: artifacts, isDirectory: true))
        try Self.write(report, html: out, junit: junit, markdown: markdown)
        print("\(report.failures.count) failure\(report.failures.count == 1 ? "" : "s") → \(URL(fileURLWithPath: out).path)")
    }

    /// Writes `report` as a page to `html`, as JUnit XML to `junit` and appended as Markdown to
    /// `markdown`, each when given (paths checked as ``validate()`` checks them).
    static func write(_ report: GoldenReport, html: String?, junit: String?, markdown: String?) throws {
        // AtomicFileWriter, not Data.write(atomically:): it replaces only a regular file, never a
        // device or FIFO that took the path's place since validate().
        for (path, text) in [(html, { report.html() }), (junit, { report.junitXML() })] {
            guard let path else { continue }
            do { try AtomicFileWriter.write(Data(text().utf8), to: path) } catch {
                throw ValidationError("cannot write \(path): \(error)")
            }
        }
        if let markdown { try append(report.markdown(), to: markdown) }
    }

    /// Appends to a regular file, or creates it: a step summary collects several steps' text.
    private static func append(_ text: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw ValidationError("cannot write \(path)")
            }
            return
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw ValidationError("cannot write \(path)") }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw ValidationError("cannot write \(path): \(error)")
        }
    }
}
