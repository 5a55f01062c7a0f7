// Issue 4: 1,000 concurrent requests over 100 keys against the ideal (the 100 draws' total time
// divided by the cores), and the cost each coalesced waiter adds.
import Benchmark
import Foundation
import RasterKit

/// A draw of a few milliseconds, like a real component with text and a shadow.
struct Tile: Rasterizable {
    var index: Int
    var run: Int
    static let stateKeyPaths: [PartialKeyPath<Tile> & Sendable] = [\.index, \.run]

    func draw(in canvas: Canvas, size: Size) throws {
        let card = Rect(size: size).insetBy(dx: 12, dy: 12)
        canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.25), offset: Point(x: 0, y: 2), blur: 8)) {
            canvas.fill(Path(roundedRect: card, cornerRadius: 12),
                        with: .color(Color(red: Double(index % 10) / 10, green: 0.5, blue: 0.8)))
        }
        canvas.draw(text: "Tile \(index)", in: card, style: TextStyle(font: "DejaVu Sans Bold 20", color: .white,
                                                                     alignment: .center, verticalAlignment: .center))
    }
}

let tileSize = Size(width: 240, height: 120)
let cores = ProcessInfo.processInfo.activeProcessorCount

/// Distinct keys per benchmark iteration, so every iteration draws cold.
final class RunCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
let runs = RunCounter()

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(5), maxIterations: 50)

    Benchmark("scheduler: 1000 concurrent requests over 100 keys", configuration: configuration) { benchmark in
        let run = runs.next()
        let rasterizer = Rasterizer()
        benchmark.startMeasurement()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 0..<1_000 {
                group.addTask { _ = try await rasterizer.image(for: Tile(index: request % 100, run: run), size: tileSize, scale: 2, priority: .urgent) }
            }
            try await group.waitForAll()
        }
        benchmark.stopMeasurement()
    }
    Benchmark("scheduler: ideal, 100 draws serially ÷ cores (baseline)", configuration: configuration) { benchmark in
        let run = runs.next()
        let rasterizer = Rasterizer()
        benchmark.startMeasurement()
        for index in 0..<100 { _ = try rasterizer.image(for: Tile(index: index, run: run), size: tileSize, scale: 2) }
        benchmark.stopMeasurement()
    }

    // One draw with 1 request, and the same draw with 1 + 1,000 coalesced waiters.
    let waiters = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(5), maxIterations: 200)
    for count in [0, 1_000] {
        Benchmark("coalescing: one draw, \(count) extra waiters", configuration: waiters) { benchmark in
            let run = runs.next()
            let rasterizer = Rasterizer()
            benchmark.startMeasurement()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0...count {
                    group.addTask { _ = try await rasterizer.image(for: Tile(index: 0, run: run), size: tileSize, scale: 2, priority: .urgent) }
                }
                try await group.waitForAll()
            }
            benchmark.stopMeasurement()
        }
    }
}
