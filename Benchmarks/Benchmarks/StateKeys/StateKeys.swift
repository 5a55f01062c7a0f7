// Issues 3, 15 and 40: the cost of a cache key of components whose state is made of the user's own
// types, against a naive recursive Mirror walk and against hand-written `StateHashable`;
// memory-cache hits on one and two threads; and serving a large nine-slice panel by stretching
// its minimum-frame render against drawing it at full size. The components are in UserTypes.swift.
import Benchmark
import Foundation
import RasterKit

/// A 1000 × 1000 point panel at 2x: rounded, bordered, with a soft drop shadow inside its frame.
struct BigPanel: Rasterizable {
    var fullSize: Bool
    static let stateKeyPaths: [PartialKeyPath<BigPanel> & Sendable] = [\.fullSize]
    var capInsets: EdgeInsets? { EdgeInsets(all: 28) }
    var usesMinimumFrameForCaps: Bool { !fullSize }

    func draw(in canvas: Canvas, size: Size) throws {
        let body = Rect(size: size).insetBy(dx: 10, dy: 10)
        let shape = Path(roundedRect: body, cornerRadius: 14)
        canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.25), offset: Point(x: 0, y: 3), blur: 8)) {
            canvas.fill(shape, with: .color(.white))
        }
        canvas.drawInnerShadow(Shadow(color: Color(white: 0, alpha: 0.06), offset: Point(x: 0, y: 1), blur: 3), in: shape)
        canvas.stroke(shape, with: .color(Color(white: 0.85)), style: StrokeStyle(width: 1))
    }
}

let benchmarks: @Sendable () -> Void = {
    let fast = Benchmark.Configuration(metrics: [.wallClock, .throughput, .instructions], scalingFactor: .kilo, maxDuration: .seconds(2))
    let rasterizer = Rasterizer()
    let size = Size(width: 120, height: 32)

    Benchmark("cache key: 6 state key paths of user types", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.cacheKey(for: userBadge, size: size, scale: 2)) }
    }
    Benchmark("cache key: 6 state key paths, hand-written StateHashable (baseline)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.cacheKey(for: handBadge, size: size, scale: 2)) }
    }
    Benchmark("cache key: naive Mirror walk of the 6 key paths (baseline)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(naiveKey(userBadge)) }
    }
    Benchmark("cache key: nested user structs, collections, enum, class", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.cacheKey(for: chartCard, size: size, scale: 2)) }
    }
    Benchmark("cache key: naive Mirror walk of the nested state (baseline)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(naiveKey(chartCard)) }
    }
    Benchmark("cache key: shared-reference lattice of 40 levels", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.cacheKey(for: lattice, size: size, scale: 2)) }
    }
    Benchmark("memory-cache hit (key + lookup + image)", configuration: fast) { benchmark in
        _ = try rasterizer.image(for: userBadge, size: size, scale: 2)
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.image(for: userBadge, size: size, scale: 2)) }
    }

    // The same number of hits, on one thread and split over two: the ratio of their times is
    // how hits scale. Both threads ask for the same component value, as requests for one
    // popular badge would.
    let hits = 200_000
    let threaded = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(3), maxIterations: 40)
    for threads in [1, 2] {
        Benchmark("memory-cache hits: \(hits) on \(threads) thread\(threads == 1 ? "" : "s")", configuration: threaded) { benchmark in
            _ = try rasterizer.image(for: userBadge, size: size, scale: 2)
            benchmark.startMeasurement()
            onThreads(threads) { _ in
                for _ in 0..<(hits / threads) { blackHole(try? rasterizer.image(for: userBadge, size: size, scale: 2)) }
            }
            benchmark.stopMeasurement()
        }
    }

    let panelMetrics = Benchmark.Configuration(metrics: [.wallClock, .throughput, .custom("cached bytes", useScalingFactor: false)],
                                               maxDuration: .seconds(3), maxIterations: 300)
    let panelSize = Size(1_000)
    Benchmark("nine-slice panel 1000² pt @2x: stretch minimum frame", configuration: panelMetrics) { benchmark in
        let cached = try rasterizer.image(for: BigPanel(fullSize: false), size: panelSize, scale: 2)
        benchmark.measurement(.custom("cached bytes", useScalingFactor: false), cached.byteCount)
        for _ in benchmark.scaledIterations {
            blackHole(try rasterizer.image(for: BigPanel(fullSize: false), size: panelSize, scale: 2).stretched(to: panelSize))
        }
    }
    Benchmark("nine-slice panel 1000² pt @2x: draw at full size (baseline)", configuration: panelMetrics) { benchmark in
        let fresh = Rasterizer(cache: RasterCache(memoryLimit: 0))
        var bytes = 0
        for _ in benchmark.scaledIterations {
            let image = try fresh.image(for: BigPanel(fullSize: true), size: panelSize, scale: 2)
            bytes = image.byteCount
            blackHole(image)
        }
        benchmark.measurement(.custom("cached bytes", useScalingFactor: false), bytes)
    }
}
