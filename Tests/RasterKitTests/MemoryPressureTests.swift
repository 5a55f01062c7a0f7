#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import RasterKit

private func key(_ n: Int) -> CacheKey {
    CacheKey(value: StableDigest(high: 7, low: UInt64(n)), typeName: "Pressure.T\(n % 2)", renderVersion: 0, size: nil, scale: 1) { "\(n)" }
}

/// A 10×10 image: 400 bytes.
private func image() throws -> RasterImage { try TestSupport.solidImage(.red, width: 10, height: 10) }

/// A pipe standing in for a pressure file descriptor: a test writes to it to signal.
private struct FakeDescriptor {
    let read: Int32
    let write: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        read = ends[0]
        write = ends[1]
    }

    func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(write, &byte, 1)
    }

    /// Reads what was signalled, so the next poll waits again.
    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        _ = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    }
}

/// Memory pressure: the public call, the monitor driven through fake PSI and memory.events
/// descriptors, and limits changed at run time while requests run.
@Suite struct MemoryPressureTests {
    func filledCache(_ count: Int = 10) throws -> RasterCache {
        let cache = RasterCache(memoryLimit: 1 << 20, respondsToMemoryPressure: false)
        for n in 0..<count { cache.memory.insert(try image(), for: key(n)) }
        return cache
    }

    @Test func aWarningHalvesMemoryKeepingRecentImagesAndCriticalEmptiesIt() throws {
        let cache = try filledCache()
        _ = cache.memory.image(for: key(0))  // hit: survives a warning
        #expect(cache.handleMemoryPressure(level: .warning) == 2_000)
        #expect(cache.memory.totalCost == 2_000 && cache.memory.contains(key(0)))
        #expect(cache.memory.statistics.evictions == 5)
        #expect(cache.handleMemoryPressure(level: .critical) == 2_000)
        #expect(cache.memory.statistics.count == 0)
        #expect(cache.handleMemoryPressure(level: .critical) == 0)
    }

    @Test func aFakePSIDescriptorDrivesTheMonitor() async throws {
        let cache = try filledCache()
        let warning = try FakeDescriptor(), critical = try FakeDescriptor()
        let monitor = MemoryPressureMonitor(sources: [
            .init(name: "fake some", fd: warning.read, events: Int16(POLLIN), errorEndsSource: true) { fd in
                FakeDescriptor.drain(fd)
                return .warning
            },
            .init(name: "fake full", fd: critical.read, events: Int16(POLLIN), errorEndsSource: true) { fd in
                FakeDescriptor.drain(fd)
                return .critical
            },
        ]) { level in cache.handleMemoryPressure(level: level) }
        defer { monitor.stop() }
        #expect(monitor.sourceNames == ["fake some", "fake full"])
        try await Task.sleep(for: .milliseconds(50))
        #expect(cache.memory.totalCost == 4_000)  // nothing until signalled
        warning.signal()
        #expect(await eventually { cache.memory.totalCost == 2_000 })
        warning.signal()
        #expect(await eventually { cache.memory.totalCost == 800 })  // whole images: at most half
        critical.signal()
        #expect(await eventually { cache.memory.totalCost == 0 })
        close(warning.write)
        close(critical.write)
    }

    @Test func memoryEventsRisesMapToLevels() async throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("memory.events")
        func write(high: Int, max: Int, low: Int = 0) throws {
            try "low \(low)\nhigh \(high)\nmax \(max)\noom 0\noom_kill 0\n".write(to: file, atomically: false, encoding: .utf8)
        }
        try write(high: 0, max: 0)
        let fd = open(file.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let counter = MemoryEventsCounter(fd: fd)
        #expect(counter.nextLevel() == nil)
        try write(high: 0, max: 0, low: 9)
        #expect(counter.nextLevel() == nil)  // `low` is not pressure
        try write(high: 3, max: 0, low: 9)
        #expect(counter.nextLevel() == .warning)
        #expect(counter.nextLevel() == nil)  // already reported
        try write(high: 4, max: 1, low: 9)
        #expect(counter.nextLevel() == .critical)

        // The same counter behind a fake descriptor, trimming a cache through the monitor.
        let cache = try filledCache()
        let wake = try FakeDescriptor()
        let monitor = MemoryPressureMonitor(sources: [
            .init(name: file.path, fd: wake.read, events: Int16(POLLIN), errorEndsSource: false) { wakeFD in
                FakeDescriptor.drain(wakeFD)
                return counter.nextLevel()
            },
        ]) { level in cache.handleMemoryPressure(level: level) }
        defer { monitor.stop() }
        try write(high: 4, max: 1, low: 10)
        wake.signal()
        try await Task.sleep(for: .milliseconds(100))
        #expect(cache.memory.totalCost == 4_000)
        try write(high: 5, max: 1, low: 10)
        wake.signal()
        #expect(await eventually { cache.memory.totalCost == 2_000 })
    }

