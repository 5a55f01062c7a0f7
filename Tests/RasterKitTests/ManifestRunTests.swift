import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// `rasterkit render` as a library call (issue 18): prepare, render, record, contact sheet from
/// the images the workers held — byte-identical to one read back from the files.
@Suite struct ManifestRunTests {
    @Test func aRunRendersRecordsAndIsThenUpToDate() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.write(BatchFreshFolderTests.manifest, to: "assets.yaml")
        let out = fixture.folder.appendingPathComponent("out")
        let run = ManifestRun(manifest: manifest, outputDirectory: out)

        guard case .ready(let prepared) = try run.prepare() else { Issue.record("a first run cannot be up to date"); return }
        #expect(prepared.plan.outputs.count == 8)
        let first = prepared.render(with: BatchRenderer(rasterizer: Rasterizer(), jobs: 2))
        #expect(first.summary.drawn == 8 && first.summary.failed == 0 && first.contactSheet == nil)

        // Its inputs settled (stamps younger than a few seconds are not trusted), a second run is
        // answered from the record without loading the manifest.
        var settled = run
        settled.reusesUpToDateOutputs = true
        if case .upToDate(let result) = try settled.prepare() {
            #expect(result.summary.total == 8 && result.summary.drawn == 0)
        }
        // A broken manifest is reported with its problems, nothing written.
        let broken = try fixture.write("components:\n  chip: {sizes: [\"10x10\"], layers: [{rect: {fil: red}}]}\n", to: "broken.yaml")
        #expect(throws: ManifestError.self) { try ManifestRun(manifest: broken, outputDirectory: out).prepare() }
    }

    @Test func theContactSheetFromMemoryEqualsOneReadFromTheFiles() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.write(BatchFreshFolderTests.manifest, to: "assets.yaml")
        let store = fixture.folder.appendingPathComponent("renders.sqlite")
        var sheets: [Data] = []
        // Drawn (thumbnails of the renders), copied from the store (of the kept bytes), and up to
        // date (read back from the files): the same sheet each time, in every format.
        for format in ExportFormat.allCases {
            let out = fixture.folder.appendingPathComponent("out-\(format)")
            for name in ["cold", "fresh", "again"] {
                let destination = name == "fresh" ? fixture.folder.appendingPathComponent("fresh-\(format)") : out
                let sheet = fixture.folder.appendingPathComponent("\(format)-\(name).png")
                let run = ManifestRun(manifest: manifest, outputDirectory: destination, format: format, contactSheet: sheet)
                guard case .ready(let prepared) = try run.prepare() else { Issue.record("a sheet is always drawn"); return }
                let renderer = BatchRenderer(jobs: 2) { Rasterizer(cache: RasterCache(disk: try DiskCache(at: store))) }
                let result = prepared.render(with: renderer)
                try renderer.rasterizer?.cache.flush()
                #expect(result.contactSheet == sheet && result.contactSheetError == nil)
                sheets.append(try Data(contentsOf: sheet))
            }
            #expect(Set(sheets.suffix(3)).count == 1, "\(format): the three sheets differ")
        }
    }
}
