import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Batch workers keep to a processor each when there is one worker per processor, and the
/// threads they start (as Pango starts for font matching) inherit that processor.
@Suite struct WorkerPlacementTests {
    static let processors = WorkerPlacement.processorsOfThisThread()

    /// What one output saw on its worker: the worker's processors and those of a thread it started.
    struct Seen: Hashable {
        var worker: [Int32]
        var started: [Int32]
    }

    /// Runs `count` outputs with `jobs` workers and returns what each saw.
    func run(outputs count: Int, jobs: Int) throws -> [Seen] {
        let out = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let seen = Lock<[Seen]>([])
        let outputs = (0..<count).map { index in
            BatchOutput(path: "\(index).png", source: "\(index)") { rasterizer in
                let started = Lock<[Int32]>([])
                let done = DispatchSemaphore(value: 0)
                Thread {
                    started.withLock { $0 = WorkerPlacement.processorsOfThisThread() }
                    done.signal()
                }.start()
                done.wait()
                seen.withLock { $0.append(Seen(worker: WorkerPlacement.processorsOfThisThread(), started: started.withLock { $0 })) }
                return try rasterizer.render(RenderRequest(Counted(label: "\(index)", draws: Counter()), size: Size(4)))
            }
        }
        let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: jobs).run(outputs, into: out)
        #expect(summary.failed == 0)
        return seen.withLock { $0 }
    }

    @Test func theKernelSaysWhichProcessorsThisProcessMayUse() {
        #expect(!Self.processors.isEmpty)
        #expect(Set(Self.processors).count == Self.processors.count)
    }

    @Test(.enabled(if: processors.count > 1, "needs two processors"))
    func aWorkerPerProcessorKeepsEachWorkerAndTheThreadsItStartsToOneProcessor() throws {
        let seen = try run(outputs: 40, jobs: Self.processors.count)
        #expect(seen.count == 40)
        for output in seen {
            #expect(output.worker.count == 1)
            #expect(output.started == output.worker)
            #expect(Self.processors.contains(output.worker[0]))
        }
        // The batch's caller is left where it was.
        #expect(WorkerPlacement.processorsOfThisThread() == Self.processors)
    }

    @Test(.enabled(if: processors.count > 1, "needs two processors"))
    func moreWorkersThanProcessorsShareThemInTurn() throws {
        let jobs = Self.processors.count * 2
        #expect(try run(outputs: 40, jobs: jobs).allSatisfy { $0.worker.count == 1 })
        #expect(WorkerPlacement(workers: jobs) != nil)
    }

    @Test(.enabled(if: processors.count > 1, "needs two processors"))
    func fewerWorkersThanProcessorsAreNotPinned() throws {
        let seen = try run(outputs: 10, jobs: Self.processors.count - 1)
        #expect(seen.allSatisfy { $0.worker == Self.processors && $0.started == Self.processors })
        #expect(WorkerPlacement(workers: Self.processors.count - 1) == nil)
    }

    @Test func oneProcessorOrNoWorkersPinNothing() {
        #expect(WorkerPlacement(workers: 0) == nil)
        if Self.processors.count == 1 { #expect(WorkerPlacement(workers: 8) == nil) }
    }
}
