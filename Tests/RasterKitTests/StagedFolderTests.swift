import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// A batch into a folder that does not exist yet builds it under a hidden name beside it and
/// renames it into place: the folder appears with every file in it or not at all, whatever
/// was at the destination is never replaced, and nothing is left beside it.
@Suite struct StagedFolderTests {
    /// The hidden staging folders in `parent`.
    static func stagingLeftovers(in parent: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: parent.path).filter { $0.contains(".rasterkit-staging-") }
    }

    @Test func aMissingFolderIsBuiltBesideItAndPublishedWhole() throws {
        let parent = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let destination = parent.appendingPathComponent("deeper/out")
        let staged = try #require(StagedFolder.make(for: destination.path))
        let hidden = URL(fileURLWithPath: staged.path)
        #expect(staged.destination == destination.path)
        #expect(hidden.deletingLastPathComponent().path == destination.deletingLastPathComponent().path)
        #expect(hidden.lastPathComponent.hasPrefix(".out.rasterkit-staging-"))

        let writer = FolderWriter(staged: staged)
        try writer.write(Data("one".utf8), to: "a.png")
        try writer.write(Data("two".utf8), to: "icons/b.png")
        // A path written twice is replaced, as in any folder.
        let written = try writer.write(Data("three!".utf8), to: "a.png")
        #expect(written?.byteCount == 6)
        #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing is visible before it is published")

        #expect(staged.publish())
        #expect(try Data(contentsOf: destination.appendingPathComponent("a.png")) == Data("three!".utf8))
        #expect(try Data(contentsOf: destination.appendingPathComponent("icons/b.png")) == Data("two".utf8))
        #expect(try Self.stagingLeftovers(in: destination.deletingLastPathComponent()).isEmpty)
    }

    @Test func anythingAlreadyAtTheDestinationIsWrittenIntoAsUsual() throws {
        let parent = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("folder"), file = parent.appendingPathComponent("file")
        let dangling = parent.appendingPathComponent("dangling")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: file)
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: parent.appendingPathComponent("nowhere").path)
        for existing in [folder, file, dangling] {
            #expect(StagedFolder.make(for: existing.path) == nil, "\(existing.lastPathComponent)")
        }
        #expect(StagedFolder.make(for: "/") == nil)
        #expect(try Self.stagingLeftovers(in: parent).isEmpty)
    }

    @Test(arguments: [false, true])
    func aFolderThatAppearsMeanwhileIsNeverReplaced(holdingAFile: Bool) throws {
        let parent = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let destination = parent.appendingPathComponent("out")
        let staged = try #require(StagedFolder.make(for: destination.path))
        try FolderWriter(staged: staged).write(Data("mine".utf8), to: "a.png")
        // Another run makes the folder first (and may already be writing into it).
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        if holdingAFile { try Data("theirs".utf8).write(to: destination.appendingPathComponent("b.png")) }

        #expect(!staged.publish())
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == (holdingAFile ? ["b.png"] : []))
        staged.remove()
        #expect(try Self.stagingLeftovers(in: parent).isEmpty)
    }

    @Test func failuresNameTheDestinationNotTheHiddenFolder() throws {
        let parent = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let destination = parent.appendingPathComponent("out")
        let staged = try #require(StagedFolder.make(for: destination.path))
        defer { staged.remove() }
        let writer = FolderWriter(staged: staged)
        try writer.write(Data("file".utf8), to: "a.png")
        let error = try #require(throws: AtomicFileWriter.WriteError.self) { try writer.write(Data("x".utf8), to: "a.png/b.png") }
        #expect(error.path == destination.path + "/a.png", "\(error)")
        #expect(!error.description.contains("rasterkit-staging"), "\(error)")
    }

    /// Catalog files (an asset catalog's `Contents.json`) go into the same staged folder as the images.
    @Test(arguments: [ExportFormat.png, .xcassets])
    func aBatchIntoANewFolderLeavesNothingBesideIt(format: ExportFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(BatchFreshFolderTests.manifest).plan(format: format)
        let out = fixture.folder.appendingPathComponent("new/out")
        let (summary, _, _) = try BatchFreshFolderTests.run(plan, into: out, store: nil)
        #expect(summary.failed == 0 && summary.written == plan.outputs.count)
        #expect(ManifestFixture.files(in: out).filter { !$0.hasPrefix(".rasterkit") }.count == plan.outputs.count + plan.files.count)
        #expect(try Self.stagingLeftovers(in: out.deletingLastPathComponent()).isEmpty)
    }

    /// Two batches start into the same new folder at once: one publishes its folder, the other
    /// finds it there and writes into it; both write every output, byte for byte the same.
    @Test(.timeLimit(.minutes(2)))
    func twoBatchesIntoOneNewFolderAtOnceBothWriteEveryOutput() async throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plan = try fixture.load(BatchFreshFolderTests.manifest).plan(format: .png)
        let reference = fixture.folder.appendingPathComponent("reference")
        _ = try BatchFreshFolderTests.run(plan, into: reference, store: nil)
        let expected = try BatchFreshFolderTests.contents(of: reference)

        for round in 0..<4 {
            let out = fixture.folder.appendingPathComponent("race-\(round)")
            let summaries = try await withThrowingTaskGroup(of: BatchSummary.self) { group in
                for _ in 0..<2 { group.addTask { try BatchFreshFolderTests.run(plan, into: out, store: nil).0 } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(summaries.allSatisfy { $0.failed == 0 && $0.total == plan.outputs.count })
            #expect(try BatchFreshFolderTests.contents(of: out) == expected)
        }
        #expect(try Self.stagingLeftovers(in: fixture.folder).isEmpty)
    }
}

extension StagedFolderTests {
    /// A killed run's staging folder is removed by the next staging for the same destination,
    /// once its process is gone; a live run's, another destination's and a link are left alone.
    @Test func aKilledRunsStagingFolderIsRemovedByTheNextOne() throws {
        let parent = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let dead = try BatchRobustnessTests.deadPid()
        let names = [".out.rasterkit-staging-\(dead)-1f", ".out.rasterkit-staging-\(getpid())-2e",
                     ".other.rasterkit-staging-\(dead)-3d"]
        for name in names {
            try FileManager.default.createDirectory(at: parent.appendingPathComponent(name + "/icons"), withIntermediateDirectories: true)
            try Data("half".utf8).write(to: parent.appendingPathComponent(name + "/icons/a.png"))
        }
        let target = parent.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: parent.appendingPathComponent(".out.rasterkit-staging-\(dead)-4c").path,
                                                   withDestinationPath: target.path)

        let staged = try #require(StagedFolder.make(for: parent.appendingPathComponent("out").path))
        defer { staged.remove() }
        let left = try Self.stagingLeftovers(in: parent).sorted()
        #expect(left == [".other.rasterkit-staging-\(dead)-3d", ".out.rasterkit-staging-\(dead)-4c",
                         ".out.rasterkit-staging-\(getpid())-2e", URL(fileURLWithPath: staged.path).lastPathComponent].sorted())
        #expect(FileManager.default.fileExists(atPath: target.path), "a link's target is never touched")
    }
}
