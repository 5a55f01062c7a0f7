import Foundation
import RasterKitTestSupport
import Testing

/// `rasterkit svg …` and `rasterkit render …` are decoded by the subcommand alone when they are
/// complete and valid (LeafCommandLine); everything else must still get the root's answers:
/// the root's `--version`, its completion scripts, and help and errors that name `rasterkit`.
@Suite struct LeafCommandLineTests {
    @Test(arguments: ["svg", "render"])
    func versionIsTheRootsAfterEitherCommand(_ command: String) throws {
        let run = try CLI.run([command, "--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "0.1.0\n")
    }

    @Test(arguments: ["svg", "render"])
    func helpNamesTheToolAndListsTheRootsVersionFlag(_ command: String) throws {
        let run = try CLI.run([command, "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: rasterkit \(command) "))
        #expect(run.stdout.contains("--version"))
        #expect(!run.stdout.contains("rasterkit rasterkit"))
    }

    @Test(arguments: [["svg", "--bogus"], ["svg", "--size", "big", "--out", "o", "a.svg"], ["svg"],
                      ["render"], ["render", "m.yaml", "--out", "o", "--format", "gif"]])
    func mistakesExitTwoWithTheFullCommandInTheirUsage(_ arguments: [String]) throws {
        let run = try CLI.run(arguments, in: try TestScratch.folder("leaf-mistake"))
        #expect(run.status == 2)
        #expect(run.stderr.contains("rasterkit \(arguments[0])"), "\(run.stderr)")
        #expect(!run.stderr.contains("rasterkit rasterkit"))
        #expect(!run.stderr.contains("'\(arguments[0]) --help'"), "the hint must name the tool: \(run.stderr)")
    }

    @Test func aCompletionScriptRequestAfterTheCommandIsStillAnswered() throws {
        let run = try CLI.run(["svg", "--generate-completion-script", "bash"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("#!/bin/bash"))
        #expect(run.stdout.contains("_rasterkit_svg"))
    }

    @Test func aValidLineRunsTheCommand() throws {
        let folder = try TestScratch.folder("leaf-valid")
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        let run = try CLI.run(["svg", "a.svg", "--size", "8", "--out", "out", "--no-cache"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/a-8.png").path))
    }
}
