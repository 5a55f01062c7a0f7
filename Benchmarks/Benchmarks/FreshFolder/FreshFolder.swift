// Issue 16: a CI job that starts from a fresh checkout and restores only the render store. Each
// warm run writes into a new, empty output folder with the store a cold run filled, and is
// compared with that cold run (a new folder and a new store) in the same process: the showcase
// in each format, and `rasterkit svg` of 200 real icons at two sizes. Also `--no-cache` into a
// folder that already holds the outputs against one that does not.
import Benchmark
import BenchmarkSupport
import Foundation

let rasterkit = rasterkitBinary
let showcase = FileManager.default.currentDirectoryPath + "/../Examples/showcase.yaml"
/// Icon sets fetched by Scripts/fetch-icons.sh: 200 scalable SVGs each.
let iconRoot = ProcessInfo.processInfo.environment["RASTERKIT_ICON_DIR"]
    ?? FileManager.default.currentDirectoryPath + "/../.build/icons"

/// The arguments of one run writing into `out` with the store `store` (nil: `--no-cache`).
typealias Command = (_ out: String, _ store: String?) -> [String]

func cacheArguments(_ store: String?) -> [String] { store.map { ["--cache", $0] } ?? ["--no-cache"] }

func showcaseRun(format: String) -> Command {
    { out, store in ["render", showcase, "--out", out, "--format", format, "--jobs", "2"] + cacheArguments(store) }
}

func iconRun(set: String) -> Command {
    { out, store in ["svg", iconRoot + "/" + set, "--size", "48", "--size", "96", "--out", out, "--jobs", "2"] + cacheArguments(store) }
}

/// Cold, warm from the same store into a new folder each time, and the floor a warm run is
/// measured against: copying the cold run's files into a new folder (`cp -r`), which is what
/// "at the speed of a copy" means. Every measured run starts after `sync()`, so none pays for
/// the write-back of the files an earlier iteration made (file creation on a busy disk costs
/// hundreds of microseconds).
func registerColdAndWarm(_ name: String, _ command: @escaping Command) {
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("\(name): cold (new folder, new store)", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh")
        sync()
        benchmark.startMeasurement()
        try runCommand(rasterkit, command(scratch + "/out", scratch + "/cache.sqlite"))
        benchmark.stopMeasurement()
    }
    Benchmark("\(name): warm store, new folder", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh")
        try runCommand(rasterkit, command(scratch + "/first", scratch + "/cache.sqlite"))
        for iteration in benchmark.scaledIterations {
            sync()
            benchmark.startMeasurement()
            try runCommand(rasterkit, command(scratch + "/out-\(iteration)", scratch + "/cache.sqlite"))
            benchmark.stopMeasurement()
        }
    }
    Benchmark("\(name): cp -r of the outputs into a new folder (baseline)", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh")
        try runCommand(rasterkit, command(scratch + "/first", scratch + "/cache.sqlite"))
        for iteration in benchmark.scaledIterations {
            sync()
            benchmark.startMeasurement()
            try runCommand("/bin/cp", ["-r", scratch + "/first", scratch + "/copy-\(iteration)"])
            benchmark.stopMeasurement()
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    guard FileManager.default.isExecutableFile(atPath: rasterkit), FileManager.default.fileExists(atPath: showcase) else { return }
    for format in ["png", "xcassets", "ninepatch"] { registerColdAndWarm("fresh showcase \(format)", showcaseRun(format: format)) }
    for set in ["adwaita", "breeze", "papirus"] {
        let count = (try? FileManager.default.contentsOfDirectory(atPath: iconRoot + "/" + set))?.filter { $0.hasSuffix(".svg") }.count
        if count == 200 { registerColdAndWarm("fresh svg \(set)", iconRun(set: set)) }
    }

    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 20)
    let noCache = showcaseRun(format: "png")
    Benchmark("no-cache showcase: into a new folder", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh")
        benchmark.startMeasurement()
        try runCommand(rasterkit, noCache(scratch + "/out", nil))
        benchmark.stopMeasurement()
    }
    Benchmark("no-cache showcase: into an existing folder", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh")
        try runCommand(rasterkit, noCache(scratch + "/out", nil))
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            try runCommand(rasterkit, noCache(scratch + "/out", nil))
            benchmark.stopMeasurement()
        }
    }
}
