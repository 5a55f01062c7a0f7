// Issue 6: `rasterkit svg` on 200 real icons at 48 and 96, cold, against a shell loop of
// rsvg-convert and against librsvg + PNG writing called directly; and the same command warm.
import Benchmark
import BenchmarkSupport
import CRsvgBaseline
import Foundation

let environment = ProcessInfo.processInfo.environment
let rasterkit = rasterkitBinary
/// Icon sets fetched by Scripts/fetch-icons.sh: 200 scalable SVGs each.
let iconRoot = environment["RASTERKIT_ICON_DIR"] ?? FileManager.default.currentDirectoryPath + "/../.build/icons"

func icons(in set: String) -> [String] {
    let folder = iconRoot + "/" + set
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".svg") }.sorted().prefix(200).map { folder + "/" + $0 }
}

/// On the disk, as users run it; in memory for comparing only the work with librsvg called directly.
func scratch(inMemory: Bool = false) -> String { scratchFolder("svg", inMemory: inMemory) }

/// What `rsvg-convert -w N -h N` does, called in-process on `threads` threads: parse, render into
/// an N × N surface, write the PNG file.
func renderDirectly(_ files: [String], sizes: [Int], into folder: String, threads: Int) {
    let jobs = files.flatMap { file in sizes.map { (file, $0) } }
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for index in stride(from: thread, to: jobs.count, by: threads) {
            let (file, size) = jobs[index]
            var error: UnsafeMutablePointer<GError>?
            guard let handle = rsvg_handle_new_from_file(file, &error) else { g_clear_error(&error); continue }
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))
            let context = cairo_create(surface)
            var viewport = RsvgRectangle(x: 0, y: 0, width: Double(size), height: Double(size))
            _ = rsvg_handle_render_document(handle, context, &viewport, &error)
            g_clear_error(&error)
            cairo_destroy(context)
            cairo_surface_write_to_png(surface, folder + "/\(index).png")
            cairo_surface_destroy(surface)
            baseline_rsvg_unref(UnsafeMutableRawPointer(handle))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    guard FileManager.default.isExecutableFile(atPath: rasterkit) else { return }
    for set in ["adwaita", "breeze", "papirus"] where icons(in: set).count == 200 { register(set) }
}

/// The four measurements of one icon set.
func register(_ set: String) {
    let files = icons(in: set)
    let folder = iconRoot + "/" + set
    let arguments = { (out: String) in [folder, "--size", "48", "--size", "96", "--out", out + "/out", "--cache", out + "/cache.sqlite", "--jobs", "2"] }
    let slow = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(15), maxIterations: 3)
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 30)

    Benchmark("svg \(set): rasterkit svg, 200 icons × 48, 96, cold", configuration: timing) { benchmark in
        let out = scratch()
        benchmark.startMeasurement()
        try runCommand(rasterkit, ["svg"] + arguments(out))
        benchmark.stopMeasurement()
    }
    Benchmark("svg \(set): rasterkit svg, cold, in memory", configuration: timing) { benchmark in
        let out = scratch(inMemory: true)
        benchmark.startMeasurement()
        try runCommand(rasterkit, ["svg"] + arguments(out))
        benchmark.stopMeasurement()
    }
    Benchmark("svg \(set): rasterkit svg, warm", configuration: timing) { benchmark in
        let out = scratch()
        try runCommand(rasterkit, ["svg"] + arguments(out))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try runCommand(rasterkit, ["svg"] + arguments(out)) }
        benchmark.stopMeasurement()
    }
    Benchmark("svg \(set): rsvg-convert loop (baseline)", configuration: slow) { benchmark in
        let out = scratch()
        benchmark.startMeasurement()
        for (index, file) in files.enumerated() {
            for size in ["48", "96"] { try runCommand("/usr/bin/rsvg-convert", ["-w", size, "-h", size, file, "-o", out + "/\(index)-\(size).png"]) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("svg \(set): librsvg + PNG directly, 2 threads, in memory (baseline)", configuration: timing) { benchmark in
        let out = scratch(inMemory: true)
        benchmark.startMeasurement()
        renderDirectly(files, sizes: [48, 96], into: out, threads: 2)
        benchmark.stopMeasurement()
    }
}
