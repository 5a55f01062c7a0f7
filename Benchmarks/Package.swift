// swift-tools-version: 6.3
// RasterKit's benchmarks: a nested package so that package-benchmark and the baselines'
// C modules stay out of the library's dependencies. Each benchmark target pairs RasterKit
// measurements with baselines measured in the same run; `ratios.py` turns them into the
// figures the issues ask for. Run with `make bench` from the repository root.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is wherever the repository was
/// cloned to.
let rasterKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let benchmarkTargets = ["Drawing", "StateKeys", "Scheduling", "DiskStore", "SVG", "Diff", "Batch", "FreshFolder", "Processing", "RemoteCache", "Layout"]

let package = Package(
    name: "RasterKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // cairo, Pango and libpng called directly, for the baselines.
        .systemLibrary(name: "CBaselines", pkgConfig: "pangocairo"),
        // librsvg called directly, for the SVG baseline.
        .systemLibrary(name: "CRsvgBaseline", pkgConfig: "librsvg-2.0"),
        // Runs commands for the benchmarks that time the CLI.
        .target(name: "BenchmarkSupport", path: "Benchmarks/Support"),
    ] + benchmarkTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RasterKit", package: rasterKitPackage),
                .product(name: "RasterKitTesting", package: rasterKitPackage),
                "CBaselines", "CRsvgBaseline", "BenchmarkSupport",
            ],
            path: "Benchmarks/\(name)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
    }
)
