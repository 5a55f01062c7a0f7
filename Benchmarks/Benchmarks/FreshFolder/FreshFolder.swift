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

/// Whether the icon set `set` was fetched whole: 200 SVGs.
func hasIconSet(_ set: String) -> Bool {
    (try? FileManager.default.contentsOfDirectory(atPath: iconRoot + "/" + set))?.filter { $0.hasSuffix(".svg") }.count == 200
}

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
/// hundreds of microseconds). `inMemory` runs all three in a folder on a memory file system, where
/// creating a file costs no disk: what is left is the CPU work of each way of making the files.
func registerColdAndWarm(_ name: String, _ command: @escaping Command, inMemory: Bool = false) {
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("\(name): cold (new folder, new store)", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh", inMemory: inMemory)
        sync()
        benchmark.startMeasurement()
        try runCommand(rasterkit, command(scratch + "/out", scratch + "/cache.sqlite"))
        benchmark.stopMeasurement()
    }
    Benchmark("\(name): warm store, new folder", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh", inMemory: inMemory)
        try runCommand(rasterkit, command(scratch + "/first", scratch + "/cache.sqlite"))
        for iteration in benchmark.scaledIterations {
            sync()
            benchmark.startMeasurement()
            try runCommand(rasterkit, command(scratch + "/out-\(iteration)", scratch + "/cache.sqlite"))
            benchmark.stopMeasurement()
        }
    }
    if inMemory { registerRestoredStore(name, command) }
    Benchmark("\(name): cp -r of the outputs into a new folder (baseline)", configuration: timing) { benchmark in
        let scratch = scratchFolder("fresh", inMemory: inMemory)
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
    for set in ["adwaita", "breeze", "papirus"] where hasIconSet(set) { registerColdAndWarm("fresh svg \(set)", iconRun(set: set)) }
    // The same on a memory file system, where the disk's speed (a virtual machine's can make
    // `cp -r` of the showcase take 20 ms or 400 ms) is out of the figure.
    for format in ["png", "xcassets", "ninepatch"] {
        registerColdAndWarm("fresh showcase \(format) in memory", showcaseRun(format: format), inMemory: true)
    }
    registerFreshCheckout()
    for set in ["adwaita", "breeze", "papirus"] where hasIconSet(set) {
        registerColdAndWarm("fresh svg \(set) in memory", iconRun(set: set), inMemory: true)
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

/// The `sqlite3` shell, which ages a store for ``registerRestoredStore(_:_:)``.
let sqliteShell = "/usr/bin/sqlite3"

/// A warm run on a store that a CI cache restored an hour after the job that filled it: each run
/// gets a new copy of the store file (with its WAL checkpointed into it, as a cache keeps it)
/// whose entries and run records were last used an hour ago, so the run notes the last use of
/// what it serves, as the first job on a restored store does; the plain warm rows reuse a store
/// used a moment before, which writes nothing. The copy is not measured. Skipped without the
/// `sqlite3` shell (`apt-get install sqlite3`).
func registerRestoredStore(_ name: String, _ command: @escaping Command) {
    guard FileManager.default.isExecutableFile(atPath: sqliteShell) else { return }
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("\(name): store restored an hour later, new folder", configuration: timing) { benchmark in
        let scratch = scratchFolder("restored", inMemory: true)
        let filled = scratch + "/filled.sqlite"
        try runCommand(rasterkit, command(scratch + "/first", filled))
        try runCommand(sqliteShell, [filled, """
            PRAGMA wal_checkpoint(TRUNCATE); UPDATE entries SET last_access = last_access - 3600;
            DELETE FROM access_times; UPDATE run_records SET last_access = last_access - 3600;
            """])
        for iteration in benchmark.scaledIterations {
            let store = scratch + "/restored-\(iteration).sqlite"
            try FileManager.default.copyItem(atPath: filled, toPath: store)
            benchmark.startMeasurement()
            try runCommand(rasterkit, command(scratch + "/out-\(iteration)", store))
            benchmark.stopMeasurement()
        }
    }
}

/// A CI job as it really is: each warm run reads its manifest and inputs from a new copy of
/// `Examples/` (a fresh checkout: every file new, with new times, the same bytes) and writes a
/// new folder, with the store a cold run filled — itself run on a checkout copied just before,
/// as the job that filled the store was. In memory, against the cold run, so the figure is the
/// CPU work; copying the checkout is not measured.
func registerFreshCheckout() {
    let timing = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 20)
    let examples = URL(fileURLWithPath: showcase).deletingLastPathComponent().path
    Benchmark("new checkout, showcase png in memory: warm store, new folder", configuration: timing) { benchmark in
        let scratch = scratchFolder("checkout", inMemory: true)
        try runCommand("/bin/cp", ["-r", examples, scratch + "/checkout-cold"])
        try runCommand(rasterkit, ["render", scratch + "/checkout-cold/showcase.yaml", "--out", scratch + "/first", "--format", "png",
                                   "--jobs", "2", "--cache", scratch + "/cache.sqlite"])
        for iteration in benchmark.scaledIterations {
            let checkout = scratch + "/checkout-\(iteration)"
            try runCommand("/bin/cp", ["-r", examples, checkout])
            benchmark.startMeasurement()
            try runCommand(rasterkit, ["render", checkout + "/showcase.yaml", "--out", scratch + "/out-\(iteration)", "--format", "png",
                                       "--jobs", "2", "--cache", scratch + "/cache.sqlite"])
            benchmark.stopMeasurement()
        }
    }
}
