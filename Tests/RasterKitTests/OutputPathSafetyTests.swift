import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Security review findings 1, 4 and 5: what writing outputs does to paths that are not plain
/// files and folders — devices, FIFOs, folders and symbolic links at the destination, symbolic
/// links among the output folder's subfolders, and temporary-file sweeps through such links.
@Suite struct OutputPathSafetyTests {
    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    static func names(in folder: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    /// Finding 1: the rename replaced a device node or FIFO at the destination (`rasterkit diff
    /// … -o /dev/null` as root replaced /dev/null). A FIFO stands in for a device here.
    @Test func aFIFOAtTheDestinationIsRefusedAndKept() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let error = #expect(throws: AtomicFileWriter.WriteError.self) {
            try AtomicFileWriter.write(Data("png".utf8), to: fifo)
        }
        #expect(error?.description.contains("FIFO") == true, "\(String(describing: error))")
        #expect(Self.kind(fifo) == S_IFIFO)
        // Nothing left behind: the temporary file is not made before the check.
        #expect(Self.names(in: folder) == ["pipe.png"])
    }

    @Test func aFolderAtTheDestinationIsRefused() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("out.png")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        let error = #expect(throws: AtomicFileWriter.WriteError.self) {
            try AtomicFileWriter.write(Data("png".utf8), to: destination.path)
        }
        #expect(error?.description.contains("folder") == true, "\(String(describing: error))")
        #expect(Self.kind(destination.path) == S_IFDIR)
        #expect(Self.names(in: folder) == ["out.png"])
    }

    /// A symbolic link at the destination is neither followed nor replaced.
    @Test func aSymbolicLinkAtTheDestinationIsRefusedAndItsTargetUntouched() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("precious.txt")
        try Data("precious".utf8).write(to: target)
        let link = folder.appendingPathComponent("out.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: AtomicFileWriter.WriteError.self) { try AtomicFileWriter.write(Data("png".utf8), to: link.path) }
        #expect(Self.kind(link.path) == S_IFLNK)
        #expect(try Data(contentsOf: target) == Data("precious".utf8))
    }

    @Test func aRegularFileIsStillReplaced() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("a/b/out.png")
        try AtomicFileWriter.write(Data("one".utf8), to: destination.path, below: folder.path)
        try AtomicFileWriter.write(Data("two".utf8), to: destination.path, below: folder.path)
        #expect(try Data(contentsOf: destination) == Data("two".utf8))
    }

    /// Finding 5: a symbolic link among the subfolders of the output folder is not written
    /// through; the output that would go there fails alone, saying why, and the others are written.
    @Test func aSymbolicLinkedSubfolderOfTheOutputFolderIsNotWrittenThrough() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out"), victim = root.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("sub"), withDestinationURL: victim)
        let render: @Sendable (Rasterizer) throws -> RenderedImage = { rasterizer in
            try rasterizer.render(RenderRequest(SVGImage(try SVGSamples.document(SVGSamples.redSquare)), size: Size(4)))
        }
        let outputs = [BatchOutput(path: "ok.png", source: "ok", render: render),
                       BatchOutput(path: "sub/x.png", source: "linked", render: render),
                       BatchOutput(path: "sub/deeper/y.png", source: "deeper", render: render)]
        let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: 2, reusesUpToDateOutputs: false).run(outputs, into: out)
        #expect(summary.failed == 2)
        let reasons = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.file, $0.reason) })
        #expect(reasons["linked"]?.contains("symbolic link") == true, "\(reasons)")
        #expect(reasons["deeper"]?.contains("symbolic link") == true, "\(reasons)")
        #expect(Self.names(in: victim).isEmpty)
        #expect(Self.names(in: out).contains("ok.png"))
    }

    /// Finding 4: the stale temporary-file sweep followed a symbolic-linked subfolder and removed
    /// files outside the output folder, and removed any `.<name>.<dead pid>-<n>.tmp`, even of
    /// kinds RasterKit never writes.
    @Test func theSweepFollowsNoLinkAndRemovesOnlyTemporaryFilesOfWrittenKinds() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out"), victim = root.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("sub"), withDestinationURL: victim)
        let dead = try BatchRobustnessTests.deadPid()
        let outside = [".report.png.\(dead)-2.tmp", ".notes.txt.\(dead)-1.tmp"]
        for name in outside { try Data("important".utf8).write(to: victim.appendingPathComponent(name)) }
        let foreign = ".notes.txt.\(dead)-1.tmp", stale = ".x.png.\(dead)-3.tmp", index = ".\(BatchOutputIndex.fileName).\(dead)-4.tmp"
        for name in [foreign, stale, index] {
            try Data("x".utf8).write(to: out.appendingPathComponent(name))
            try Data("x".utf8).write(to: out.appendingPathComponent("real/" + name))
        }

        BatchRenderer.sweepStaleTemporaryFiles(under: out.path, paths: ["a.png", "sub/x.png", "real/x.png", "sub/deeper/y.png"])

        #expect(Self.names(in: victim) == Set(outside))
        #expect(Self.names(in: out) == ["real", "sub", foreign])
        #expect(Self.names(in: out.appendingPathComponent("real")) == [foreign])
        #expect(StaleTemporaryFiles.innerName(ofTemporary: ".a.b.png.12-3.tmp") == "a.b.png")
        #expect(StaleTemporaryFiles.innerName(ofTemporary: ".a.png.12.tmp") == nil)
    }

    /// The sweep leaves a folder alone that is itself a symbolic link, whoever asks.
    @Test func aLinkedFolderIsNotSwept() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let victim = root.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        let link = root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        let name = ".x.png.\(try BatchRobustnessTests.deadPid())-1.tmp"
        try Data().write(to: victim.appendingPathComponent(name))
        #expect(StaleTemporaryFiles.sweep(link.path) == 0)
        #expect(Self.names(in: victim) == [name])
    }
}
