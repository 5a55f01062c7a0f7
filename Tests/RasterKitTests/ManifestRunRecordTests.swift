import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// The record that lets an unchanged manifest be known up to date without loading it: every
/// input it read and every file it left must still be as they were, or it vouches for nothing.
@Suite struct ManifestRunRecordTests {
    static let manifest = """
        components:
          badge:
            sizes: ["24x24"]
            scales: [1, 2]
            states: {red: {fill: "#D93B3B"}, blue: {fill: "#2F6FEB"}}
            layers:
              - rect: {fill: "$fill"}
              - image: {file: art/dot.png}
              - svg: {file: art/mark.svg}
        svgs:
          - {input: icons, sizes: [16], out: icons}
        """

    /// A manifest with an image, an SVG layer and an `svgs:` folder with a subfolder.
    static func fixture(_ name: String = #function) throws -> ManifestFixture {
        let fixture = try ManifestFixture(name)
        try fixture.write(manifest, to: "manifest.yaml")
        try fixture.writePNG("art/dot.png")
        try fixture.writeSVG("art/mark.svg")
        try fixture.writeSVG("icons/home.svg")
        try fixture.writeSVG("icons/nested/star.svg")
        return fixture
    }

    /// Loads, plans and renders the fixture's manifest into `out`, and records the run, as
    /// `rasterkit render` does; stamps are trusted at once (`settleTime` 0).
    @discardableResult
    static func run(_ fixture: ManifestFixture, settleTime: Double = 0) throws -> BatchPlan {
        let out = fixture.folder.appendingPathComponent("out")
        let plan = try Manifest(contentsOf: fixture.folder.appendingPathComponent("manifest.yaml"), settleTime: settleTime).plan()
        ManifestRunRecord.forget(in: out)
        let summary = BatchRenderer(rasterizer: Rasterizer()).run(plan, into: out)
        #expect(summary.failed == 0, "\(summary.failures)")
        ManifestRunRecord.remember(plan, invocation: "test", in: out)
        return plan
    }

    static func upToDate(_ fixture: ManifestFixture) -> ManifestRunRecord? {
        ManifestRunRecord.upToDate(in: fixture.folder.appendingPathComponent("out"), invocation: "test")
    }

