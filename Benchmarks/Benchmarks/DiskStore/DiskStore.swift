// Issue 5: a disk hit (read + PNG decode) against drawing the same icon, and 10,000 entries of
// about 4 KiB through the SQLite store against a one-file-per-entry directory store written
// for the comparison (temporary file + rename per write, like the store's own durability).
import Benchmark
import BenchmarkSupport
import Foundation
import RasterKit

/// A 96 × 96 point app icon: gradient, shadow, a star and a badge.
struct AppIcon: Rasterizable {
    var tint: Color
    func draw(in canvas: Canvas, size: Size) throws {
        let tile = Rect(size: size).insetBy(dx: 6, dy: 6)
        canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.3), offset: Point(x: 0, y: 3), blur: 6)) {
            canvas.fill(Path(roundedRect: tile, cornerRadius: 20),
                        with: .linearGradient(LinearGradient(gradient: Gradient(colors: [tint, Color(red: 0.1, green: 0.2, blue: 0.5)]),
                                                             start: Point(x: 0, y: tile.minY), end: Point(x: 0, y: tile.maxY))))
        }
        let star = (try? Path(svgPathData: "M48 22l8 17 18 2-13 12 4 18-17-9-17 9 4-18-13-12 18-2z")) ?? Path()
        canvas.fill(star, with: .color(.white))
        canvas.fill(Path(ellipseIn: Rect(x: 62, y: 4, width: 28, height: 28)), with: .color(Color(red: 0.85, green: 0.23, blue: 0.23)))
        canvas.draw(text: "3", in: Rect(x: 62, y: 4, width: 28, height: 28),
                    style: TextStyle(font: "DejaVu Sans Bold 15", color: .white, alignment: .center, verticalAlignment: .center))
    }
}

let appIcon = AppIcon(tint: Color(red: 0.2, green: 0.45, blue: 0.95))

/// A 32 × 32 noisy image, whose PNG is about 4 KiB, for the store comparisons.
struct Blob: Rasterizable {
    var index: Int
    func draw(in canvas: Canvas, size: Size) throws {
        var seed = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1
        for y in 0..<32 { for x in 0..<32 where (x + y) % 3 != 0 {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            canvas.fill(Path(rect: Rect(x: Double(x), y: Double(y), width: 1, height: 1)),
                        with: .color(Color(red: Double(seed & 0xFF) / 255, green: Double((seed >> 8) & 0xFF) / 255,
                                           blue: Double((seed >> 16) & 0xFF) / 255, alpha: 1)))
        } }
    }
}

func scratchDirectory(_ name: String) -> URL { URL(fileURLWithPath: scratchFolder(name)) }

/// 10,000 stored entries and their keys, made once.
final class StoreFixture: @unchecked Sendable {
    static let shared = StoreFixture()
    let keys: [CacheKey]
    let images: [RasterImage]
    let pngs: [Data]

    private init() {
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 0))
        var keys: [CacheKey] = [], images: [RasterImage] = [], pngs: [Data] = []
        for index in 0..<10_000 {
            let blob = Blob(index: index)
            // A Blob's state (one Int) always keys; a failure here is a bug in the fixture.
            guard let key = try? rasterizer.cacheKey(for: blob, size: Size(32)) else { fatalError("Blob \(index) has no key") }
            keys.append(key)
            let image = (try? rasterizer.image(for: blob, size: Size(32))) ?? images.last!
            images.append(image)
            pngs.append((try? image.pngData(compression: .fast)) ?? Data())
        }
        self.keys = keys
        self.images = images
        self.pngs = pngs
    }
}

/// A store holding the app icon, opened once and read through a rasterizer with no memory tier,
/// so that every request is served from disk.
final class HitFixture: @unchecked Sendable {
    static let shared = HitFixture()
    let reading: Rasterizer

    private init() {
        let icon = appIcon
        let store = try! DiskCache(at: scratchDirectory("hit").appendingPathComponent("renders.sqlite"))
        _ = try! Rasterizer(cache: RasterCache(memoryLimit: 0, disk: store)).image(for: icon, size: Size(96), scale: 2)
        try! store.flush()
        reading = Rasterizer(cache: RasterCache(memoryLimit: 0, disk: store))
        _ = try! reading.image(for: icon, size: Size(96), scale: 2)
    }
}

