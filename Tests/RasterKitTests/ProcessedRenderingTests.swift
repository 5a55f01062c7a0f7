import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// `Processed` as a component: its keys, the shared base render, every cache tier, coalescing,
/// nesting and nine-slice.
@Suite struct ProcessedRenderingTests {
    let size = Size(width: 30, height: 20)

    @Test func keysFollowProcessorsAndParameters() {
        let rasterizer = Rasterizer()
        let base = Swatch(color: .red)
        func key(_ processors: any RasterProcessor...) -> CacheKey {
            rasterizer.key(for: Processed(base, processors: processors), size: size, scale: 2)
        }
        let keys = [
            key(),
            key(RasterProcessors.RoundedCorners(radius: 8)),
            key(RasterProcessors.RoundedCorners(radius: 9)),
            key(RasterProcessors.Opacity(0.5)),
            key(RasterProcessors.Opacity(0.5), RasterProcessors.RoundedCorners(radius: 8)),
            key(RasterProcessors.RoundedCorners(radius: 8), RasterProcessors.Opacity(0.5)),
            key(RasterProcessors.GaussianBlur(radius: 2)),
            key(RasterProcessors.GaussianBlur(radius: 2, edges: .extend)),
            key(RasterProcessors.Anonymous(identifier: "tests.a.v1") { $0 }),
            key(RasterProcessors.Anonymous(identifier: "tests.a.v2") { $0 }),
            key(Scaled(factor: 1)),
            key(Scaled(factor: 2)),
            rasterizer.key(for: base, size: size, scale: 2),
            rasterizer.key(for: Swatch(color: .blue).processed(RasterProcessors.RoundedCorners(radius: 8)), size: size, scale: 2),
            rasterizer.key(for: base.processed(RasterProcessors.RoundedCorners(radius: 8)), size: size, scale: 1),
        ]
        #expect(Set(keys).count == keys.count)
        // Equal chains, made separately, share a key; the count-only Swatch field is not state.
        #expect(key(RasterProcessors.RoundedCorners(radius: 8), Scaled(factor: 2))
                == rasterizer.key(for: Swatch(color: .red, draws: Counter())
                                           .processed(RasterProcessors.RoundedCorners(radius: 8)).processed(Scaled(factor: 2)),
                                       size: size, scale: 2))
        #expect(key(RasterProcessors.Anonymous(identifier: "tests.a.v1") { $0 })
                == key(RasterProcessors.Anonymous(identifier: "tests.a.v1") { _ in throw CancellationError() }))
        let described = key(RasterProcessors.RoundedCorners(radius: 8)).description
        #expect(described.contains("rasterkit.roundedCorners.v1"))
    }

    /// A class base is read on every key: its changes give new keys, as for a class component.
    @Test func aClassBaseIsKeyedLive() throws {
        final class Model: Rasterizable, @unchecked Sendable {
            var color: Color = .red
            static let stateKeyPaths: [PartialKeyPath<Model> & Sendable] = [\.color]
            func draw(in canvas: Canvas, size: Size) throws { canvas.fillAll(with: .color(color)) }
        }
        let model = Model()
        let processed = model.processed(RasterProcessors.Opacity(0.5))
        let rasterizer = Rasterizer()
        let before = rasterizer.key(for: processed, size: size, scale: 1)
        #expect(try rasterizer.image(for: processed, size: size, scale: 1).pixel(x: 0, y: 0).red == 255)
        model.color = .blue
        #expect(rasterizer.key(for: processed, size: size, scale: 1) != before)
        #expect(try rasterizer.image(for: processed, size: size, scale: 1).pixel(x: 0, y: 0).blue == 255)
    }

    @Test func keysAreTheSameInSeparateProcesses() throws {
        let first = try Self.probe()
        let second = try Self.probe(environment: ["SWIFT_DETERMINISTIC_HASHING": "1", "LANG": "C"])
        #expect(first.count == 4)
        #expect(Set(first.values).count == 4)
        #expect(first == second)
    }

    static func probe(environment: [String: String] = [:]) throws -> [String: String] {
        let (termination, data, _) = try ChildProcess.run(TestSupport.productsDirectory.appendingPathComponent("RasterKitProbe").path,
                                                          ["processed-digests"], environment: environment)
        #expect(termination == .success)
        var digests: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { digests[String(parts[0])] = String(parts[1]) }
        }
        return digests
    }

    @Test func tenVariantsDrawTheBaseOnce() async throws {
        let draws = Counter()
        let base = Swatch(color: .green, draws: draws)
        let rasterizer = Rasterizer()
        var images: [RasterImage] = []
        for radius in 0..<10 {
            images.append(try rasterizer.image(for: base.processed(RasterProcessors.RoundedCorners(radius: Double(radius))),
                                               size: size, scale: 2))
        }
        #expect(draws.count == 1)
        #expect(rasterizer.statistics.draws == 11)   // the base and ten variants
        #expect(images[9].pixel(x: 0, y: 0).alpha == 0 && images[0].pixel(x: 0, y: 0).alpha == 255)
        // Served from memory afterwards, sync and async alike.
        let again = try rasterizer.renderHere(RenderRequest(base.processed(RasterProcessors.RoundedCorners(radius: 3)), size: size, scale: 2))
        #expect(again.origin == .memory)
        let async = try await rasterizer.image(for: base.processed(RasterProcessors.RoundedCorners(radius: 3)), size: size, scale: 2,
                                              priority: .urgent)
        #expect(async == again.image)
        #expect(draws.count == 1)
    }

    @Test func concurrentRequestsForManyVariantsDrawEachOnce() async throws {
        let baseDraws = Counter()
        let stageRuns = Counter()
        let gate = Gate()
        let base = Swatch(color: .blue, draws: baseDraws)
        let counting = RasterProcessors.Anonymous(identifier: "tests.counting.v1") { image in
            stageRuns.increment()
            gate.pass()
            return image
        }
        let rasterizer = Rasterizer(maxConcurrentDraws: 4)
        let variants = (0..<5).map { base.processed(RasterProcessors.Opacity(Double($0 + 1) / 5), counting) }
        try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for index in 0..<60 {
                group.addTask { try await rasterizer.image(for: variants[index % 5], size: size, scale: 2, priority: .urgent) }
            }
            #expect(await eventually { gate.arrivals >= 1 })
            gate.open()
            var count = 0
            for try await _ in group { count += 1 }
            #expect(count == 60)
        }
        #expect(baseDraws.count == 1)
        #expect(stageRuns.count == 5)
        #expect(rasterizer.statistics.coalesced >= 1)
    }

    @Test func aSecondRasterizerServesProcessedRendersFromDisk() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store.sqlite")
        let draws = Counter()
        let component = Swatch(color: .red, draws: draws)
            .processed(RasterProcessors.Circle(), RasterProcessors.Padding(EdgeInsets(all: 2)))
        let first = Rasterizer(cache: RasterCache(disk: try DiskCache(at: store)))
        let drawn = try first.render(RenderRequest(component, size: size, scale: 2))
        #expect(drawn.origin == .drawn)
        #expect(drawn.image.pixelWidth == 68 && drawn.image.pixelHeight == 48)
        try first.cache.flush()

        let second = Rasterizer(cache: RasterCache(disk: try DiskCache(at: store)))
        let served = try second.render(RenderRequest(component, size: size, scale: 2))
        #expect(served.origin == .disk)
        #expect(served.image == drawn.image)
        #expect(draws.count == 1)
        #expect(second.statistics.draws == 0)
        // Another variant in the second process finds the base on disk.
        let other = try second.render(RenderRequest(Swatch(color: .red, draws: draws).processed(RasterProcessors.Opacity(0.5)), size: size, scale: 2))
        #expect(other.origin == .drawn)
        #expect(draws.count == 1)
    }

    @Test func nestedProcessedChildrenAreCachedUnderTheirKey() throws {
        let draws = Counter()
        let child = Swatch(color: .red, draws: draws).processed(RasterProcessors.Circle())
        struct Parent: Rasterizable {
            var child: Processed<Swatch>
            var offset: Double
            func draw(in canvas: Canvas, size: Size) throws {
                try canvas.draw(child, in: Rect(x: offset, y: 0, width: 20, height: 20))
            }
        }
        let rasterizer = Rasterizer()
        let left = try rasterizer.image(for: Parent(child: child, offset: 0), size: Size(width: 40, height: 20), scale: 2)
        let right = try rasterizer.image(for: Parent(child: child, offset: 20), size: Size(width: 40, height: 20), scale: 2)
        #expect(draws.count == 1)
        #expect(left.pixel(x: 20, y: 20).alpha == 255 && left.pixel(x: 60, y: 20).alpha == 0)
        #expect(right.pixel(x: 60, y: 20).alpha == 255 && right.pixel(x: 0, y: 0).alpha == 0)
        #expect(rasterizer.cache.memory.contains(rasterizer.key(for: child, size: Size(20), scale: 2)))
        // Drawn directly, without a rasterizer, it looks the same.
        let direct = try RasterImage(size: Size(20), scale: 2) { canvas in try child.draw(in: canvas, size: Size(20)) }
        #expect(direct == (try rasterizer.image(for: child, size: Size(20), scale: 2)))
    }

    @Test func stretchableStagesRunOnTheMinimumFrame() throws {
        let draws = Counter()
        let panel = CountingPanel(draws: draws)
        let rasterizer = Rasterizer()
        let tinted = panel.processed(RasterProcessors.Tint(color: .blue), RasterProcessors.Opacity(0.5))
        #expect(tinted.capInsets == panel.capInsets)
        #expect(rasterizer.key(for: tinted, size: Size(width: 100, height: 40), scale: 2)
                == rasterizer.key(for: tinted, size: Size(width: 300, height: 60), scale: 2))
        let small = try rasterizer.image(for: tinted, size: Size(width: 100, height: 40), scale: 2)
        #expect(small.capInsets == panel.capInsets)
        #expect(small.size == panel.capInsets!.minimumFrame)
        let stretched = try small.stretched(to: Size(width: 300, height: 60))
        #expect(stretched.pixelWidth == 600)
        #expect(stretched.pixel(x: 300, y: 60).isClose(to: RGBA8(red: 0, green: 0, blue: 255, alpha: 128), tolerance: 1))

        // Rounded corners need the final pixels: keyed by size, run after stretching.
        let rounded = panel.processed(RasterProcessors.Tint(color: .blue), RasterProcessors.RoundedCorners(radius: 10))
        #expect(rounded.capInsets == nil)
        #expect(rasterizer.key(for: rounded, size: Size(width: 100, height: 40), scale: 2)
                != rasterizer.key(for: rounded, size: Size(width: 300, height: 60), scale: 2))
        let full = try rasterizer.image(for: rounded, size: Size(width: 300, height: 60), scale: 2)
        #expect(full.pixelWidth == 600 && full.pixelHeight == 120 && full.capInsets == nil)
        #expect(full.pixel(x: 0, y: 0).alpha == 0 && full.pixel(x: 300, y: 60).blue == 255)
        #expect(draws.count == 1)
    }

    @Test func failingStagesFailTheRenderAndAreNotCached() throws {
        let rasterizer = Rasterizer()
        let runs = Counter()
        let failing = Swatch(color: .red).processed(RasterProcessors.Anonymous(identifier: "tests.failing.v1") { _ in
            runs.increment()
            throw ProcessorError.invalidParameter(processor: "failing", parameter: "x", value: "1", expected: "0")
        })
        for _ in 0..<2 {
            #expect(throws: RenderError.self) { try rasterizer.image(for: failing, size: size, scale: 1) }
        }
        #expect(runs.count == 2)
        #expect(rasterizer.statistics.failures == 2)
    }
}

/// A processor with a stored parameter, keyed automatically like component state.
struct Scaled: RasterProcessor {
    var factor: Double
    var identifier: String { "tests.scaled.v1" }
    func process(_ image: RasterImage) throws -> RasterImage { try image.withScale(image.scale * factor) }
}

/// A nine-slice panel drawn in red, counting its draws.
struct CountingPanel: Rasterizable {
    var draws: Counter?
    static let stateKeyPaths: [PartialKeyPath<CountingPanel> & Sendable] = []
    var capInsets: EdgeInsets? { EdgeInsets(all: 6) }
    func draw(in canvas: Canvas, size: Size) throws {
        draws?.increment()
        canvas.fillAll(with: .color(.red))
    }
}