    @Test func aRunThatChangedNothingIsKnownFromItsRecord() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let plan = try Self.run(fixture)
        let record = try #require(Self.upToDate(fixture))
        #expect(record.outputCount == plan.outputs.count && record.outputCount == 6)
        // The manifest, both files it names, both folders listed and both SVGs found.
        #expect(record.inputs.count == 7, "\(record.inputs.keys.sorted())")
        #expect(ManifestRunRecord.upToDate(in: fixture.folder.appendingPathComponent("out"), invocation: "another") == nil)
    }

    /// Each kind of input, changed after the run, makes the record stale.
    @Test(arguments: ["manifest.yaml", "art/dot.png", "art/mark.svg", "icons/home.svg", "icons/nested/star.svg"])
    func aChangedInputMakesTheRecordStale(input: String) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        try Self.run(fixture)
        let url = fixture.folder.appendingPathComponent(input)
        try (Data(contentsOf: url) + Data("\n".utf8)).write(to: url)
        #expect(Self.upToDate(fixture) == nil)
    }

    /// A file added to an `svgs:` folder or any folder below it changes the folder's stamp.
    @Test(arguments: ["icons/new.svg", "icons/nested/new.svg", "icons/nested/deeper/new.svg"])
    func anAddedSVGMakesTheRecordStale(path: String) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        try Self.run(fixture)
        try fixture.writeSVG(path)
        #expect(Self.upToDate(fixture) == nil)
    }

    @Test func aRemovedOrRewrittenOutputMakesTheRecordStale() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let plan = try Self.run(fixture)
        let first = fixture.folder.appendingPathComponent("out/" + plan.outputs[0].path)
        try Data("not a png".utf8).write(to: first)
        #expect(Self.upToDate(fixture) == nil)

        try Self.run(fixture)
        #expect(Self.upToDate(fixture) != nil)
        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("out/icons/home-16.png"))
        #expect(Self.upToDate(fixture) == nil)
    }

    /// An input changed too recently to be stamped (within the settle time) leaves no record.
    @Test func inputsTooFreshToTrustLeaveNoRecord() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        // Changed within the file system's clock tick as far as its times tell: a time ahead of
        // the clock (a settle time of a minute is cut to a tick where times have nanoseconds).
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [timespec(tv_sec: now.tv_sec + 2, tv_nsec: 1), timespec(tv_sec: now.tv_sec + 2, tv_nsec: 1)]
        #expect(utimensat(AT_FDCWD, fixture.folder.appendingPathComponent("manifest.yaml").path, &times, 0) == 0)
        let plan = try Self.run(fixture, settleTime: 60)
        #expect(plan.inputStamps == nil)
        #expect(Self.upToDate(fixture) == nil)
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.appendingPathComponent("out/" + ManifestRunRecord.fileName).path))
    }

    /// A manifest given as bytes has no file to stamp, so its plan cannot be recorded.
    @Test func aManifestFromBytesCannotBeRecorded() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let plan = try Manifest(data: Data(Self.manifest.utf8), directory: fixture.folder).plan()
        #expect(plan.inputStamps == nil)
    }

    @Test func forgettingRemovesTheRecord() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        try Self.run(fixture)
        ManifestRunRecord.forget(in: fixture.folder.appendingPathComponent("out"))
        #expect(Self.upToDate(fixture) == nil)
    }

    @Test func theRecordReadsBackAsWritten() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        try Self.run(fixture)
        let record = try #require(ManifestRunRecord.load(from: fixture.folder.appendingPathComponent("out")))
        #expect(ManifestRunRecord.parse(try #require(record.text)) == record)
    }

    /// An up-to-date run reports the outputs the folder holds with their fallback, as the run
    /// that wrote them did: a broken input stays visible in every run's summary.
    @Test func theRecordKeepsHowManyOutputsFellBack() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let plan = try Self.run(fixture)
        let out = fixture.folder.appendingPathComponent("out")
        ManifestRunRecord.remember(plan, fellBack: 2, invocation: "test", in: out)
        let record = try #require(Self.upToDate(fixture))
        #expect(record.fellBackCount == 2 && record.outputCount == 6)
        #expect(ManifestRunRecord.parse(try #require(record.text)) == record)
    }

    /// A record written before fallbacks were counted (three fields of counts) reads as none.
    @Test func aRecordWithoutAFallbackCountReadsAsNone() throws {
        let text = "# rasterkit render record v1\ninvocation\ttest\ncounts\t1\t0\ninput\t1:2\t/nowhere\nfile\t10\t20\tx.png\n"
        let record = try #require(ManifestRunRecord.parse(text))
        #expect(record.outputCount == 1 && record.fellBackCount == 0)
        for counts in ["1\t0\t2", "1\t0\t-1", "1\t0\tmany", "1\t0\t0\t0"] {
            #expect(ManifestRunRecord.parse(text.replacingOccurrences(of: "counts\t1\t0", with: "counts\t" + counts)) == nil,
                    "counts \(counts)")
        }
    }

    /// A damaged record is no record: never a crash, never a false "up to date".
    @Test(arguments: [
        "", "garbage", "# rasterkit render record v1\n",
        "# rasterkit render record v1\ninvocation\ttest\ncounts\t1\t0\ninput\t1:2:3:4.5:6.7\t/nowhere\nfile\t10\t20\tx.png",  // cut short
        "# rasterkit render record v1\ninvocation\ttest\ncounts\tone\t0\ninput\t1:2\t/nowhere\nfile\t10\t20\tx.png\n",
        "# rasterkit render record v1\ninvocation\ttest\ncounts\t2\t0\ninput\t1:2\t/nowhere\nfile\t10\t20\tx.png\n",
        "# rasterkit render record v1\ninvocation\ttest\ncounts\t1\t0\nfile\t10\t20\tx.png\n",
        "# rasterkit render record v1\ninvocation\ttest\ncounts\t1\t0\ninput\t1:2\t/nowhere\nfile\tten\t20\tx.png\n",
        "# rasterkit render record v1\ninvocation\ttest\ncounts\t1\t0\ninput\t1:2\t/nowhere\nsurprise\t1\nfile\t10\t20\tx.png\n",
    ])
    func aDamagedRecordIsIgnored(text: String) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let out = fixture.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: out.appendingPathComponent(ManifestRunRecord.fileName))
        #expect(ManifestRunRecord.upToDate(in: out, invocation: "test") == nil)
    }

    /// The invocation names the manifest, the format and the shard, so another of any is another run.
    @Test func theInvocationTellsRunsApart() throws {
        let manifest = URL(fileURLWithPath: "/tmp/a/showcase.yaml")
        let plain = try #require(ManifestRunRecord.invocation(manifest: manifest, format: nil, shard: .whole))
        #expect(plain == ManifestRunRecord.invocation(manifest: manifest, format: nil, shard: .whole))
        #expect(plain != ManifestRunRecord.invocation(manifest: manifest, format: .png, shard: .whole))
        #expect(plain != ManifestRunRecord.invocation(manifest: manifest, format: nil, shard: try Shard(index: 0, count: 2)))
        #expect(plain != ManifestRunRecord.invocation(manifest: URL(fileURLWithPath: "/tmp/b/showcase.yaml"), format: nil,
                                                      shard: .whole))
    }
}
