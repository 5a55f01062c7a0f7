// Issue 17: post-processing. A cached processed render against a cached plain one; each
// built-in processor on a 512² pixel image at 2x against the same operation written directly on
// cairo (CairoProcessing.swift); and the Gaussian blur against ImageMagick's `-blur 0x8`. Pairs:
// "processed: <stage>" / "cairo: <stage> (baseline)"; "cached processed render (memory hit)" /
// "cached plain render (memory hit) (baseline)"; the blur against the ImageMagick commands below.
import Benchmark
import BenchmarkSupport
import Foundation
import RasterKit

/// A small component with a few state fields, as the cached-hit comparison asks for.
struct Chip: Rasterizable {
    var title: String
    var count: Int
    var tint: Color
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(roundedRect: Rect(size: size), cornerRadius: 6), with: .color(tint))
    }
}

/// The image every stage processes: 256 × 256 points at 2x (512² pixels), a UI-like card with
/// transparent margins, a gradient, shapes and soft edges.
enum ProcessingInput {
    static let scale = 2.0
    static let size = Size(256)

    static func make() throws -> RasterImage {
        try RasterImage(size: size, scale: scale) { canvas in
            let card = Rect(x: 12, y: 12, width: 232, height: 232)
            let gradient = LinearGradient(gradient: Gradient(colors: [Color(red: 0.31, green: 0.55, blue: 1),
                                                                      Color(red: 0.9, green: 0.3, blue: 0.4)]),
                                          start: Point(x: 0, y: 12), end: Point(x: 0, y: 244))
            canvas.fill(Path(roundedRect: card, cornerRadius: 20), with: .linearGradient(gradient))
            for index in 0..<6 {
                let x = 30 + Double(index) * 34
                canvas.fill(Path(ellipseIn: Rect(x: x, y: 60 + Double(index % 3) * 40, width: 28, height: 28)),
                            with: .color(Color(white: 1, alpha: 0.3 + Double(index) * 0.1)))
            }
        }
    }
}

/// ImageMagick's convert: the real one when installed.
let convertBinary = FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") ? "/usr/bin/convert" : "/usr/local/bin/convert"

let benchmarks: @Sendable () -> Void = {
    let image = try! ProcessingInput.make()
    let cairo = CairoProcessing(image)
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(2), maxIterations: 2_000)
    let fast = Benchmark.Configuration(metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(2))

    // Cached hits: the same request served from memory, plain and processed.
    let rasterizer = Rasterizer()
    let chip = Chip(title: "Inbox", count: 12, tint: Color(red: 0.18, green: 0.43, blue: 0.92))
    let processedChip = chip.processed(RasterProcessors.RoundedCorners(radius: 8), RasterProcessors.Tint(color: .white))
    let chipSize = Size(width: 120, height: 32)
    Benchmark("cached plain render (memory hit) (baseline)", configuration: fast) { benchmark in
        _ = try rasterizer.image(for: chip, size: chipSize, scale: 2)
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.image(for: chip, size: chipSize, scale: 2)) }
    }
    Benchmark("cached processed render (memory hit)", configuration: fast) { benchmark in
        _ = try rasterizer.image(for: processedChip, size: chipSize, scale: 2)
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.image(for: processedChip, size: chipSize, scale: 2)) }
    }

    // Each built-in against cairo. Geometry in points; the cairo side gets the same in pixels.
    let shadow = Shadow(color: Color(white: 0, alpha: 0.35), offset: Point(x: 0, y: 4), blur: 8)
    let stages: [(String, any RasterProcessor, @Sendable () -> UInt32)] = [
        ("roundedCorners 16", RasterProcessors.RoundedCorners(radius: 16), { cairo.roundedCorners(radius: 32) }),
        ("circle", RasterProcessors.Circle(), { cairo.circle() }),
        ("tint", RasterProcessors.Tint(color: Color(red: 0.18, green: 0.43, blue: 0.92)), { cairo.tint(red: 0.18, green: 0.43, blue: 0.92) }),
        ("opacity 0.5", RasterProcessors.Opacity(0.5), { cairo.opacity(0.5) }),
        ("resize to 128² pt", RasterProcessors.Resize(size: Size(128), contentMode: .stretch), { cairo.resize(toPixelWidth: 256, height: 256) }),
        ("crop 128² pt", RasterProcessors.Crop(rect: Rect(x: 64, y: 64, width: 128, height: 128)), { cairo.crop(x: 128, y: 128, width: 256, height: 256) }),
        ("padding 16", RasterProcessors.Padding(EdgeInsets(all: 16)), { cairo.padding(32) }),
        ("dropShadow blur 8", RasterProcessors.DropShadow(shadow), { cairo.dropShadow(alpha: 0.35, offsetY: 8, sigma: 8) }),
    ]
    for (name, processor, baseline) in stages {
        Benchmark("processed: \(name)", configuration: timing) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try processor.process(image)) }
        }
        Benchmark("cairo: \(name) (baseline)", configuration: timing) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(baseline()) }
        }
    }

    // The blur, σ = 8 pixels on 512² pixels: radius 8 at 1x (and radius 4 at 2x), and radius 8
    // at 2x (σ = 16 pixels), against `convert -blur 0x8`. ImageMagick's time includes starting
    // the process and decoding the PNG: the commands with no blur and with four blurs measure
    // those, so that ratios.py can also compare the blur alone ((four − none) ÷ 4).
    let flat = try! image.withScale(1)
    Benchmark("processed: gaussianBlur radius 8 @1x (σ 8 px)", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try RasterProcessors.GaussianBlur(radius: 8).process(flat)) }
    }
    Benchmark("processed: gaussianBlur radius 8 @2x (σ 16 px)", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try RasterProcessors.GaussianBlur(radius: 8).process(image)) }
    }
    let folder = scratchFolder("processing")
    let input = folder + "/input.png"
    try! image.pngData().write(to: URL(fileURLWithPath: input))
    let commands = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(6), maxIterations: 60)
    for blurs in [0, 1, 4] {
        let label = blurs == 0 ? "read 512² PNG, no blur" : blurs == 1 ? "-blur 0x8 512²" : "read 512² PNG, 4 × -blur 0x8"
        Benchmark("ImageMagick \(label) (baseline)", configuration: commands) { benchmark in
            let arguments = [input] + Array(repeating: ["-blur", "0x8"], count: blurs).flatMap { $0 } + ["null:"]
            for _ in benchmark.scaledIterations { try runCommand(convertBinary, arguments) }
        }
    }
}
