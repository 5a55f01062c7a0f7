// Issue 2: what Canvas costs over calling cairo directly, and RasterKit's PNG encoder against
// cairo's own. Pairs: "Canvas composite" / "cairo composite (baseline)";
// "PNG encode: <image>" / "cairo PNG encode: <image> (baseline)" (custom metric: PNG bytes).
import Benchmark
import CBaselines
import Foundation
import RasterKit

/// The composite both sides draw: 320 × 120 points at 2x, a drop-shadowed rounded rectangle
/// filled with a gradient, and a centred line of bold text.
enum Composite {
    static let size = Size(width: 320, height: 120)
    static let scale = 2.0
    static let card = Rect(x: 20, y: 16, width: 280, height: 80)
    static let radius = 16.0
    static let text = "Continue to checkout"
    static let font = "DejaVu Sans Bold 18"
    static let top = Color(red: 0.31, green: 0.55, blue: 1), bottom = Color(red: 0.18, green: 0.37, blue: 0.82)
    static let shadow = Shadow(color: Color(white: 0, alpha: 0.3), offset: Point(x: 0, y: 4), blur: 12)

    static func drawWithCanvas() throws -> RasterImage {
        try RasterImage(size: size, scale: scale) { canvas in
            canvas.fillAll(with: .color(.white))
            let gradient = LinearGradient(gradient: Gradient(colors: [top, bottom]), start: Point(x: 0, y: card.minY),
                                          end: Point(x: 0, y: card.maxY))
            canvas.withShadow(shadow) {
                canvas.fill(Path(roundedRect: card, cornerRadius: radius), with: .linearGradient(gradient))
            }
            canvas.draw(text: text, in: card, style: TextStyle(font: font, color: .white, alignment: .center,
                                                               verticalAlignment: .center, wrapping: .none))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(3), maxIterations: 2_000)

    Benchmark("Canvas composite", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Composite.drawWithCanvas()) }
    }
    Benchmark("cairo composite (baseline)", configuration: timing) { benchmark in
        let baseline = DirectCairo()
        for _ in benchmark.scaledIterations { blackHole(baseline.drawComposite()) }
    }

    let pngMetrics = Benchmark.Configuration(metrics: [.wallClock, .throughput, .custom("PNG bytes", useScalingFactor: false)],
                                             maxDuration: .seconds(4), maxIterations: 200)
    for sample in UILikeImage.allCases {
        let image = (try? sample.render()) ?? (try! RasterImage(size: Size(1)) { _ in })
        Benchmark("PNG encode: \(sample.rawValue)", configuration: pngMetrics) { benchmark in
            var bytes = 0
            for _ in benchmark.scaledIterations { bytes = try image.pngData().count }
            benchmark.measurement(.custom("PNG bytes", useScalingFactor: false), bytes)
        }
        Benchmark("cairo PNG encode: \(sample.rawValue) (baseline)", configuration: pngMetrics) { benchmark in
            var bytes = 0
            for _ in benchmark.scaledIterations { bytes = DirectCairo.writePNG(image) }
            benchmark.measurement(.custom("PNG bytes", useScalingFactor: false), bytes)
        }
    }
}
