import Foundation
import Logging
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A store in a fresh temporary directory, with a clock the test moves and a log it reads.
struct DiskFixture {
    let directory: URL
    let clock = TestClock()
    let log = LogCapture()

    init(_ name: String = #function) throws {
        directory = try TestSupport.temporaryDirectory("disk-" + name)
    }

    var url: URL { directory.appendingPathComponent("renders.sqlite") }

    /// Options with the fixture's clock and log; batches wait `interval` unless flushed.
    func options(batchSize: Int = 64, interval: TimeInterval = 60) -> DiskCacheOptions {
        var options = DiskCacheOptions()
        options.batchSize = batchSize
        options.batchInterval = interval
        let clock = clock
        options.clock = { clock.now }
        options.logger = log.logger
        return options
    }

    func open(byteLimit: Int = DiskCache.defaultByteLimit, lifetime: TimeInterval = DiskCache.defaultLifetime,
              options: DiskCacheOptions? = nil) throws -> DiskCache {
        try DiskCache(at: url, byteLimit: byteLimit, defaultLifetime: lifetime, options: options ?? self.options())
    }

    /// Files in the directory, sorted.
    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Unix time the test controls.
final class TestClock: Sendable {
    private let time = Lock(1_700_000_000.0)
    var now: Double { time.withLock { $0 } }
    func advance(by seconds: Double) { time.withLock { $0 += seconds } }
}

/// Keeps what a logger was asked to log.
final class LogCapture: Sendable {
    private let entries = Lock<[(level: Logger.Level, message: String)]>([])

    var logger: Logger {
        Logger(label: "RasterKit.DiskCache.test") { _ in Handler(capture: self) }
    }

    var warnings: [String] { entries.withLock { $0.filter { $0.level >= .warning }.map(\.message) } }

    /// Every message at any level, with its metadata.
    var messages: [String] { entries.withLock { $0.map(\.message) } }

    fileprivate func append(_ level: Logger.Level, _ message: String) {
        entries.withLock { $0.append((level, message)) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .trace

        func log(event: LogEvent) {
            let details = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            capture.append(event.level, ([event.message.description] + details).joined(separator: " "))
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
    }
}

/// A resizable component, to check that scale and cap insets survive the store.
struct StoredPanel: Rasterizable {
    var tint: Color
    let draws: Counter
    static let stateKeyPaths: [PartialKeyPath<StoredPanel> & Sendable] = [\.tint]
    var capInsets: EdgeInsets? { EdgeInsets(top: 4, left: 6, bottom: 4, right: 6) }

    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 3), with: .color(tint))
    }
}

