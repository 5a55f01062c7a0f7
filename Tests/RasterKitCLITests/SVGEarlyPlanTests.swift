import Foundation
import RasterKit
import RasterKitBatch
import RasterKitTestSupport
import Testing
@testable import RasterKitCLI

/// `rasterkit svg` plans its batch on another thread while it checks the rest of its line; the
/// command must still run the plan of exactly the batch it runs.
@Suite struct SVGEarlyPlanTests {
    static func folder() throws -> URL {
        let folder = try TestScratch.folder("svg-early-plan")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("icons/sub"), withIntermediateDirectories: true)
        for name in ["icons/a.svg", "icons/sub/b.svg"] {
            try SVGCommandTests.square("red").write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    static func paths(_ outputs: [BatchOutput]) -> [String] { outputs.map(\.path) }

    @Test func aPlanIsTakenOnceAndOnlyForItsOwnBatch() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = [folder.appendingPathComponent("icons")]
        let small = SVGBatch(inputs: icons, sizes: [16]), large = SVGBatch(inputs: icons, sizes: [16, 32], scales: [2])
        SVGEarlyPlan.start(small)
        #expect(Self.paths(try SVGEarlyPlan.outputs(for: small)) == ["a-16.png", "sub/b-16.png"])
        // Started for one batch and asked for another: the other's plan.
        SVGEarlyPlan.start(small)
        #expect(Self.paths(try SVGEarlyPlan.outputs(for: large)) == Self.paths(try large.outputs()))
        // Taken once: a file added since is in the next plan.
        try SVGCommandTests.square("blue").write(to: folder.appendingPathComponent("icons/c.svg"))
        #expect(Self.paths(try SVGEarlyPlan.outputs(for: small)) == ["a-16.png", "c-16.png", "sub/b-16.png"])
        // Same paths, another render: the tinted batch's keys, not the plan started for the untinted one.
        var tinted = small
        tinted.tint = .red
        SVGEarlyPlan.start(small)
        let keys = try SVGEarlyPlan.outputs(for: tinted).map(\.plannedFile.key)
        #expect(keys == (try tinted.outputs().map(\.plannedFile.key)))
        #expect(keys != (try small.outputs().map(\.plannedFile.key)))
    }

    @Test func aPlanThatFailedFailsTheSameWay() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = SVGBatch(inputs: [folder.appendingPathComponent("missing")], sizes: [16])
        SVGEarlyPlan.start(missing)
        #expect(throws: SVGBatchError.inputNotFound(path: folder.appendingPathComponent("missing").path)) {
            try SVGEarlyPlan.outputs(for: missing)
        }
    }

    /// A plain line whose batch is valid starts its plan; the command's run takes it.
    @Test func aPlainLineStartsThePlanItsCommandRuns() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = [folder.appendingPathComponent("icons").path, "--size", "24", "--out", folder.appendingPathComponent("out").path,
                    "--no-cache", "--tint", "#1C71D8"]
        let command = try #require(SVGCommand(plainArguments: line))
        let batch = SVGCommand.batch(inputs: command.inputs, sizes: command.sizes, scales: command.scales, mode: command.mode,
                                     tint: try command.tint.map(SVGCommand.parseTint),
                                     allowExternalReferences: command.allowExternalReferences)
        #expect(Self.paths(try SVGEarlyPlan.outputs(for: batch)) == ["a-24.png", "sub/b-24.png"])
    }
}
