import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Issue 24: what a batch does about runs killed half-way and threads the system refuses.
///
/// No test here has a time limit of its own: a sync test's limit only records an issue (the test
/// cannot be stopped), and counts from when the test was scheduled, so on a loaded CI machine,
/// with the cooperative pool busy with other sync tests, it failed tests that were only waiting
/// for a thread. A batch that waited forever for a worker shows in `make test`'s watchdog, which
/// names the tests still running.
@Suite struct BatchRobustnessTests {
    struct Dot: Rasterizable {
        var tint: Color
        func draw(in canvas: Canvas, size: Size) throws { canvas.fill(Path(ellipseIn: Rect(size: size)), with: .color(tint)) }
    }

    static let items = [("red", Color.red), ("blue", Color.blue), ("green", Color.green)].map { name, tint in
        BatchItem(name: "dot", state: name, component: Dot(tint: tint), sizes: [Size(8)], scales: [1, 2])
    }

    /// The pid of a process that has exited.
    static func deadPid() throws -> pid_t {
        let process = try ChildProcess("/bin/true")
        process.waitUntilExit()
        return process.pid
    }

    /// Finding 7: a killed run leaves `.<name>.<pid>-<n>.tmp` files, also inside image sets; the
    /// next run removes those whose writer is gone, in every folder it writes to, and nothing else.
    @Test func staleTemporaryFilesOfDeadWritersAreRemovedAndNothingElse() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let imageSet = folder.appendingPathComponent("Assets.xcassets/dot-red.imageset")
        try FileManager.default.createDirectory(at: imageSet, withIntermediateDirectories: true)
        let dead = try Self.deadPid()
        let stale = [".dot-red.png.\(dead)-3.tmp", ".Contents.json.\(dead)-12.tmp"]
        let kept = [".dot-red@2x.png.\(getpid())-7.tmp", ".dot-red.png.1-2.tmp", "notes.\(dead)-1.tmp", ".x.\(dead).tmp",
                    ".x.abc-1.tmp", ".hidden.tmp", ".\(dead)-1.tmp", "dot-red.png.\(dead)-3.tmp.bak"]
        for name in stale + kept { try Data().write(to: imageSet.appendingPathComponent(name)) }
        for name in stale { try Data().write(to: folder.appendingPathComponent("Assets.xcassets/" + name)) }
        // A link of the pattern to a file elsewhere is not a temporary file this writer made.
        let target = folder.appendingPathComponent("keep.txt")
        try Data("keep".utf8).write(to: target)
        let link = ".dot-blue.png.\(dead)-1.tmp"
        try FileManager.default.createSymbolicLink(at: imageSet.appendingPathComponent(link), withDestinationURL: target)

        let summary = try BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(Self.items, format: .xcassets, into: folder)
        #expect(summary.failed == 0, "\(summary.failures)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: imageSet.path))
        for name in stale { #expect(!left.contains(name), "\(name)") }
        for name in kept + [link] { #expect(left.contains(name), "\(name)") }
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Assets.xcassets").path))
            .contains { $0.hasSuffix(".tmp") })
        #expect(FileManager.default.fileExists(atPath: target.path))
    }

    @Test func temporaryNamesAreParsedStrictly() {
        #expect(StaleTemporaryFiles.writer(ofTemporary: ".a.png.123-4.tmp") == 123)
        #expect(StaleTemporaryFiles.writer(ofTemporary: ".a.b.c.9-0.tmp") == 9)
        for name in [".a.png.123.tmp", "a.png.123-4.tmp", ".a.png.-4.tmp", ".a.png.12-.tmp", ".a.png.1-2-3.tmp",
                     ".a.png.0-1.tmp", "..1-2.tmp", ".a.png.１-2.tmp", ".tmp"] {
            #expect(StaleTemporaryFiles.writer(ofTemporary: name) == nil, "\(name)")
        }
        #expect(StaleTemporaryFiles.isAlive(getpid()))
        #expect(StaleTemporaryFiles.isAlive(1))
    }

    static func renderer(jobs: Int, failing: Set<Int>) -> BatchRenderer {
        BatchRenderer(jobs: jobs, reusesUpToDateOutputs: false,
                      threads: WorkerThreads(stackSize: BatchRenderer.workerStackSize, failingStarts: failing)) { Rasterizer() }
    }

    /// Finding 12: a worker the system refuses to start is reported, and the batch finishes on
    /// the workers that did start instead of waiting for one that never ran.
    @Test(arguments: [Set([1, 2, 3]), Set([0]), Set([2])])
    func refusedWorkerStartsAreReportedAndTheOthersFinishTheBatch(failing: Set<Int>) throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try Self.renderer(jobs: 4, failing: failing).run(Self.items, into: folder)
        #expect(summary.failed == 0 && summary.drawn + summary.cached == 6, "\(summary.failures)")
        #expect(summary.warnings.count == 1)
        #expect(summary.warnings.first?.contains("only \(4 - failing.count) of 4 worker threads") == true,
                "\(summary.warnings)")
        let json = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        #expect(json.contains("warnings"))
    }

    /// The caller's logger hears what the summary holds too: a warning for workers that did not
    /// start, and at debug level each failed output and the batch's counts.
    @Test func theBatchLogsToTheCallersLogger() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = LogCapture()
        let renderer = BatchRenderer(jobs: 2, reusesUpToDateOutputs: false, logger: capture.logger,
                                     threads: WorkerThreads(stackSize: BatchRenderer.workerStackSize, failingStarts: [1])) {
            Rasterizer()
        }
        var outputs = [BatchOutput(path: "tile.png", source: "tile", size: Size(8), scale: 1) { TransferTile(number: 1) }]
        outputs.append(BatchOutput(path: "broken.png", source: "broken.svg") { _ in throw SVGError.malformed(message: "no svg element", source: "broken.svg") })
        let summary = renderer.run(outputs, into: folder)
        #expect(summary.failed == 1 && summary.drawn == 1)
        #expect(capture.warnings.count == 1 && capture.warnings[0].contains("only 1 of 2 worker threads"), "\(capture.warnings)")
        #expect(capture.messages.contains { $0.contains("output failed") && $0.contains("broken.png") }, "\(capture.messages)")
        #expect(capture.messages.contains { $0.contains("batch finished") && $0.contains("failed=1") }, "\(capture.messages)")
    }

    /// With no worker started, every output fails saying why, and the run returns.
    @Test func noWorkerStartedFailsEveryOutputWithTheReason() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try Self.renderer(jobs: 2, failing: [0, 1]).run(Self.items, into: folder)
        #expect(summary.failed == 6 && summary.written == 0)
        #expect(summary.failures.allSatisfy { $0.reason.contains("no worker thread could be started") }, "\(summary.failures)")
        let clean = try Self.renderer(jobs: 2, failing: []).run(Self.items, into: folder)
        #expect(clean.failed == 0 && clean.warnings.isEmpty)
        #expect(!String(decoding: try JSONEncoder().encode(clean), as: UTF8.self).contains("warnings"))
    }
}
