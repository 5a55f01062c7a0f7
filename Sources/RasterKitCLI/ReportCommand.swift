import ArgumentParser
import Foundation
import RasterKit
import RasterKitDiff

/// `rasterkit report <artifacts-dir> --out report.html`: one page of every golden failure.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML page of the golden failures in an artifacts directory.",
        discussion: "The directory is where failed golden assertions leave their images, "
            + ".build/rasterkit-artifacts by default. Failures are sorted by their share of differing pixels.")

    @Argument(help: "The artifacts directory.")
    var artifacts: String

    @Option(name: .long, help: "Where to write the page.")
    var out: String = "report.html"

    func validate() throws {
        try PathChecks.requireNonEmpty(artifacts, "the artifacts directory")
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
    }

    func run() throws {
        let report = try GoldenReport(artifactsDirectory: URL(fileURLWithPath: artifacts, isDirectory: true))
        let destination = URL(fileURLWithPath: out)
        do {
            // AtomicFileWriter, not Data.write(atomically:): it replaces only a regular file,
            // never a device or FIFO that took the path's place since validate().
            try AtomicFileWriter.write(Data(report.html().utf8), to: destination.path)
        } catch {
            throw ValidationError("cannot write \(out): \(error)")
        }
        print("\(report.failures.count) failure\(report.failures.count == 1 ? "" : "s") → \(destination.path)")
    }
}
