import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// `fallback(_:)`: a failing primary serves the secondary, is never cached under its key, and
/// is retried once its negative entry expires.
@Suite struct FallbackTests {
    let size = Size(width: 24, height: 16)

    /// Fails while `failing` holds, counting its attempts.
    struct Flaky: Rasterizable {
        struct Broken: Error, Equatable {}
        var name: String
        var failing: Flag
        var attempts: Counter
        static let stateKeyPaths: [PartialKeyPath<Flaky> & Sendable] = [\.name]
        func draw(in canvas: Canvas, size: Size) throws {
            attempts.increment()
            if failing.value { throw Broken() }
            canvas.fillAll(with: .color(.green))
        }
    }

    @Test func aFailingPrimaryServesTheSecondary() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try DiskCache(at: directory.appendingPathComponent("store.sqlite"))
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let primary = Flaky(name: "photo", failing: Flag(true), attempts: Counter())
        let avatar = primary.fallback(Swatch(color: .blue))
        let rendered = try rasterizer.render(RenderRequest(avatar, size: size, scale: 2))
        #expect(rendered.origin == .fallback)
        #expect(rendered.image == (try rasterizer.image(for: Swatch(color: .blue), size: size, scale: 2)))
        #expect(rendered.image.pixelWidth == 48 && rendered.image.pixelHeight == 32)
        guard case RenderError.drawFailed(_, _, let underlying)? = rendered.fallbackError else {
            Issue.record("no error kept: \(String(describing: rendered.fallbackError))")
            return
        }
        #expect(underlying is Flaky.Broken)
        let statistics = rasterizer.statistics
        #expect(statistics.fallbacks == 1 && statistics.failures == 1)

