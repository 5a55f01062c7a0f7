import Foundation
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// The rasterizer with a disk tier: memory, then disk, then draw, exactly once per key.
@Suite struct DiskCacheRasterizerTests {
    @Test func manyTasksAskingForOneKeyGetOneDrawThenOneDiskRead() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let gate = Gate()
        let component = Counted(label: "raced", draws: Counter(), gate: gate)
        let tasks = 16
        let first = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<tasks {
                group.addTask { try await first.image(for: component, size: Size(8), scale: 2, priority: .urgent) }
            }
            #expect(await eventually { first.statistics.coalesced + first.statistics.memoryHits == tasks - 1 })
            gate.open()
            for try await image in group { #expect(image.pixelWidth == 16) }
        }
        #expect(component.draws.count == 1)
        try first.cache.flush()

        // A restarted process: many tasks again, one disk read, no draw.
        let second = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<tasks {
                group.addTask { try await second.image(for: component, size: Size(8), scale: 2, priority: .urgent) }
            }
            for try await image in group { #expect(image.pixelWidth == 16 && image.scale == 2) }
        }
        #expect(component.draws.count == 1)
        #expect(second.statistics.draws == 0 && second.statistics.diskHits == 1)
    }

    @Test func manyThreadsOnAnEmptyStoreGetOneDrawAndOneWrite() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let gate = Gate()
        let component = Counted(label: "threads", draws: Counter(), gate: gate)
        let threads = 12
        let done = DispatchGroup()
        let served = Counter()
        for _ in 0..<threads {
            done.enter()
            Thread {
                if (try? rasterizer.image(for: component, size: Size(8))) != nil { served.increment() }
                done.leave()
            }.start()
        }
        #expect(Gate.wait { rasterizer.statistics.coalesced + rasterizer.statistics.memoryHits == threads - 1 })
        gate.open()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(component.draws.count == 1 && served.count == threads)
        try disk.flush()
        #expect(try disk.statistics.writes == 1 && disk.statistics.count == 1)
    }

    @Test func concurrentRequestsForManyKeysMixDiskHitsAndDraws() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let draws = Counter()
        let components = (0..<40).map { Counted(label: "mixed\($0)", draws: draws) }
        do {
            let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
            for component in components.prefix(20) { _ = try rasterizer.image(for: component, size: Size(6)) }
            try rasterizer.cache.flush()
        }
        let disk = try fixture.open(options: fixture.options(batchSize: 8, interval: 0.01))
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk), maxConcurrentDraws: 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<3 {
                for component in components {
                    group.addTask {
                        if round == 1 {
                            _ = try rasterizer.image(for: component, size: Size(6))
                        } else {
                            _ = try await rasterizer.image(for: component, size: Size(6), priority: .urgent)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(draws.count == 40, "twenty drawn before, twenty now")
        #expect(rasterizer.statistics.diskHits == 20 && rasterizer.statistics.draws == 20)
        try disk.flush()
        #expect(try disk.statistics.count == 40)
    }

    @Test func prefetchedRendersReachTheStore() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let component = Counted(label: "prefetched", draws: Counter())
        rasterizer.prefetch(component, size: Size(5))
        #expect(Gate.wait { disk.contains(rasterizer.key(for: component, size: Size(5))) })
    }

    @Test func aClosedStoreDoesNotStopRendering() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        _ = try rasterizer.image(for: Counted(label: "before", draws: Counter()), size: Size(4))
        try disk.close()
        #expect(try rasterizer.render(RenderRequest(Counted(label: "after", draws: Counter()), size: Size(4))).origin == .drawn)
        try rasterizer.cache.flush()
        // What was pending when it closed was written.
        #expect(try fixture.open().statistics.count == 1)
    }

    @Test func aMemoryOnlyCacheIsUnchanged() throws {
        let cache = RasterCache(memoryLimit: 1 << 20)
        #expect(cache.disk == nil)
        try cache.flush()
        let rasterizer = Rasterizer(cache: cache)
        let component = Counted(label: "memory", draws: Counter())
        #expect(try rasterizer.render(RenderRequest(component, size: Size(4))).origin == .drawn)
        #expect(try rasterizer.render(RenderRequest(component, size: Size(4))).origin == .memory)
        let statistics = rasterizer.statistics
        #expect(statistics.memoryHits == 1 && statistics.draws == 1 && statistics.diskHits == 0)
        #expect(cache.memory.statistics.hits == 1 && cache.memory.statistics.count == 1)
    }
}
