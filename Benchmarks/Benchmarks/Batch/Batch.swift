// Issue 8: the showcase manifest rendered cold and warm by `rasterkit render`, and its
// throughput on 2 jobs against 1. Issue 45: `rasterkit goldens check` of the unchanged showcase
// with a lockfile against PNG goldens. Issue 44: a 2,000-record `--data` batch of the Open Graph
// card template, cold and then warm into a new folder.
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

    // Recorded once (exit 1: a recording run fails so the goldens get reviewed), then checked
    // unchanged; the lock keeps no PNG anywhere here, which an unchanged check never fetches.
    let goldens = scratch()
    let check = ["goldens", "check", showcase, "--artifacts", goldens + "/artifacts"]
    Benchmark("goldens check showcase: PNG goldens, unchanged (baseline)", configuration: timing) { benchmark in
        try runCommand(rasterkit, check + ["--goldens", goldens + "/Goldens", "--record", "missing"], allowing: [0, 1])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try runCommand(rasterkit, check + ["--goldens", goldens + "/Goldens", "--record", "never"]) }
        benchmark.stopMeasurement()
    }
    Benchmark("goldens check showcase: lockfile, unchanged", configuration: timing) { benchmark in
        try runCommand(rasterkit, check + ["--lock", goldens + "/goldens.lock.json", "--record", "missing"], allowing: [0, 1])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try runCommand(rasterkit, check + ["--lock", goldens + "/goldens.lock.json", "--record", "never"])
        }
        benchmark.stopMeasurement()
    }

    // 2,000 cards of 1200×630, each record its own title and subtitle.
    let templates = FileManager.default.currentDirectoryPath + "/../Examples/templates.yaml"
    let cards = scratch()
    let records = (0..<2_000).map { "card\($0),Package \($0),\"Release \($0 / 100).\($0 % 100) of a library, with notes\"" }
    try? ("slug,title,subtitle\n" + records.joined(separator: "\n") + "\n").write(toFile: cards + "/cards.csv", atomically: true, encoding: .utf8)
    let data = [templates, "--data", cards + "/cards.csv", "--names", "{slug}", "--jobs", "2"]
    // One benchmark times both runs: a cold run takes over two seconds, and package-benchmark
    // records no throughput for an iteration that long, without which the JMH export drops the
    // benchmark. The measured window is the warm run; both times are custom metrics.
    let cold = BenchmarkMetric.custom("cold ns", useScalingFactor: false)
    let warm = BenchmarkMetric.custom("warm ns", useScalingFactor: false)
    let slow = Benchmark.Configuration(metrics: [.wallClock, .throughput, cold, warm], maxDuration: .seconds(150),
                                       maxIterations: 3)
    Benchmark("card template, 2,000 records: cold, then warm into a new folder", configuration: slow) { benchmark in
        let out = scratch()
        func timed(_ body: () throws -> Void) rethrows -> Int {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            return Int(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        }
        let coldTime = try timed {
            try runCommand(rasterkit, ["render"] + data + ["--out", out + "/first", "--cache", out + "/cache.sqlite"])
        }
        benchmark.startMeasurement()
        let warmTime = try timed {
            try runCommand(rasterkit, ["render"] + data + ["--out", out + "/second", "--cache", out + "/cache.sqlite"])
        }
        benchmark.stopMeasurement()
        benchmark.measurement(cold, coldTime)
        benchmark.measurement(warm, warmTime)
    }
}
