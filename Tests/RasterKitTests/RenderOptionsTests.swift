import Foundation
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Paint that can change between draws without changing the key: what makes a reload visible.
final class Ink: Sendable {
    private let color = Lock(Color.red)
    var current: Color { color.withLock { $0 } }
    func set(_ new: Color) { color.withLock { $0 = new } }
}

/// A component keyed by its label only, drawn in the ink's current color.
struct Inked: Rasterizable {
    var label: String
    let ink: Ink
    let draws: Counter
    var gate: Gate?

    static let stateKeyPaths: [PartialKeyPath<Inked> & Sendable] = [\.label]

    func draw(in canvas: Canvas, size: Size) throws {
        // Read before the gate: a held draw paints what the ink was when it started.
        let color = ink.current
        draws.increment()
        gate?.pass()
        canvas.fill(Path(rect: Rect(size: size)), with: .color(color))
    }
}

extension RasterImage {
    /// The first pixel's red and blue, enough to tell the inks apart.
    var isRed: Bool { pixel(x: 0, y: 0).red > 200 && pixel(x: 0, y: 0).blue < 50 }
    var isBlue: Bool { pixel(x: 0, y: 0).blue > 200 && pixel(x: 0, y: 0).red < 50 }
}

/// Each ``RenderOptions`` on each tier: draw counts and origins, synchronous and asynchronous.
@Suite struct RenderOptionsTests {
    let size = Size(8)

    func component(_ label: String = "a", ink: Ink = Ink(), draws: Counter = Counter(), gate: Gate? = nil) -> Inked {
        Inked(label: label, ink: ink, draws: draws, gate: gate)
    }