        // Nothing under the primary's key or the pair's, in memory or on disk.
        try rasterizer.cache.flush()
        for key in [rasterizer.key(for: primary, size: size, scale: 2), rasterizer.key(for: avatar, size: size, scale: 2)] {
            #expect(!disk.contains(key))
            #expect(!rasterizer.cache.memory.contains(key))
        }
        #expect(disk.contains(rasterizer.key(for: Swatch(color: .blue), size: size, scale: 2)))
    }

    @Test func thePrimaryIsRetriedOnlyAfterItsNegativeEntryExpires() throws {
        let rasterizer = Rasterizer()
        let failing = Flag(true)
        let attempts = Counter()
        let avatar = Flaky(name: "photo", failing: failing, attempts: attempts).fallback(Swatch(color: .blue), retryAfter: 0.5)
        for _ in 0..<5 {
            #expect(try rasterizer.render(RenderRequest(avatar, size: size, scale: 1)).origin == .fallback)
        }
        #expect(attempts.count == 1)
        #expect(rasterizer.statistics.fallbacks == 5)

        // Still failing after the interval: tried once more, then left alone again.
        Thread.sleep(forTimeInterval: 0.6)
        #expect(try rasterizer.render(RenderRequest(avatar, size: size, scale: 1)).origin == .fallback)
        #expect(try rasterizer.render(RenderRequest(avatar, size: size, scale: 1)).origin == .fallback)
        #expect(attempts.count == 2)

        // Recovered: the next attempt after the interval draws it, and it is cached from then on.
        failing.value = false
        Thread.sleep(forTimeInterval: 0.6)
        let recovered = try rasterizer.render(RenderRequest(avatar, size: size, scale: 1))
        #expect(recovered.origin == .drawn && recovered.fallbackError == nil)
        #expect(recovered.image.pixel(x: 3, y: 3).green == 255)
        #expect(try rasterizer.render(RenderRequest(avatar, size: size, scale: 1)).origin == .memory)
        #expect(attempts.count == 3)
    }

    @Test func aWorkingPrimaryIsServedAndCachedUnderItsOwnKey() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try DiskCache(at: directory.appendingPathComponent("store.sqlite"))
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let secondaryDraws = Counter()
        let primary = Flaky(name: "ok", failing: Flag(false), attempts: Counter())
        let avatar = primary.fallback(Swatch(color: .blue, draws: secondaryDraws))
        #expect(try rasterizer.render(RenderRequest(avatar, size: size, scale: 2)).origin == .drawn)
        #expect(try rasterizer.render(RenderRequest(avatar, size: size, scale: 2)).origin == .memory)
        try rasterizer.cache.flush()
        #expect(disk.contains(rasterizer.key(for: primary, size: size, scale: 2)))
        #expect(!disk.contains(rasterizer.key(for: avatar, size: size, scale: 2)))
        #expect(secondaryDraws.count == 0)
    }

    @Test func realFailuresFallBack() throws {
        let rasterizer = Rasterizer(limits: ResourceLimits(pixels: PixelLimits(maximumSide: 256, maximumPixelCount: 65_536)))
        // A document librsvg cannot read.
        let badSVG = SVGFromData(data: Data("<svg xmlns='http://www.w3.org/2000/svg'><rect".utf8))
        // A stage whose result is over the pixel limits.
        let tooLarge = Swatch(color: .red).processed(RasterProcessors.Resize(size: Size(1_000)))
        // A file that is not there, read inside draw.
        let missing = MissingFile(path: "/nonexistent/rasterkit/photo.png")
        let renders = [
            try rasterizer.render(RenderRequest(badSVG.fallback(Swatch(color: .blue)), size: size, scale: 2)),
            try rasterizer.render(RenderRequest(tooLarge.fallback(Swatch(color: .blue)), size: size, scale: 2)),
            try rasterizer.render(RenderRequest(missing.fallback(Swatch(color: .blue)), size: size, scale: 2)),
        ]
        for rendered in renders {
            #expect(rendered.origin == .fallback)
            #expect(rendered.fallbackError != nil)
            #expect(rendered.image.pixel(x: 1, y: 1).blue == 255)
        }
    }

    @Test func aFailingSecondaryFailsTheRender() {
        let rasterizer = Rasterizer()
        let both = Flaky(name: "a", failing: Flag(true), attempts: Counter())
            .fallback(Flaky(name: "b", failing: Flag(true), attempts: Counter()))
        #expect(throws: RenderError.self) { try rasterizer.image(for: both, size: size, scale: 1) }
    }

    @Test func aParentWithAFallbackInsideIsNotCached() throws {
        struct Card: Rasterizable {
            var avatar: Fallback<Flaky, Swatch>
            func draw(in canvas: Canvas, size: Size) throws {
                canvas.fillAll(with: .color(.white))
                try canvas.draw(avatar, in: Rect(x: 4, y: 4, width: 8, height: 8))
            }
        }
        let rasterizer = Rasterizer()
        let failing = Flag(true)
        let card = Card(avatar: Flaky(name: "p", failing: failing, attempts: Counter()).fallback(Swatch(color: .blue), retryAfter: 0.3))
        let first = try rasterizer.render(RenderRequest(card, size: size, scale: 1))
        #expect(first.origin == .fallback && first.fallbackError != nil)
        #expect(first.image.pixel(x: 6, y: 6).blue == 255)
        #expect(try rasterizer.render(RenderRequest(card, size: size, scale: 1)).origin == .fallback)
        failing.value = false
        Thread.sleep(forTimeInterval: 0.4)
        let recovered = try rasterizer.render(RenderRequest(card, size: size, scale: 1))
        #expect(recovered.origin == .drawn)
        #expect(recovered.image.pixel(x: 6, y: 6).green == 255)
    }

    @Test func processedFallbacksAndAsyncRequests() async throws {
        let rasterizer = Rasterizer()
        let avatar = Flaky(name: "p", failing: Flag(true), attempts: Counter())
            .fallback(Swatch(color: .blue)).processed(RasterProcessors.Circle())
        let image = try await rasterizer.image(for: avatar, size: Size(20), scale: 2, priority: .urgent)
        #expect(image.pixel(x: 20, y: 20).blue == 255 && image.pixel(x: 0, y: 0).alpha == 0)
        #expect(!rasterizer.cache.memory.contains(rasterizer.key(for: avatar, size: Size(20), scale: 2)))
        #expect(rasterizer.statistics.fallbacks == 1)
    }

    @Test func concurrentRequestsShareOneAttempt() async throws {
        let attempts = Counter()
        let rasterizer = Rasterizer(maxConcurrentDraws: 4)
        let avatar = Flaky(name: "p", failing: Flag(true), attempts: attempts).fallback(Swatch(color: .blue))
        try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<40 { group.addTask { try await rasterizer.image(for: avatar, size: size, scale: 1, priority: .urgent) } }
            for try await image in group { #expect(image.pixel(x: 0, y: 0).blue == 255) }
        }
        #expect(attempts.count == 1)
    }

    @Test func nineSlicePairsStayStretchableWhenBothHaveTheCaps() throws {
        struct Caps: Rasterizable {
            var failing: Bool
            var color: Color
            var capInsets: EdgeInsets? { EdgeInsets(all: 4) }
            func draw(in canvas: Canvas, size: Size) throws {
                if failing { throw Flaky.Broken() }
                canvas.fillAll(with: .color(color))
            }
        }
        let rasterizer = Rasterizer()
        let pair = Caps(failing: true, color: .red).fallback(Caps(failing: false, color: .blue))
        #expect(pair.capInsets == EdgeInsets(all: 4))
        let rendered = try rasterizer.render(RenderRequest(pair, size: Size(width: 100, height: 30), scale: 2))
        #expect(rendered.origin == .fallback)
        #expect(rendered.image.size == Size(width: 9, height: 9) && rendered.image.capInsets == EdgeInsets(all: 4))
        #expect(try rendered.image.stretched(to: Size(width: 100, height: 30)).pixel(x: 100, y: 30).blue == 255)
        // Different caps: served at the size asked for.
        let mixed = Caps(failing: true, color: .red).fallback(Swatch(color: .blue))
        #expect(mixed.capInsets == nil)
        let full = try rasterizer.render(RenderRequest(mixed, size: Size(width: 100, height: 30), scale: 2))
        #expect(full.image.pixelWidth == 200 && full.image.pixelHeight == 60)
    }

    @Test func theHostShowsTheFallbackAndKeepsTheError() async throws {
        let rasterizer = Rasterizer()
        let host = RasterHost(component: Flaky(name: "p", failing: Flag(true), attempts: Counter()).fallback(Swatch(color: .blue)),
                              size: size, scale: 1, rasterizer: rasterizer)
        await host.settle()
        #expect(host.image?.pixel(x: 0, y: 0).blue == 255)
        #expect(host.lastError != nil)
        let synchronous = RasterHost(component: Flaky(name: "q", failing: Flag(true), attempts: Counter()).fallback(Swatch(color: .blue)),
                                     size: size, scale: 1, rasterizer: rasterizer, drawsSynchronously: true)
        #expect(synchronous.lastError != nil)
        let live = RasterHost(component: Flaky(name: "r", failing: Flag(true), attempts: Counter()).fallback(Swatch(color: .blue)),
                              size: size, scale: 1, rasterizer: rasterizer, drawsSynchronously: true, isRasterized: false)
        #expect(live.lastError != nil && live.image != nil)
        // The error comes with the image, however long after the draw the host gets to it: with
        // no retry interval the failure is forgotten at once, and still shown.
        for synchronously in [false, true] {
            let forgetful = RasterHost(component: Flaky(name: "s", failing: Flag(true), attempts: Counter())
                                           .fallback(Swatch(color: .blue), retryAfter: 0),
                                       size: size, scale: 1, rasterizer: rasterizer, drawsSynchronously: synchronously)
            await forgetful.settle()
            #expect(forgetful.image?.pixel(x: 0, y: 0).blue == 255)
            #expect(forgetful.lastError != nil)
        }
    }
}

/// A mutable flag shared with a component.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool
    init(_ value: Bool) { stored = value }
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Reads a file while drawing.
struct MissingFile: Rasterizable {
    var path: String
    func draw(in canvas: Canvas, size: Size) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        canvas.draw(try RasterImage(pngData: data), in: Rect(size: size))
    }
}

/// Reads its SVG document when drawn, as a component loading user files would.
struct SVGFromData: Rasterizable {
    var data: Data
    func draw(in canvas: Canvas, size: Size) throws {
        try SVGImage(try SVGDocument(data: data)).draw(in: canvas, size: size)
    }
}
