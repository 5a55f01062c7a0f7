// Issue 8: the showcase manifest rendered cold and warm by `rasterkit render`, and its
// throughput on 2 jobs against 1.
import Benchmark
import BenchmarkSupport
import Foundation

let rasterkit = rasterkitBinary
let showcase = FileManager.default.currentDirectoryPath + "/../Examples/showcase.yaml"

/// On the disk, as users run it; in memory for comparing 1 job with 2, which write the same files.
func scratch(inMemory: Bool = false) -> String { scratchFolder("showcase", inMemory: inMemory) }

func render(_ out: String, _ extra: [String]) throws {
    try runCommand(rasterkit, ["render", showcase, "--out", out + "/out"] + extra)
}

let benchmarks: @Sendable () -> Void = {
    guard FileManager.default.isExecutableFile(atPath: rasterkit), FileManager.default.fileExists(atPath: showcase) else { return }
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 30)

    Benchmark("showcase: cold (new output folder and cache)", configuration: timing) { benchmark in
        let out = scratch()
        benchmark.startMeasurement()
        try render(out, ["--cache", out + "/cache.sqlite", "--jobs", "2"])
        benchmark.stopMeasurement()
    }
    Benchmark("showcase: warm (same folder and cache)", configuration: timing) { benchmark in
        let out = scratch()
        try render(out, ["--cache", out + "/cache.sqlite", "--jobs", "2"])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try render(out, ["--cache", out + "/cache.sqlite", "--jobs", "2"]) }
        benchmark.stopMeasurement()
    }
    for jobs in [1, 2] {
        Benchmark("showcase: \(jobs) job\(jobs == 1 ? "" : "s"), no cache, in memory", configuration: timing) { benchmark in
            let out = scratch(inMemory: true)
            benchmark.startMeasurement()
            try render(out, ["--no-cache", "--jobs", "\(jobs)"])
            benchmark.stopMeasurement()
        }
    }
}
