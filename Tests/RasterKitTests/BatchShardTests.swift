import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Shards split a batch so that N runs together write exactly the files of one run.
@Suite struct BatchShardTests {
    @Test func parsingShards() throws {
        #expect(try Shard(parsing: "0/4") == Shard(index: 0, count: 4))
        #expect(try Shard(parsing: "3/4").description == "3/4")
        #expect(throws: BatchPlanError.invalidShard("4/4", reason: "with 4 shards the index must be 0 to 3")) { try Shard(parsing: "4/4") }
        #expect(throws: BatchPlanError.invalidShard("-1/3", reason: "with 3 shards the index must be 0 to 2")) { try Shard(parsing: "-1/3") }
        #expect(throws: BatchPlanError.invalidShard("0/0", reason: "the shard count must be 1 or more, not 0")) { try Shard(parsing: "0/0") }
        for text in ["a/b", "1", "1/2/3", "", "1/", " 1/2"] {
            #expect(throws: BatchPlanError.invalidShard(text, reason: "it must be I/N, two whole numbers such as 0/4")) {
                try Shard(parsing: text)
            }
        }
        #expect(Shard.whole.includes("anything"))
    }

    /// The assignment comes from a fixed digest: the same in every process, on every machine.
    @Test func assignmentIsStableAndSpreadsWork() throws {
        let units = (0..<400).map { "icons/icon-\($0)@2x.png" }
        var counts = [0, 0, 0, 0]
        for unit in units {
            let owners = try (0..<4).filter { try Shard(index: $0, count: 4).includes(unit) }
            #expect(owners.count == 1)
            counts[owners[0]] += 1
        }
        #expect(counts.allSatisfy { $0 > 70 }, "\(counts)")
        #expect(Shard.assignment(of: "button-normal@2x.png", count: 1000) == Shard.assignment(of: "button-normal@2x.png", count: 1000))
        let pinned = ["button-normal.png", "a", "Showcase.xcassets/card-messages.imageset", "b", "c",
                     "icons/star-24@2x.png", "drawable-xhdpi/panel_default.9.png", "x"]
        #expect(pinned.map { Shard.assignment(of: $0, count: 7) } == Self.pinnedAssignments)
    }

    /// Recorded once; a change would split the runs of old and new versions differently.
    static let pinnedAssignments = [2, 3, 4, 1, 5, 5, 0, 3]

    static let manifest = """
        name: Kit
        components:
          button:
            sizes: ["40x20", "30x16"]
            scales: [1, 2, 3]
            states: {normal: {c: "#2F6FEB"}, pressed: {c: "#1F54C4"}, disabled: {c: "#E2E8F0"}}
            layers: [roundedRect: {radius: 6, fill: "$c"}]
          panel:
            sizes: [{width: 40, height: 40, caps: 8}]
            scales: [1, 2, 3]
            states: {a: {c: red}, b: {c: blue}}
            layers: [roundedRect: {inset: 1, radius: 6, fill: white, stroke: "$c"}]
        svgs:
          - {input: icons, sizes: [16, 24], scales: [1, 2], out: icons}
        """

    /// For every format: the shards' files never overlap, and together they are the full run's
    /// files, byte for byte (catalog `Contents.json` files included).
    @Test(arguments: ExportFormat.allCases)
    func shardUnionEqualsTheFullRun(format: ExportFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        for name in ["a", "b", "c", "d", "e"] { try fixture.writeSVG("icons/\(name).svg", color: "red") }
        let manifest = try fixture.load(Self.manifest)
        let full = fixture.folder.appendingPathComponent("full")
        let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 2)
        #expect(renderer.run(try manifest.plan(format: format), into: full).failed == 0)
        let fullFiles = ManifestFixture.files(in: full)
        // Vector formats write one file per size, whatever the scales.
        #expect(fullFiles.count > ([.pdf, .svg].contains(format) ? 20 : 40))

        var union: [String: Data] = [:]
        let count = 3
        for index in 0..<count {
            let folder = fixture.folder.appendingPathComponent("shard\(index)")
            let plan = try manifest.plan(format: format, shard: Shard(index: index, count: count))
            #expect(renderer.run(plan, into: folder).failed == 0)
            let files = ManifestFixture.files(in: folder)
            #expect(!files.isEmpty, "shard \(index) of \(count) has work")
            for file in files {
                #expect(union[file] == nil, "\(file) was written by two shards")
                union[file] = try Data(contentsOf: folder.appendingPathComponent(file))
            }
        }
        #expect(union.keys.sorted() == fullFiles)
        for file in fullFiles {
            #expect(union[file] == (try Data(contentsOf: full.appendingPathComponent(file))), "\(file) differs")
        }
    }

    /// In an asset catalog an image set's PNGs and its `Contents.json` go to the same shard.
    @Test func imageSetsStayTogether() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/a.svg")
        let manifest = try fixture.load(Self.manifest)
        for index in 0..<4 {
            let plan = try manifest.plan(format: .xcassets, shard: Shard(index: index, count: 4))
            let sets = Set(plan.outputs.map { $0.path.split(separator: "/").prefix(2).joined(separator: "/") }
                .filter { $0.hasSuffix(".imageset") })
            let described = Set(plan.files.map { $0.path.split(separator: "/").prefix(2).joined(separator: "/") }
                .filter { $0.hasSuffix(".imageset") })
            #expect(sets == described)
        }
    }
}