/// The basics: what is stored comes back, in this process and the next.
@Suite struct DiskCacheTests {
    @Test func aRestartedRasterizerServesFromDiskWithoutDrawing() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let size = Size(width: 24, height: 16)
        let components = ["a", "b", "c"].map { Counted(label: $0, color: .blue, draws: Counter()) }
        var originals: [RasterImage] = []
        do {
            let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
            for component in components { originals.append(try rasterizer.image(for: component, size: size, scale: 2)) }
            #expect(rasterizer.statistics.draws == 3)
            try rasterizer.cache.flush()
        }
        // A new disk cache and rasterizer on the same file, as after a restart.
        let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        for (component, original) in zip(components, originals) {
            let rendered = try rasterizer.render(RenderRequest(component, size: size, scale: 2))
            #expect(rendered.origin == .disk)
            #expect(rendered.image.scale == 2 && rendered.image.pixelWidth == 48)
            #expect(rendered.image.allPixels == original.allPixels)
        }
        #expect(components.allSatisfy { $0.draws.count == 1 }, "drawn by the first rasterizer only")
        #expect(try rasterizer.render(RenderRequest(components[0], size: size, scale: 2)).origin == .memory)
        let statistics = rasterizer.statistics
        #expect(statistics.draws == 0 && statistics.diskHits == 3)
        #expect(statistics.memoryHits == 1 && rasterizer.cache.memory.statistics.hits == 1)
    }

    @Test func scaleAndCapInsetsSurviveTheStore() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let panel = StoredPanel(tint: .red, draws: Counter())
        let drawn = try Rasterizer(cache: RasterCache(disk: try fixture.open())).image(for: panel, size: Size(width: 80, height: 30), scale: 3)
        let disk = try fixture.open()
        let rendered = try Rasterizer(cache: RasterCache(disk: disk)).render(RenderRequest(panel, size: Size(width: 200, height: 30), scale: 3))
        #expect(rendered.origin == .disk && panel.draws.count == 1)
        #expect(rendered.image.capInsets == EdgeInsets(top: 4, left: 6, bottom: 4, right: 6))
        #expect(rendered.image.scale == 3 && rendered.image.allPixels == drawn.allPixels)
        let info = try #require(try disk.entries(typeName: rendered.key.typeName).first)
        #expect(info.capInsets == EdgeInsets(top: 4, left: 6, bottom: 4, right: 6) && info.scale == 3)
        #expect(info.pixelWidth == drawn.pixelWidth && info.pixelHeight == drawn.pixelHeight)
    }

    @Test func pendingEntriesAreServedBeforeTheyAreWritten() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let image = try TestSupport.solidImage(.green, scale: 2)
        let key = Rasterizer().key(for: Counted(label: "pending", draws: Counter()), size: Size(4), scale: 2)
        disk.store(image, for: key)
        #expect(try disk.statistics.pendingWrites == 1)
        #expect(try disk.statistics.count == 0)
        #expect(disk.contains(key))
        #expect(disk.image(for: key)?.allPixels == image.allPixels)
        try disk.flush()
        let statistics = try disk.statistics
        #expect(statistics.pendingWrites == 0 && statistics.count == 1 && statistics.writes == 1)
        #expect(statistics.hits == 1 && statistics.totalBytes > 0)
        #expect(disk.image(for: key)?.allPixels == image.allPixels)
        #expect(try RasterImage(pngData: #require(disk.pngData(for: key))).allPixels == image.allPixels)
    }

    @Test func writesAreBatchedByCount() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open(options: fixture.options(batchSize: 4, interval: 60))
        let image = try TestSupport.solidImage(.red)
        let rasterizer = Rasterizer()
        for index in 0..<3 { disk.store(image, for: rasterizer.key(for: Counted(label: "\(index)", draws: Counter()), size: Size(4))) }
        usleep(100_000)
        #expect(try disk.statistics.writes == 0, "three of four entries wait for the batch")
        disk.store(image, for: rasterizer.key(for: Counted(label: "3", draws: Counter()), size: Size(4)))
        #expect(Gate.wait { (try? disk.statistics.writes) == 4 })
        #expect(try disk.statistics.count == 4)
    }

    @Test func writesAreBatchedByTime() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open(options: fixture.options(batchSize: 1000, interval: 0.05))
        let key = Rasterizer().key(for: Counted(label: "timed", draws: Counter()), size: Size(4))
        disk.store(try TestSupport.solidImage(.red), for: key)
        #expect(Gate.wait { (try? disk.statistics.writes) == 1 })
    }

    @Test func rendersBeyondTheQueueLimitAreDroppedAndCounted() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        var options = fixture.options()
        let image = try TestSupport.solidImage(.red, width: 8, height: 8)
        options.maximumQueuedBytes = image.byteCount * 2
        let disk = try fixture.open(options: options)
        let rasterizer = Rasterizer()
        let keys = (0..<3).map { rasterizer.key(for: Counted(label: "queued\($0)", draws: Counter()), size: Size(8)) }
        for key in keys { disk.store(image, for: key) }
        #expect(try disk.statistics.writeFailures == 1 && disk.statistics.pendingWrites == 2)
        #expect(fixture.log.warnings.contains { $0.contains("too many renders") })
        try disk.flush()
        // Once written, the queue has room again.
        disk.store(image, for: keys[2])
        try disk.flush()
        #expect(keys.allSatisfy(disk.contains))
    }

    @Test func closingAndDeinitWriteEverythingPending() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let rasterizer = Rasterizer()
        let first = rasterizer.key(for: Counted(label: "closed", draws: Counter()), size: Size(4))
        let second = rasterizer.key(for: Counted(label: "released", draws: Counter()), size: Size(4))
        let disk = try fixture.open()
        disk.store(try TestSupport.solidImage(.red), for: first)
        try disk.close()
        try disk.close()
        #expect(!disk.contains(first) && disk.image(for: first) == nil)
        #expect(throws: DiskCacheError.self) { _ = try disk.statistics }
        do {
            let released = try fixture.open()
            released.store(try TestSupport.solidImage(.red), for: second)
        }
        let reopened = try fixture.open()
        #expect(reopened.contains(first) && reopened.contains(second))
    }

    @Test func entriesDescribeTheirRenders() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let rendered = try rasterizer.render(RenderRequest(Counted(label: "described", draws: Counter()), size: Size(width: 10, height: 6), scale: 2))
        fixture.clock.advance(by: 100)
        let entries = try disk.entries(typeName: rendered.key.typeName)
        let entry = try #require(entries.first { $0.digest == rendered.key.digest })
        #expect(entry.typeName == rendered.key.typeName && entry.renderVersion == 0)
        #expect(entry.keyDescription == rendered.key.description && entry.keyDescription.contains("label: described"))
        #expect(entry.pixelWidth == 20 && entry.pixelHeight == 12 && entry.scale == 2 && entry.capInsets == nil)
        #expect(entry.byteSize > 0 && entry.children.isEmpty)
        #expect(entry.created.timeIntervalSince1970 == fixture.clock.now - 100)
        #expect(entry.expires.timeIntervalSince(entry.created) == DiskCache.defaultLifetime)
        #expect(entry.lastAccess == entry.created)
    }

    @Test func hitsUpdateLastAccessInTheNextBatch() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let key = Rasterizer().key(for: Counted(label: "touched", draws: Counter()), size: Size(4))
        disk.store(try TestSupport.solidImage(.red), for: key)
        try disk.flush()
        let created = fixture.clock.now
        fixture.clock.advance(by: 60)
        #expect(disk.image(for: key) != nil)
        fixture.clock.advance(by: 60)
        #expect(disk.pngData(for: key) != nil)
        // Not written per hit: another connection still sees the creation time...
        let observer = try fixture.open()
        #expect(try observer.entries(olderThan: 0).first?.lastAccess.timeIntervalSince1970 == created)
        // ...until the writer's next batch, which writes the latest hit.
        try disk.flush()
        #expect(try observer.entries(olderThan: 0).first?.lastAccess.timeIntervalSince1970 == created + 120)
        #expect(try disk.statistics.hits == 2)
    }

    @Test func hitsWithinTheTouchIntervalAreNotWrittenAgain() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let disk = try fixture.open()
        let key = Rasterizer().key(for: Counted(label: "hot", draws: Counter()), size: Size(4))
        disk.store(try TestSupport.solidImage(.red), for: key)
        try disk.flush()
        let created = fixture.clock.now
        for _ in 0..<5 {
            fixture.clock.advance(by: 10)
            #expect(disk.image(for: key) != nil)
        }
        try disk.flush()
        // Fifty seconds of hits, all within a minute of the last recorded access: nothing written.
        #expect(try disk.entries(olderThan: 0).first?.lastAccess.timeIntervalSince1970 == created)
        fixture.clock.advance(by: 10)
        #expect(disk.image(for: key) != nil)
        try disk.flush()
        #expect(try disk.entries(olderThan: 0).first?.lastAccess.timeIntervalSince1970 == created + 60)
    }

    @Test func theDefaultStoreFollowsXDGCacheHome() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xdg = directory.appendingPathComponent("xdg")
        let run = try DiskProbe.run(["store-default"], environment: ["XDG_CACHE_HOME": xdg.path])
        let expected = xdg.appendingPathComponent("rasterkit/renders.sqlite").path
        #expect(run.status == 0 && run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
        #expect(FileManager.default.fileExists(atPath: expected))

        // A relative XDG_CACHE_HOME is ignored, as the XDG spec says: ~/.cache is used.
        let home = directory.appendingPathComponent("home")
        let fallback = try DiskProbe.run(["store-default"], environment: ["XDG_CACHE_HOME": "relative", "HOME": home.path])
        #expect(fallback.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            == home.appendingPathComponent(".cache/rasterkit/renders.sqlite").path)
    }
}
