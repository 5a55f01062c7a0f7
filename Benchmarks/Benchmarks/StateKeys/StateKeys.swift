// Issue 3: the cost of a cache key against a naive recursive Mirror walk, memory-cache hits,
// and serving a large nine-slice panel by stretching its minimum-frame render against drawing
// it at full size.
import Benchmark
import Foundation
import RasterKit

/// The component the key benchmark hashes: six state key paths of the kinds UI state is made of.
struct Chip: Rasterizable {
    enum Badge: Sendable { case none, count(Int), label(String) }
    var title: String
    var count: Int
    var isSelected: Bool
    var badge: Badge
    var tint: Color        // a struct of four Doubles
    var subtitle: String?
    var accessibilityHint = "not drawn"

    static let stateKeyPaths: [PartialKeyPath<Chip> & Sendable] = [\.title, \.count, \.isSelected, \.badge, \.tint, \.subtitle]

    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: size.height / 2), with: .color(tint))
    }
}

let chip = Chip(title: "Inbox", count: 12, isSelected: true, badge: .count(3),
                tint: Color(red: 0.18, green: 0.44, blue: 0.92), subtitle: "Updated just now")

/// What a first implementation would do: walk every value with Mirror, describing leaves and
/// types as strings.
func naiveKey(_ component: Chip) -> Int {
    func walk(_ value: Any, into hasher: inout Hasher) {
        let mirror = Mirror(reflecting: value)
        hasher.combine(String(describing: mirror.subjectType))
        if mirror.children.isEmpty {
            hasher.combine(String(describing: value))
            return
        }
        for child in mirror.children {
            hasher.combine(child.label)
            walk(child.value, into: &hasher)
        }
    }
    var hasher = Hasher()
    hasher.combine(String(reflecting: Chip.self))
    for keyPath in Chip.stateKeyPaths { walk(component[keyPath: keyPath], into: &hasher) }
    return hasher.finalize()
}

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

    Benchmark("cache key: 6 state key paths", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(rasterizer.cacheKey(for: chip, size: Size(width: 120, height: 32), scale: 2)) }
    }
    Benchmark("cache key: naive Mirror walk (baseline)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(naiveKey(chip)) }
    }
    Benchmark("memory-cache hit (key + lookup + image)", configuration: fast) { benchmark in
        _ = try rasterizer.image(for: chip, size: Size(width: 120, height: 32), scale: 2)
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.image(for: chip, size: Size(width: 120, height: 32), scale: 2)) }
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
