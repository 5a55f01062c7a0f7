import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport
@testable import RasterKitBatch

/// What a plan will write is known before rendering, and is exactly what a run writes: for every
/// format, whole and in shards, and for SVG folders (issue 20, `--list-outputs`).
@Suite struct PlannedFileTests {
    @Test(arguments: ExportFormat.allCases)
    func plannedFilesAreTheFilesARunWrites(format: ExportFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/star.svg")
        let manifest = try fixture.load(BatchFreshFolderTests.manifest + """

            svgs:
              - {input: icons, out: icons, sizes: [16], scales: [1, 2]}
            """)
        for shard in [Shard.whole, try Shard(parsing: "0/2"), try Shard(parsing: "1/2")] {
            let plan = try manifest.plan(format: format, shard: shard)
            let out = fixture.folder.appendingPathComponent("out-\(format)-\(shard.description.replacingOccurrences(of: "/", with: "of"))")
            let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(plan, into: out)
            #expect(summary.failed == 0)
            let planned = plan.plannedFiles
            #expect(planned.map(\.path) == ManifestFixture.files(in: out), "\(format) \(shard)")
            // Every render's key is known, and is the key the run used.
            for file in planned where !file.path.hasSuffix("Contents.json") {
                #expect(file.key?.count == 32 && file.encoding != nil, "\(file.path)")
            }
        }
    }

    @Test func theKeysAreTheRendersKeys() throws {
        let outputs = [BatchOutput(path: "tile.png", source: "tile", size: Size(8), scale: 2) { TransferTile(number: 4) }]
        let expected = Rasterizer().key(for: TransferTile(number: 4), size: Size(8), scale: 2).digest
        #expect(outputs[0].plannedFile == PlannedFile(path: "tile.png", key: expected, encoding: "png1"))
        // An output made by a closure has no key to tell before rendering.
        let closure = BatchOutput(path: "x.png", source: "x") { rasterizer in
            try rasterizer.render(RenderRequest(TransferTile(number: 4), size: Size(8), scale: 2))
        }
        #expect(closure.plannedFile == PlannedFile(path: "x.png"))
    }
}