    @Test func disableMemoryCacheWritesKeepsTheRenderOutOfMemoryOnly() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let badge = component()
        let first = try rasterizer.render(RenderRequest(badge, size: size, options: .disableMemoryCacheWrites))
        #expect(first.origin == .drawn)
        #expect(!rasterizer.cache.memory.contains(first.key))
        try rasterizer.cache.flush()
        #expect(rasterizer.cache.disk?.contains(first.key) == true)
        // Served from disk, and again not promoted to memory.
        #expect(try rasterizer.render(RenderRequest(badge, size: size, options: .disableMemoryCacheWrites)).origin == .disk)
        #expect(!rasterizer.cache.memory.contains(first.key))
        #expect(try rasterizer.render(RenderRequest(badge, size: size)).origin == .disk)
        #expect(rasterizer.cache.memory.contains(first.key))
        #expect(badge.draws.count == 1)
    }

    @Test func disableMemoryCacheWritesWithoutADiskDrawsEachTime() throws {
        let rasterizer = Rasterizer()
        let badge = component()
        for _ in 0..<3 { #expect(try rasterizer.render(RenderRequest(badge, size: size, options: [.disableMemoryCacheWrites])).origin == .drawn) }
        #expect(badge.draws.count == 3 && rasterizer.cache.memory.statistics.count == 0)
    }

    @Test func disableMemoryCacheReadsSkipsMemoryButReadsDisk() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let badge = component()
        let memoryOnly = Rasterizer()
        _ = try memoryOnly.render(RenderRequest(badge, size: size))
        #expect(try memoryOnly.render(RenderRequest(badge, size: size, options: .disableMemoryCacheReads)).origin == .drawn)
        #expect(badge.draws.count == 2)

        let withDisk = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        _ = try withDisk.render(RenderRequest(badge, size: size))
        try withDisk.cache.flush()
        #expect(try withDisk.render(RenderRequest(badge, size: size, options: .disableMemoryCacheReads)).origin == .disk)
        #expect(badge.draws.count == 3)
    }

    @Test func disableDiskCacheReadsDrawsWhatOnlyTheDiskHolds() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let badge = component()
        let first = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        _ = try first.render(RenderRequest(badge, size: size))
        try first.cache.flush()
        let second = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        #expect(try second.render(RenderRequest(badge, size: size, options: .disableDiskCacheReads)).origin == .drawn)
        #expect(badge.draws.count == 2 && second.statistics.diskHits == 0)
        // Memory still serves it.
        #expect(try second.render(RenderRequest(badge, size: size, options: .disableDiskCacheReads)).origin == .memory)
    }

    @Test func disableDiskCacheWritesKeepsTheRenderOffDisk() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let rendered = try rasterizer.render(RenderRequest(component(), size: size, options: .disableDiskCacheWrites))
        try rasterizer.cache.flush()
        #expect(rasterizer.cache.disk?.contains(rendered.key) == false)
        #expect(rasterizer.cache.memory.contains(rendered.key))
    }

    @Test func reloadDrawsAgainAndReplacesBothTiers() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let ink = Ink()
        let badge = component(ink: ink)
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        #expect(try rasterizer.image(for: badge, size: size).isRed)
        try rasterizer.cache.flush()
        ink.set(.blue)
        #expect(try rasterizer.image(for: badge, size: size).isRed)  // cached
        let reloaded = try rasterizer.render(RenderRequest(badge, size: size, options: .reloadIgnoringCachedData))
        #expect(reloaded.origin == .drawn && reloaded.image.isBlue)
        #expect(badge.draws.count == 2)
        #expect(try rasterizer.render(RenderRequest(badge, size: size)).image.isBlue)
        try rasterizer.cache.flush()
        let restarted = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let fromDisk = try restarted.render(RenderRequest(badge, size: size))
        #expect(fromDisk.origin == .disk && fromDisk.image.isBlue)
    }

    @Test func reloadWithWritesDisabledLeavesTheTiersAlone() throws {
        let ink = Ink()
        let badge = component(ink: ink)
        let rasterizer = Rasterizer()
        _ = try rasterizer.image(for: badge, size: size)
        ink.set(.blue)
        let reloaded = try rasterizer.render(RenderRequest(badge, size: size, options: [.reloadIgnoringCachedData, .disableMemoryCacheWrites]))
        #expect(reloaded.image.isBlue)
        #expect(try rasterizer.render(RenderRequest(badge, size: size)).image.isRed)
    }

    @Test func cacheOnlyLookupsNeverDraw() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let badge = component()
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        #expect(try rasterizer.cachedRender(RenderRequest(badge, size: size)) == nil)
        #expect(badge.draws.count == 0)
        _ = try rasterizer.render(RenderRequest(badge, size: size))
        let hit = try #require(try rasterizer.cachedRender(RenderRequest(badge, size: size)))
        #expect(hit.origin == .memory && hit.key == rasterizer.key(for: badge, size: size))
        try rasterizer.cache.flush()

        let restarted = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let key = restarted.key(for: badge, size: size)
        #expect(try restarted.cachedRender(RenderRequest(badge, size: size, options: .disableMemoryCacheWrites))?.origin == .disk)
        #expect(!restarted.cache.memory.contains(key))
        #expect(try restarted.cachedRender(RenderRequest(badge, size: size))?.origin == .disk)
        #expect(restarted.cache.memory.contains(key))
        // Memory reads disabled: only the disk store counts, and a new rasterizer's has nothing.
        #expect(try restarted.cachedRender(RenderRequest(badge, size: size, options: .disableDiskCacheReads))?.origin == .memory)
        #expect(try Rasterizer().cachedRender(RenderRequest(badge, size: size, options: .disableMemoryCacheReads)) == nil)
        #expect(badge.draws.count == 1)
    }

    @Test func cacheOnlyRequestsThatMayReadNoTierAreATypedError() throws {
        let rasterizer = Rasterizer()
        for options: RenderOptions in [.reloadIgnoringCachedData, [.disableMemoryCacheReads, .disableDiskCacheReads]] {
            #expect {
                try rasterizer.cachedRender(RenderRequest(component(), size: size, options: options))
            } throws: { error in
                guard case RenderError.conflictingOptions(let refused, let reason)? = error as? RenderError else { return false }
                return refused == options && !reason.isEmpty && "\(error)".contains("conflict")
            }
        }
        #expect(rasterizer.statistics.draws == 0)
    }

    @Test func asynchronousRequestsHonourEachOption() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let ink = Ink()
        let badge = component(ink: ink)
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let key = rasterizer.key(for: badge, size: size)
        #expect(try rasterizer.cachedRender(RenderRequest(badge, size: size)) == nil)
        let first = try await rasterizer.render(RenderRequest(badge, size: size, options: [.disableMemoryCacheWrites, .disableDiskCacheWrites], priority: .urgent))
        #expect(first.origin == .drawn && !rasterizer.cache.memory.contains(key))
        try rasterizer.cache.flush()
        #expect(rasterizer.cache.disk?.contains(key) == false)
        #expect(try await rasterizer.render(RenderRequest(badge, size: size, priority: .urgent)).origin == .drawn)
        #expect(try await rasterizer.render(RenderRequest(badge, size: size, priority: .urgent)).origin == .memory)
        ink.set(.blue)
        let reloaded = try await rasterizer.render(RenderRequest(badge, size: size, options: .reloadIgnoringCachedData, priority: .urgent))
        #expect(reloaded.origin == .drawn && reloaded.image.isBlue)
        #expect(try rasterizer.cachedRender(RenderRequest(badge, size: size))?.image.isBlue == true)
        try rasterizer.cache.flush()
        #expect(try await rasterizer.render(RenderRequest(badge, size: size, options: .disableMemoryCacheReads, priority: .urgent)).origin == .disk)
        #expect(badge.draws.count == 3)
    }

    // MARK: Sharing one draw

    @Test func requestsWithDifferentOptionsShareOneDraw() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        let gate = Gate()
        let badge = component(gate: gate)
        let mixes: [RenderOptions] = [[], .disableMemoryCacheWrites, .disableDiskCacheWrites, .disableMemoryCacheReads,
                                      [.disableMemoryCacheWrites, .disableDiskCacheWrites]]
        let origins = try await withThrowingTaskGroup(of: RenderedImage.Origin.self) { group in
            for index in 0..<60 {
                let options = mixes[index % mixes.count]
                group.addTask { try await rasterizer.render(RenderRequest(badge, size: size, options: options, priority: .urgent)).origin }
            }
            // Until every request has joined the draw, not only missed the memory tier: one that
            // missed but had not joined when the gate opened would be served by the tiers instead.
            #expect(await eventually { rasterizer.statistics.misses == 60 && rasterizer.statistics.coalesced == 59 })
            gate.open()
            return try await group.reduce(into: [RenderedImage.Origin]()) { $0.append($1) }
        }
        #expect(badge.draws.count == 1)
        #expect(origins.filter { $0 == .joined }.count == 59 && origins.filter { $0 == .drawn }.count == 1)
        // Some requests wanted each tier written, so both hold it.
        let key = rasterizer.key(for: badge, size: size)
        #expect(rasterizer.cache.memory.contains(key))
        try rasterizer.cache.flush()
        #expect(rasterizer.cache.disk?.contains(key) == true)
    }

    @Test func aRequestJoiningADrawThatSkipsMemoryStillGetsItIntoMemory() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let badge = component(gate: gate)
        let drawing = Task { try await rasterizer.render(RenderRequest(badge, size: size, options: .disableMemoryCacheWrites, priority: .urgent)) }
        #expect(await eventually { gate.arrivals == 1 })
        let joining = Task { try await rasterizer.render(RenderRequest(badge, size: size, priority: .urgent)) }
        #expect(await eventually { rasterizer.statistics.coalesced == 1 })
        gate.open()
        #expect(try await drawing.value.origin == .drawn)
        #expect(try await joining.value.origin == .joined)
        #expect(rasterizer.cache.memory.contains(rasterizer.key(for: badge, size: size)))
        #expect(badge.draws.count == 1)
    }

    @Test func aRequestThatMustNotReadATierJoinsARunningDrawThatDraws() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let badge = component(gate: gate)
        let running = Task { try await rasterizer.render(RenderRequest(badge, size: size, priority: .urgent)) }
        #expect(await eventually { gate.arrivals == 1 })
        let strict = Task { try await rasterizer.render(RenderRequest(badge, size: size, options: .disableMemoryCacheReads, priority: .urgent)) }
        #expect(await eventually { rasterizer.statistics.coalesced == 1 })
        gate.open()
        #expect(try await running.value.origin == .drawn)
        #expect(try await strict.value.origin == .joined)
        #expect(badge.draws.count == 1)
    }

    @Test func aJoinedImageFromADisabledTierIsNotTaken() {
        #expect(!RenderOptions.disableMemoryCacheReads.accepts(.memory))
        #expect(RenderOptions.disableMemoryCacheReads.accepts(.disk))
        #expect(!RenderOptions.disableDiskCacheReads.accepts(.disk))
        #expect(!RenderOptions.reloadIgnoringCachedData.accepts(.memory) && !RenderOptions.reloadIgnoringCachedData.accepts(.disk))
        for origin: RenderedImage.Origin in [.drawn, .joined] {
            #expect(RenderOptions([.reloadIgnoringCachedData, .disableDiskCacheReads]).accepts(origin))
        }
        #expect(RenderOptions().accepts(.memory) && RenderOptions().accepts(.disk))
        // Only a reload stays out of a render already running.
        #expect(RenderPlan([]).serves(.disableMemoryCacheReads) && !RenderPlan([]).serves(.reloadIgnoringCachedData))
    }

    @Test func aReloadRacingANormalRequestDrawsAnewAndWins() async throws {
        let rasterizer = Rasterizer()
        let ink = Ink()
        let draws = Counter()
        let held = Gate()
        let normal = Task { try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws, gate: held), size: size, priority: .urgent)) }
        #expect(await eventually { held.arrivals == 1 })
        ink.set(.blue)
        // Started after the red draw: never joins it.
        let reloaded = try rasterizer.renderHere(RenderRequest(component(ink: ink, draws: draws), size: size, options: .reloadIgnoringCachedData))
        #expect(reloaded.origin == .drawn && reloaded.image.isBlue && draws.count == 2)
        held.open()
        let stale = try await normal.value
        #expect(stale.origin == .drawn && stale.image.isRed)
        // The older draw finished last, but the reload's render is the one kept.
        #expect(try rasterizer.renderHere(RenderRequest(component(ink: ink, draws: draws), size: size)).image.isBlue)
        #expect(draws.count == 2)
    }

    @Test func aNormalRequestJoinsAReloadUnderWayAndTheStaleDrawFinishingFirstStoresNothing() async throws {
        let rasterizer = Rasterizer()
        let ink = Ink()
        let draws = Counter()
        let redGate = Gate(), blueGate = Gate()
        let normal = Task { try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws, gate: redGate), size: size, priority: .urgent)) }
        #expect(await eventually { redGate.arrivals == 1 })
        ink.set(.blue)
        let reload = Task {
            try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws, gate: blueGate), size: size, options: .reloadIgnoringCachedData, priority: .urgent))
        }
        #expect(await eventually { blueGate.arrivals == 1 })
        let joiner = Task { try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws), size: size, priority: .urgent)) }
        #expect(await eventually { rasterizer.statistics.coalesced == 1 })
        redGate.open()
        #expect(try await normal.value.image.isRed)
        let key = rasterizer.key(for: component(ink: ink, draws: draws), size: size)
        #expect(!rasterizer.cache.memory.contains(key))  // the superseded red draw stored nothing
        blueGate.open()
        #expect(try await reload.value.image.isBlue)
        let joined = try await joiner.value
        #expect(joined.origin == .joined && joined.image.isBlue)
        #expect(rasterizer.cache.memory.image(for: key)?.isBlue == true)
        #expect(draws.count == 2)
    }

    @Test func aReloadJoiningAQueuedRenderMakesItIgnoreTheCache() async throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let ink = Ink()
        let draws = Counter()
        let seeding = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        _ = try seeding.image(for: component(ink: ink, draws: draws), size: size)
        try seeding.cache.flush()
        ink.set(.blue)

        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()), maxConcurrentDraws: 1)
        let blocker = Gate()
        let blocking = Task { try await rasterizer.image(for: component("blocker", gate: blocker), size: size, priority: .urgent) }
        #expect(await eventually { blocker.arrivals == 1 })
        let queued = Task { try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws), size: size, priority: .urgent)) }
        #expect(await eventually { rasterizer.statistics.misses == 2 })
        let reload = Task {
            try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws), size: size, options: .reloadIgnoringCachedData, priority: .urgent))
        }
        #expect(await eventually { rasterizer.statistics.coalesced == 1 })
        blocker.open()
        _ = try await blocking.value
        #expect(try await reload.value.image.isBlue)
        #expect(try await queued.value.image.isBlue)  // not the red render on disk
        #expect(draws.count == 2 && rasterizer.statistics.diskHits == 0)
    }

    @Test func aCacheOnlyLookupDoesNotWaitForADrawUnderWay() async throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let badge = component(gate: gate)
        let drawing = Task { try await rasterizer.image(for: badge, size: size, priority: .urgent) }
        #expect(await eventually { gate.arrivals == 1 })
        #expect(try rasterizer.cachedRender(RenderRequest(badge, size: size)) == nil)
        gate.open()
        _ = try await drawing.value
        #expect(try rasterizer.cachedRender(RenderRequest(badge, size: size))?.origin == .memory)
    }

    @Test func manyRacingReloadsAndNormalRequestsEndWithTheNewestInk() async throws {
        let rasterizer = Rasterizer(maxConcurrentDraws: 4)
        let ink = Ink()
        let draws = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                let options: RenderOptions = index % 10 == 0 ? .reloadIgnoringCachedData : []
                group.addTask {
                    let image = try await rasterizer.render(RenderRequest(component(ink: ink, draws: draws), size: size,
                                                                          options: options)).image
                    #expect(image.isRed || image.isBlue)
                }
            }
            try await group.waitForAll()
        }
        // Reloads drew or joined queued renders; normal requests joined or hit memory.
        #expect(draws.count >= 1 && draws.count <= 200)
        ink.set(.blue)
        _ = try rasterizer.renderHere(RenderRequest(component(ink: ink, draws: draws), size: size, options: .reloadIgnoringCachedData))
        #expect(try rasterizer.renderHere(RenderRequest(component(ink: ink, draws: draws), size: size)).image.isBlue)
    }
}
