import Foundation
import RasterKitTestSupport
import Testing

/// Issue 24, finding 8: an empty path resolved to the working directory (`--out ""` wrote
/// every output there). Every path option and argument now refuses it with exit 2.
@Suite struct EmptyPathTests {
    @Test(arguments: [
        ["svg", "c.svg", "--size", "16", "--out", ""],
        ["svg", "", "--size", "16", "--out", "out"],
        ["svg", "c.svg", "--size", "16", "--out", "out", "--cache", ""],
        ["render", "manifest.yaml", "--out", ""],
        ["render", "", "--out", "out"],
        ["render", "manifest.yaml", "--out", "out", "--contact-sheet", ""],
        ["diff", "", "a.png"],
        ["report", ".", "--out", ""],
        ["report", "", "--out", "report.html"],
        ["cache", "stats", "--cache", ""],
    ])
    func anEmptyPathExitsTwoAndWritesNothing(arguments: [String]) throws {
        let folder = TestScratch.path("rasterkit-empty")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("c.svg"))
        try Data("components:\n  dot:\n    sizes: [8]\n    layers: [rect: {fill: red}]\n".utf8)
            .write(to: folder.appendingPathComponent("manifest.yaml"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let run = try CLI.run(arguments, in: folder, environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("xdg").path])
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("empty string"), "\(arguments): \(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }
}
