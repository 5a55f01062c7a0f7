import Foundation
import Testing

/// `--max-memory`, `--time-limit`, `--max-side`, `--max-pixels`, `--max-file-size` of `render`
/// and `svg`: bad values exit 2; an output over a limit fails alone (exit 1, the rest written);
/// a flag replaces the manifest's own `limits:` value.
@Suite struct LimitOptionsTests {
    static let badValues: [[String]] = [
        ["--max-memory", "0"], ["--max-memory", "-5"], ["--max-memory", "lots"], ["--max-memory", "99999999999"],
        ["--time-limit", "0"], ["--time-limit", "-1"], ["--time-limit", "nan"], ["--time-limit", "1e9"],
        ["--max-side", "0"], ["--max-side", "20000"], ["--max-side", "ten"],
        ["--max-pixels", "-1"], ["--max-pixels", "999999999999"],
        ["--max-file-size", "0"], ["--max-file-size", "65"], ["--max-file-size", "1.5"],
    ]

    @Test(arguments: badValues)
    func badValuesExitTwo(arguments: [String]) throws {
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = try SVGCommandTests.rasterkit(arguments: ["c.svg", "--size", "16", "--out", "out"] + arguments, in: folder)
        #expect(svg.status == 2 && svg.stderr.contains(arguments[0]), "\(arguments): \(svg.stderr)")
        let workspace = try RenderCommandTests.Workspace()
        defer { workspace.remove() }
        let render = try workspace.render(arguments)
        #expect(render.status == 2 && render.stderr.contains(arguments[0]), "\(arguments): \(render.stderr)")
        #expect(SVGCommandTests.files(in: folder.appendingPathComponent("out")).isEmpty)
        #expect(workspace.files("out").isEmpty)
    }

    @Test func anSVGOutputOverAFlagLimitFailsAlone() throws {
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--size", "40", "--out", "out", "--no-cache",
                                                "--max-side", "32", "--max-memory", "64", "--time-limit", "30", in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(SVGCommandTests.files(in: folder.appendingPathComponent("out")) == ["c-16.png"])
        #expect(run.stderr.contains("c-40.png"))

        let pixels = try SVGCommandTests.rasterkit("c.svg", "--size", "16", "--size", "40", "--out", "few", "--no-cache",
                                                   "--max-pixels", "1000", in: folder)
        #expect(pixels.status == 1 && SVGCommandTests.files(in: folder.appendingPathComponent("few")) == ["c-16.png"])
    }

    @Test func anSVGFileOverTheFileSizeLimitFailsAlone() throws {
        let folder = try SVGCommandTests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let padding = String(repeating: " ", count: 1 << 20)
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\#(padding)<rect width="10" height="10"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("big.svg"))
        let run = try SVGCommandTests.rasterkit("c.svg", "big.svg", "--size", "16", "--out", "out", "--no-cache",
                                                "--max-file-size", "1", in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(SVGCommandTests.files(in: folder.appendingPathComponent("out")) == ["c-16.png"])
        #expect(run.stderr.contains("big"))
    }

    static let manifest = """
        name: Kit
        limits: {memoryBudget: 2KB}
        components:
          small:
            sizes: [16]
            layers: [rect: {fill: red}]
          large:
            sizes: [40]
            layers: [rect: {fill: blue}]
        """

    /// The manifest's `limits:` now reaches the renders (a 40×40 render needs 6,400 bytes of the
    /// manifest's 2 KiB budget, and fails alone), and a flag replaces it. A lowered pixel flag
    /// fails the outputs over it one by one; it does not make the manifest's sizes problems.
    @Test func theManifestsLimitsApplyAndAFlagReplacesThem() throws {
        let workspace = try RenderCommandTests.Workspace(manifest: Self.manifest)
        defer { workspace.remove() }
        let manifestOnly = try workspace.render(["--no-cache"])
        #expect(manifestOnly.status == 1, "\(manifestOnly.stderr)")
        #expect(workspace.files("out") == ["small-default.png"])
        #expect(manifestOnly.stderr.contains("large-default.png") && manifestOnly.stderr.contains("memory budget"))

        let raised = try workspace.render(["--no-cache", "--max-memory", "1"], out: "raised")
        #expect(raised.status == 0, "\(raised.stderr)")
        #expect(workspace.files("raised") == ["large-default.png", "small-default.png"])

        let lowered = try workspace.render(["--no-cache", "--max-memory", "1", "--max-side", "20"], out: "lowered")
        #expect(lowered.status == 1, "\(lowered.stderr)")
        #expect(workspace.files("lowered") == ["small-default.png"])
        #expect(lowered.stderr.contains("large-default.png") && !lowered.stderr.contains("small-default.png"))
    }
}
