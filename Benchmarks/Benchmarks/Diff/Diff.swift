// Issue 7: comparing two identical 2048² images (an absolute bound), and a full diff with
// anti-aliasing detection against ImageMagick's `compare -metric AE` on the same pair. Both
// command-line runs include reading the PNGs, as a CI job would run them.
import Benchmark
import BenchmarkSupport
import Foundation
import RasterKit
import RasterKitTesting

/// A 2048² UI-like render, and the same with a few things moved and recoloured.
enum DiffPair {
    static func render(shifted: Bool) throws -> RasterImage {
        try RasterImage(size: Size(1_024), scale: 2) { canvas in
            canvas.fillAll(with: .color(Color(white: 0.96)))
            for index in 0..<24 {
                let row = Double(index / 4), column = Double(index % 4)
                let offset = shifted && index % 5 == 0 ? 1.5 : 0
                let card = Rect(x: 24 + column * 248 + offset, y: 24 + row * 164, width: 228, height: 148)
                canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.2), offset: Point(x: 0, y: 2), blur: 6)) {
                    canvas.fill(Path(roundedRect: card, cornerRadius: 12), with: .color(.white))
                }
                let tint = shifted && index % 7 == 0 ? Color(red: 0.9, green: 0.3, blue: 0.3) : Color(red: 0.2, green: 0.45, blue: 0.9)
                canvas.fill(Path(ellipseIn: Rect(x: card.minX + 16, y: card.minY + 16, width: 36, height: 36)), with: .color(tint))
                canvas.draw(text: shifted && index == 3 ? "Changed title" : "Card title \(index)",
                            in: Rect(x: card.minX + 64, y: card.minY + 20, width: 150, height: 24),
                            style: TextStyle(font: "DejaVu Sans Bold 14"))
                canvas.draw(text: "Body copy that wraps onto a second line of the card.",
                            in: Rect(x: card.minX + 16, y: card.minY + 70, width: 196, height: 60),
                            style: TextStyle(font: "DejaVu Sans 12", color: Color(white: 0.35)))
            }
        }
    }

    static let directory = URL(fileURLWithPath: scratchFolder("diff"))

    static let files: (a: String, b: String)? = {
        do {
            let a = directory.appendingPathComponent("a.png"), b = directory.appendingPathComponent("b.png")
            try render(shifted: false).pngData().write(to: a)
            try render(shifted: true).pngData().write(to: b)
            return (a.path, b.path)
        } catch {
            return nil
        }
    }()
}

let rasterkit = rasterkitBinary

let benchmarks: @Sendable () -> Void = {
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(5), maxIterations: 100)
    guard let files = DiffPair.files,
          let a = try? RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: files.a))),
          let b = try? RGBABitmap(pngData: Data(contentsOf: URL(fileURLWithPath: files.b))) else { return }
    let copy = RGBABitmap(width: a.width, height: a.height, bytes: a.withUnsafeBytes { Array($0) })

    Benchmark("ImageDiff: identical 2048² images", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try ImageDiff.compare(a, copy, makeDiffImage: false).differentPixels) }
    }
    Benchmark("ImageDiff: full diff 2048² with AA detection and diff image", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try ImageDiff.compare(a, b).differentPixels) }
    }
    Benchmark("rasterkit diff 2048² (command, with PNG decoding)", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { try runCommand(rasterkit, ["diff", files.a, files.b, "--output", DiffPair.directory.appendingPathComponent("diff.png").path], allowing: [0, 1]) }
    }
    Benchmark("ImageMagick compare -metric AE 2048² (baseline)", configuration: timing) { benchmark in
        for _ in benchmark.scaledIterations { try runCommand("/usr/bin/compare", ["-metric", "AE", files.a, files.b, DiffPair.directory.appendingPathComponent("im-diff.png").path], allowing: [0, 1]) }
    }
}