    @Test func withoutACgroupNothingIsWatchedAndThePublicCallStillTrims() throws {
        #expect(CgroupMemoryPressure.sources(directory: "/nonexistent/rasterkit-cgroup").isEmpty)
        let monitor = MemoryPressureMonitor(sources: []) { _ in Issue.record("no source, no signal") }
        #expect(monitor.sourceNames.isEmpty)
        monitor.stop()
        // Whatever this machine offers, the list names only cgroup files.
        #expect(RasterCache.watchedMemoryPressureFiles.allSatisfy { $0.hasPrefix("/sys/fs/cgroup") })
        let cache = try filledCache(4)
        #expect(cache.handleMemoryPressure(level: .critical) == 1_600)
    }

    @Test func aCgroupDirectoryYieldsTriggersAndTheEventsFile() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Plain files stand in for the kernel's: a trigger written to one is accepted, and
        // polling one for POLLPRI never wakes.
        try "".write(to: directory.appendingPathComponent("memory.pressure"), atomically: false, encoding: .utf8)
        try "high 0\nmax 0\n".write(to: directory.appendingPathComponent("memory.events"), atomically: false, encoding: .utf8)
        let sources = CgroupMemoryPressure.sources(directory: directory.path)
        #expect(sources.map(\.name) == [directory.path + "/memory.pressure (some 150000 2000000)",
                                         directory.path + "/memory.pressure (full 150000 2000000)",
                                         directory.path + "/memory.events"])
        #expect(sources.map(\.errorEndsSource) == [true, true, false])
        let written = try String(contentsOf: directory.appendingPathComponent("memory.pressure"), encoding: .utf8)
        // Each trigger written from the start of its own descriptor, with its NUL: the second wins here.
        #expect(written == "full 150000 2000000\0")
        let monitor = MemoryPressureMonitor(sources: sources) { _ in Issue.record("nothing changed") }
        #expect(monitor.sourceNames.count == 3)
        monitor.stop()
        // Without memory.pressure, the events file alone.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("memory.pressure"))
        let eventsOnly = CgroupMemoryPressure.sources(directory: directory.path)
        #expect(eventsOnly.map(\.name) == [directory.path + "/memory.events"])
        for source in eventsOnly { close(source.fd) }
    }

    @Test func registeredCachesAreTrimmedAndReleasedOnesForgotten() throws {
        // A registry of the test's own: broadcasting through the shared one would trim the
        // caches of every test running at the same time.
        let registry = MemoryPressureRegistry()
        let kept = RasterCache(memoryLimit: 1 << 20, respondsToMemoryPressure: false)
        kept.memory.insert(try image(), for: key(1))
        registry.register(kept)
        var dropped: RasterCache? = RasterCache(memoryLimit: 1 << 20, respondsToMemoryPressure: false)
        registry.register(try #require(dropped))
        weak let released = dropped
        dropped = nil
        #expect(released == nil)  // registering kept no reference
        let untouched = try filledCache(2)
        registry.broadcast(.critical)
        #expect(kept.memory.totalCost == 0)
        #expect(untouched.memory.totalCost == 800)
        // Caches respond to the process's pressure by default, and only when asked to.
        #expect(MemoryPressureRegistry.shared.isRegistered(RasterCache()))
        #expect(!MemoryPressureRegistry.shared.isRegistered(untouched))
    }

    // MARK: Limits at run time

    @Test func costLimitsChangeAtRunTimeAndRefuseNegativeValues() throws {
        let memory = MemoryCache(costLimit: 10_000)
        #expect(memory.itemCostLimit == 2_500)
        for n in 0..<10 { memory.insert(try image(), for: key(n)) }
        try memory.setCostLimit(1_200)
        #expect(memory.costLimit == 1_200 && memory.totalCost == 1_200)
        #expect(memory.itemCostLimit == 300)  // follows the cost limit
        #expect(!memory.insert(try image(), for: key(50)))
        try memory.setItemCostLimit(1_000)
        #expect(memory.insert(try image(), for: key(50)))
        #expect(throws: InvalidLimitError(name: "costLimit", value: -1, minimum: 0)) { try memory.setCostLimit(-1) }
        #expect(throws: InvalidLimitError.self) { try memory.setItemCostLimit(Int.min) }
        #expect(memory.costLimit == 1_200 && memory.itemCostLimit == 1_000)
        try memory.setItemCostLimit(nil)
        #expect(memory.itemCostLimit == 300)
        try memory.setCostLimit(0)
        let refused = memory.insert(try image(), for: key(60))
        #expect(memory.totalCost == 0 && !refused)
        #expect("\(InvalidLimitError(name: "costLimit", value: -1, minimum: 0))" == "costLimit must be 0 or more, not -1")
    }

    @Test func maxConcurrentDrawsChangesAtRunTime() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 1)
        for bad in [0, -1, Int.min] {
            #expect(throws: InvalidLimitError.self) { try rasterizer.setMaxConcurrentDraws(bad) }
        }
        #expect(rasterizer.maxConcurrentDraws == 1)
        let gate = Gate()
        let tasks = (0..<3).map { index in
            Task { try await rasterizer.image(for: Counted(label: "c\(index)", draws: Counter(), gate: gate), size: Size(8), priority: .urgent) }
        }
        #expect(await eventually { gate.arrivals == 1 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(gate.arrivals == 1)
        try rasterizer.setMaxConcurrentDraws(3)
        #expect(rasterizer.maxConcurrentDraws == 3)
        #expect(await eventually { gate.arrivals == 3 })  // the queued two start at once
        gate.open()
        for task in tasks { _ = try await task.value }
    }

    @Test func limitsChangingUnderConcurrentRequestsKeepEveryInvariant() async throws {
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 4_096, respondsToMemoryPressure: false), maxConcurrentDraws: 2)
        let running = Counter()
        let peak = Peak()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for step in 0..<200 {
                    try rasterizer.cache.memory.setCostLimit([0, 256, 4_096, 1 << 20][step % 4])
                    try rasterizer.setMaxConcurrentDraws(1 + step % 3)
                    _ = rasterizer.cache.memory.entries
                    rasterizer.cache.handleMemoryPressure(level: step % 7 == 0 ? .critical : .warning)
                    await Task.yield()
                }
            }
            for index in 0..<400 {
                group.addTask {
                    let image = try await rasterizer.image(for: Tracked(label: index % 25, running: running, peak: peak),
                                                           size: Size(8), priority: .urgent)
                    #expect(image.pixel(x: 3, y: 3).blue == 255)
                }
            }
            try await group.waitForAll()
        }
        try rasterizer.cache.memory.setCostLimit(1_000)
        #expect(rasterizer.cache.memory.totalCost <= 1_000)
        #expect(peak.value <= 3)  // never more than the highest limit set
        #expect(running.count == 0)
    }
}

/// The most draws seen running at once.
final class Peak: Sendable {
    private let highest = Lock(0)
    func record(_ count: Int) { highest.withLock { $0 = max($0, count) } }
    var value: Int { highest.withLock { $0 } }
}

/// Counts the draws running at once.
struct Tracked: Rasterizable {
    var label: Int
    let running: Counter
    let peak: Peak
    static let stateKeyPaths: [PartialKeyPath<Tracked> & Sendable] = [\.label]
    func draw(in canvas: Canvas, size: Size) throws {
        peak.record(running.increment())
        usleep(200)
        running.decrement()
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.blue))
    }
}