/// A new store holding the first `count` fixture entries, closed.
func closedStore(holding count: Int, purpose: String) throws -> URL {
    let fixture = StoreFixture.shared
    let url = scratchDirectory(purpose).appendingPathComponent("renders.sqlite")
    let writer = try DiskCache(at: url, byteLimit: 1 << 30)
    for (image, key) in zip(fixture.images, fixture.keys).prefix(count) { writer.store(image, for: key) }
    try writer.close()
    return url
}

/// Times opening the store at `url` and closing it again, as each process does once.
func measureOpening(_ url: URL, _ benchmark: Benchmark) throws {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { try DiskCache(at: url, byteLimit: 1 << 30).close() }
    benchmark.stopMeasurement()
}

/// The comparison store: one PNG per entry in 256 folders, written to a temporary name and renamed.
struct FileStore {
    let root: URL
    func path(_ key: CacheKey) -> String { root.path + "/" + key.digest.prefix(2) + "/" + key.digest + ".png" }
    func write(_ data: Data, for key: CacheKey) throws {
        let final = path(key)
        try FileManager.default.createDirectory(atPath: (final as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: final), options: .atomic)
    }
    func read(_ key: CacheKey) -> Data? { FileManager.default.contents(atPath: path(key)) }
}

let benchmarks: @Sendable () -> Void = {
    let icon = appIcon
    let iconSize = Size(96)
    let fast = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(3), maxIterations: 5_000)

    Benchmark("disk hit: 96² pt @2x icon (read + decode)", configuration: fast) { benchmark in
        // An open store, as a running app or CLI has: the first lookup's cost of opening a reader
        // connection is paid once per process, not per hit.
        let reading = HitFixture.shared.reading
        for _ in benchmark.scaledIterations { blackHole(try reading.image(for: icon, size: iconSize, scale: 2)) }
    }
    Benchmark("draw: 96² pt @2x icon (baseline)", configuration: fast) { benchmark in
        let drawing = Rasterizer(cache: RasterCache(memoryLimit: 0))
        for _ in benchmark.scaledIterations { blackHole(try drawing.image(for: icon, size: iconSize, scale: 2)) }
    }

    let bulk = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(20), maxIterations: 5)
    Benchmark("store: write 10,000 × 4 KiB", configuration: bulk) { benchmark in
        let fixture = StoreFixture.shared
        let store = try DiskCache(at: scratchDirectory("write").appendingPathComponent("renders.sqlite"), byteLimit: 1 << 30)
        benchmark.startMeasurement()
        for (image, key) in zip(fixture.images, fixture.keys) { store.store(image, for: key) }
        try store.flush()
        benchmark.stopMeasurement()
    }
    Benchmark("files: write 10,000 × 4 KiB (baseline)", configuration: bulk) { benchmark in
        let fixture = StoreFixture.shared
        let files = FileStore(root: scratchDirectory("files-write"))
        benchmark.startMeasurement()
        // The store encodes PNGs as it writes, so the files do too.
        for (image, key) in zip(fixture.images, fixture.keys) { try files.write(image.pngData(compression: .fast), for: key) }
        benchmark.stopMeasurement()
    }

    let reads = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(20), maxIterations: 20)
    Benchmark("store: read 10,000 × 4 KiB", configuration: reads) { benchmark in
        let fixture = StoreFixture.shared
        let url = try closedStore(holding: fixture.keys.count, purpose: "read")
        let store = try DiskCache(at: url, byteLimit: 1 << 30)
        let order = fixture.keys.shuffled()
        benchmark.startMeasurement()
        for key in order { blackHole(store.pngData(for: key)) }
        benchmark.stopMeasurement()
    }
    // Every process opens the store once (each `rasterkit` run, each test): opening must not
    // read the whole file, whose size CI jobs that restore it let grow to hundreds of MB.
    let opens = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 200)
    Benchmark("store: open and close, 10,000 entries of 4 KiB", configuration: opens) { benchmark in
        try measureOpening(try closedStore(holding: 10_000, purpose: "open-full"), benchmark)
    }
    Benchmark("store: open and close, one entry (baseline)", configuration: opens) { benchmark in
        try measureOpening(try closedStore(holding: 1, purpose: "open-small"), benchmark)
    }
    Benchmark("files: read 10,000 × 4 KiB (baseline)", configuration: reads) { benchmark in
        let fixture = StoreFixture.shared
        let files = FileStore(root: scratchDirectory("files-read"))
        for (png, key) in zip(fixture.pngs, fixture.keys) { try files.write(png, for: key) }
        let order = fixture.keys.shuffled()
        benchmark.startMeasurement()
        for key in order { blackHole(files.read(key)) }
        benchmark.stopMeasurement()
    }
}
