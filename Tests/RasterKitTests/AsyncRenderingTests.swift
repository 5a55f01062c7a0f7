import Foundation
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport


@Suite struct AsyncRenderingTests {
    @Test func thousandTasksOverTenKeysGiveTenDraws() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let draws = Counter()
        try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for index in 0..<1_000 {
                let component = Counted(label: "key \(index % 10)", draws: draws, gate: gate)
                group.addTask { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) }
            }
            // Hold every draw open until all 1,000 requests have joined one.
            #expect(await eventually { rasterizer.statistics.misses == 1_000 && rasterizer.statistics.coalesced == 990 })
            gate.open()
            var count = 0
            for try await _ in group { count += 1 }
            #expect(count == 1_000)
        }
        #expect(draws.count == 10)
        #expect(rasterizer.statistics.draws == 10 && rasterizer.statistics.coalesced == 990)
    }

    @Test func concurrentRequestsForOneKeyShareTheImage() async throws {
        let rasterizer = Rasterizer()
        let draws = Counter()
        let component = Counted(label: "one", draws: draws)
        let images = try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<50 { group.addTask { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(draws.count == 1)
        #expect(Set(images.map { $0.storage.bytes }).count == 1)
    }

    @Test func prefetchWaitsWhileUrgentWorkIsPendingThenResumes() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 2)
        let urgentGate = Gate()
        let prefetchDraws = Counter()
        let urgent = Counted(label: "urgent", draws: Counter(), gate: urgentGate)
        let running = Task { try await rasterizer.image(for: urgent, size: Size(8), priority: .urgent) }
        #expect(await eventually { urgentGate.arrivals == 1 })
        rasterizer.prefetch(Counted(label: "later", draws: prefetchDraws), size: Size(8))
        try await Task.sleep(for: .milliseconds(150))
        #expect(prefetchDraws.count == 0)  // a free thread exists, but urgent work is running
        urgentGate.open()
        _ = try await running.value
        #expect(await eventually { prefetchDraws.count == 1 })
        let key = rasterizer.key(for: Counted(label: "later", draws: prefetchDraws), size: Size(8))
        #expect(await eventually { rasterizer.cache.memory.contains(key) })
    }

    @Test func prefetchRunsOneAtATime() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 2)
        let gate = Gate()
        let draws = Counter()
        for index in 0..<3 { rasterizer.prefetch(Counted(label: "p\(index)", draws: draws, gate: gate), size: Size(8)) }
        #expect(await eventually { gate.arrivals == 1 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(gate.arrivals == 1)
        gate.open()
        #expect(await eventually { draws.count == 3 })
    }

    @Test func anUrgentRequestPromotesAQueuedPrefetch() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 2)
        let blocker = Gate()
        let blocking = Task { try await rasterizer.image(for: Counted(label: "blocker", draws: Counter(), gate: blocker), size: Size(8), priority: .urgent) }
        #expect(await eventually { blocker.arrivals == 1 })
        let draws = Counter()
        let wanted = Counted(label: "wanted", draws: draws)
        rasterizer.prefetch(wanted, size: Size(8))
        try await Task.sleep(for: .milliseconds(50))
        #expect(draws.count == 0)  // queued as prefetch behind urgent work
        // Promoted: it runs on the second thread while the blocker still holds the first.
        let image = try await rasterizer.image(for: wanted, size: Size(8), priority: .urgent)
        #expect(image.pixelWidth == 8 && draws.count == 1)
        #expect(rasterizer.statistics.coalesced == 1)
        blocker.open()
        _ = try await blocking.value
        #expect(draws.count == 1)
    }

    @Test func deprioritizeKeepsTheWaitersAndTheSingleDraw() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 1)
        let blocker = Gate()
        let blocking = Task { try await rasterizer.image(for: Counted(label: "blocker", draws: Counter(), gate: blocker), size: Size(8), priority: .urgent) }
        #expect(await eventually { blocker.arrivals == 1 })
        let draws = Counter()
        let component = Counted(label: "moved", draws: draws)
        let waiters = (0..<3).map { _ in Task { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) } }
        #expect(await eventually { rasterizer.statistics.misses == 4 })
        rasterizer.deprioritize(rasterizer.key(for: component, size: Size(8)))
        blocker.open()
        _ = try await blocking.value
        for waiter in waiters { _ = try await waiter.value }
        #expect(draws.count == 1)
    }

    @Test func cancellingOneOfTwoWaitersLeavesTheOtherIntact() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let component = Counted(label: "shared", draws: Counter(), gate: gate)
        let kept = Task { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) }
        let dropped = Task { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) }
        #expect(await eventually { gate.arrivals == 1 && rasterizer.statistics.misses == 2 })
        dropped.cancel()
        // The cancelled caller hears at once, while the draw is still held open.
        await #expect(throws: CancellationError.self) { try await dropped.value }
        gate.open()
        let image = try await kept.value
        #expect(image.pixel(x: 1, y: 1) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(component.draws.count == 1)
    }

    @Test func aJobCancelledWhileQueuedNeverDraws() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 1)
        let blocker = Gate()
        let blocking = Task { try await rasterizer.image(for: Counted(label: "blocker", draws: Counter(), gate: blocker), size: Size(8), priority: .urgent) }
        #expect(await eventually { blocker.arrivals == 1 })
        let draws = Counter()
        let queued = Task { try await rasterizer.image(for: Counted(label: "queued", draws: draws), size: Size(8), priority: .urgent) }
        #expect(await eventually { rasterizer.statistics.misses == 2 })
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        blocker.open()
        _ = try await blocking.value
        try await Task.sleep(for: .milliseconds(50))
        #expect(draws.count == 0)
        #expect(rasterizer.statistics.cancellations == 1)
    }

    @Test func cancellingEveryWaiterOfARunningDrawCachesNothing() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let draws = Counter()
        let component = Counted(label: "abandoned", draws: draws, gate: gate)
        let task = Task { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) }
        #expect(await eventually { gate.arrivals == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        gate.open()
        let key = rasterizer.key(for: component, size: Size(8))
        try await Task.sleep(for: .milliseconds(50))
        #expect(!rasterizer.cache.memory.contains(key))
        // The next request draws again.
        _ = try await rasterizer.image(for: component, size: Size(8), priority: .urgent)
        #expect(draws.count == 2)
    }

    @Test func cancellationStopsBetweenNestedChildren() async throws {
        struct Row: Rasterizable {
            let children: Counter
            let gate: Gate
            static var stateKeyPaths: [PartialKeyPath<Row> & Sendable] { [] }
            func draw(in canvas: Canvas, size: Size) throws {
                for index in 0..<20 {
                    if index == 1 { gate.pass() }
                    try canvas.draw(Counted(label: "child \(index)", draws: children), in: Rect(x: Double(index), y: 0, width: 1, height: 1))
                }
            }
        }
        let rasterizer = Rasterizer()
        let children = Counter(), gate = Gate()
        let task = Task { try await rasterizer.image(for: Row(children: children, gate: gate), size: Size(width: 20, height: 1), priority: .urgent) }
        #expect(await eventually { gate.arrivals == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        gate.open()
        try await Task.sleep(for: .milliseconds(50))
        #expect(children.count == 1)
    }

    @Test func aFailedAsyncDrawIsNotCached() async throws {
        let rasterizer = Rasterizer()
        let component = Counted(label: "fails once", draws: Counter(), failures: Counter())
        await #expect(throws: RenderError.self) { _ = try await rasterizer.image(for: component, size: Size(8), priority: .urgent) }
        _ = try await rasterizer.image(for: component, size: Size(8), priority: .urgent)
        #expect(component.draws.count == 2)
    }

    @Test func synchronousAndAsynchronousRequestsShareOneDraw() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let component = Counted(label: "mixed", draws: Counter(), gate: gate)
        let asynchronous = Task { try await rasterizer.image(for: component, size: Size(8), priority: .urgent) }
        #expect(await eventually { gate.arrivals == 1 })
        let synchronous = Task.detached { try rasterizer.image(for: component, size: Size(8)) }
        #expect(await eventually { rasterizer.statistics.coalesced == 1 })
        gate.open()
        _ = try await asynchronous.value
        _ = try await synchronous.value
        #expect(component.draws.count == 1)
    }

    @Test func nestedRendersInsideAsyncDrawsStaySynchronous() async throws {
        let rasterizer = Rasterizer()
        let icons = Counter()
        let images = try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for count in 1...6 {
                group.addTask { try await rasterizer.image(for: Toolbar(count: count, icons: icons), size: Size(width: 144, height: 24), priority: .urgent) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(images.count == 6 && icons.count == 1)
    }
}
