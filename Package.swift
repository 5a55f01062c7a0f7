// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "RasterKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RasterKit", targets: ["RasterKit"]),
        .library(name: "RasterKitBatch", targets: ["RasterKitBatch"]),
        .library(name: "RasterKitTesting", targets: ["RasterKitTesting"]),
        // swift-snapshot-testing strategies; empty unless the SnapshotTesting trait is enabled.
        .library(name: "RasterKitSnapshotTesting", targets: ["RasterKitSnapshotTesting"]),
        .library(name: "RasterKitRemoteCache", targets: ["RasterKitRemoteCache"]),
        .library(name: "RasterKitServer", targets: ["RasterKitServer"]),
        .executable(name: "rasterkit", targets: ["RasterKitCLI"]),
        // `rasterkit serve`: the render server, an executable of its own so that `rasterkit`
        // links no HTTP server (it runs this one, installed beside it).
        .executable(name: "rasterkit-server", targets: ["RasterKitServerTool"]),
        // The tool the plugins run: `rasterkit render`'s manifest run alone, without HTTP or the other commands.
        .executable(name: "rasterkit-assets", targets: ["RasterKitAssetsTool"]),
        // Renders a target's *.rasterkit.yaml manifests into its resources at build time.
        .plugin(name: "RenderAssetsBuildPlugin", targets: ["RenderAssetsBuildPlugin"]),
        // `swift package render-assets`: renders them into the package, for outputs that are committed.
        .plugin(name: "RenderAssetsCommand", targets: ["RenderAssetsCommand"]),
    ],
    traits: [
        .trait(name: "SnapshotTesting",
               description: "RasterKitSnapshotTesting: swift-snapshot-testing strategies for RasterImage and Rasterizable. "
                   + "Off by default, so nothing of swift-snapshot-testing is built without it."),
    ],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `rasterkit serve` and RasterKitServer only: HTTP routes, metrics, signed URLs, SIGTERM.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The one loader of the three libraries below: one search, dlopen on first use, symbols
        // bound by name from each loader's X-macro list of calls.
        .target(name: "CDynamicLibrary"),
        // cairo and fontconfig through dlopen, loaded when the first surface is made: their
        // headers declare the calls, nothing is linked (see CairoLibrary.swift).
        .target(name: "CCairo", dependencies: ["CDynamicLibrary"]),
        // Pango through dlopen, loaded when text is first laid out: a run that draws no text
        // never pays for loading it and GLib, GIO and HarfBuzz (see PangoLibrary.swift).
        .target(name: "CPangoLoader", dependencies: ["CDynamicLibrary"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // librsvg through dlopen, loaded when a document is first parsed: a run served from the
        // render store never pays for loading it (see LibrsvgLibrary.swift).
        .target(name: "CRsvgLoader", dependencies: ["CDynamicLibrary"]),
        // zlib, to inflate SVGZ under a size limit before librsvg does.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Thread affinity for batch workers: two glibc calls that need _GNU_SOURCE.
        .target(name: "CAffinity"),
        // SQLite (the system's libsqlite3), which the render store reaches through one small
        // connection type of its own, and the command's process-wide setting: one variadic call, in C.
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libwebp, for `--format webp` in batches (not the core).
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .target(
            name: "RasterKit",
            dependencies: [
                "CCairo", "CPangoLoader", "CPNG", "CRsvgLoader", "CSQLite", "CZlib",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Batches: manifests (the only importer of Yams), the layer model, output formats, SVG
        // folders, shards and the parallel renderer. Library and golden-test users never link it.
        .target(
            name: "RasterKitBatch",
            dependencies: [
                "RasterKit", "CAffinity", "CWebP",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The shared remote store over HTTP (nginx WebDAV, bazel-remote): RemoteCache implements the
        // core's RemoteStore with Foundation's URLSession (libcurl on Linux): no HTTP package to build.
        .target(
            name: "RasterKitRemoteCache",
            dependencies: ["RasterKit"]),
        // Rendering over HTTP: Hummingbird routes for manifest components and SVG icons, with ETags,
        // limits, signed URLs, a bounded render queue, reloads and Prometheus metrics. Only this
        // target (and so the CLI) links Hummingbird; the core and RasterKitBatch never do.
        .target(
            name: "RasterKitServer",
            dependencies: [
                "RasterKit", "RasterKitBatch", "RasterKitDiff",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // ImageDiff, Tolerance and the HTML report: everything of RasterKitTesting that needs no
        // test framework, so the CLI links neither Testing nor XCTest (and can link statically).
        .target(name: "RasterKitDiff", dependencies: ["RasterKit"]),
        .target(name: "RasterKitTesting", dependencies: ["RasterKit", "RasterKitDiff"]),
        // Built with swift-snapshot-testing only under the SnapshotTesting trait (its tests too).
        .target(
            name: "RasterKitSnapshotTesting",
            dependencies: [
                "RasterKit", "RasterKitDiff",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing",
                         condition: .when(traits: ["SnapshotTesting"])),
            ]),
        .executableTarget(
            name: "RasterKitCLI",
            dependencies: [
                "RasterKit", "RasterKitBatch", "RasterKitDiff", "RasterKitArguments", "RasterKitCommandOptions", "CSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // A position-dependent release binary: a batch answered from the store is mostly
            // process start, and as a PIE this binary has 140,000 relative relocations the loader
            // applies, copying the pages they touch, before `main`. Debug builds stay PIE, which
            // the sanitizers need. Nothing loads into this process that links against it, so it
            // exports no symbols either (49,000 otherwise, 5 MB of tables the loader reads).
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]),
        // What every RasterKit command line shares, `rasterkit-assets`'s included: the render
        // store's flags, `--format`, the checks of paths, `--json`'s lines and the exit statuses.
        .target(
            name: "RasterKitArguments",
            dependencies: ["RasterKit", "RasterKitBatch", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // What `rasterkit` and `rasterkit-server` add: the remote store's flags (and so
        // RasterKitRemoteCache) beside the render store's.
        .target(
            name: "RasterKitCommandOptions",
            dependencies: [
                "RasterKit", "RasterKitArguments", "RasterKitRemoteCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `rasterkit-server`: RasterKitServer behind `rasterkit serve`'s flags.
        .executableTarget(
            name: "RasterKitServerTool",
            dependencies: [
                "RasterKit", "RasterKitServer", "RasterKitArguments", "RasterKitCommandOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `rasterkit-assets`, the plugins' tool: links RasterKitBatch alone, so a package that uses the
        // plugins builds neither ArgumentParser nor swift-nio.
        .executableTarget(
            name: "RasterKitAssetsTool",
            dependencies: ["RasterKit", "RasterKitBatch", "RasterKitArguments",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .plugin(name: "RenderAssetsBuildPlugin", capability: .buildTool(), dependencies: ["RasterKitAssetsTool"]),
        .plugin(
            name: "RenderAssetsCommand",
            capability: .command(
                intent: .custom(verb: "render-assets",
                                description: "Render each target's *.rasterkit.yaml manifests into the package"),
                permissions: [.writeToPackageDirectory(reason: "It writes the rendered PNGs beside each manifest (or into --out).")]),
            dependencies: ["RasterKitAssetsTool"]),
        // Example components drawn with Canvas, used by the demo, the goldens and the benchmarks.
        .target(name: "RasterKitExamples", dependencies: ["RasterKit"], path: "Examples/Components"),
        .executableTarget(name: "RasterKitDemo", dependencies: ["RasterKit", "RasterKitBatch", "RasterKitExamples"], path: "Examples/Demo"),
        // A small executable the tests spawn to check behaviour across processes.
        .executableTarget(name: "RasterKitProbe", dependencies: ["RasterKit"], path: "Tests/RasterKitProbe"),
        .testTarget(
            name: "RasterKitTests",
            dependencies: ["RasterKit", "RasterKitBatch", "RasterKitTesting", "RasterKitExamples", "RasterKitProbe", "RasterKitRemoteCache",
                           "RasterKitTestSupport"],
            exclude: ["Fixtures"]),
        // What the test targets share: running the built `rasterkit`, synthetic bitmaps, temporary folders.
        .target(name: "RasterKitTestSupport", dependencies: ["RasterKit", "CChildProcess"], path: "Tests/RasterKitTestSupport"),
        // glibc's spawn and pipe extensions, which Swift's Glibc module leaves out, for the tests' child processes.
        .target(name: "CChildProcess", path: "Tests/CChildProcess"),
        // Golden assertions, the image diff and its report.
        .testTarget(
            name: "RasterKitTestingTests",
            dependencies: ["RasterKit", "RasterKitBatch", "RasterKitDiff", "RasterKitTesting", "RasterKitTestSupport", "RasterKitCLI"]),
        // The `rasterkit` command end to end: every subcommand, its flags and their bad values.
        .testTarget(
            name: "RasterKitCLITests",
            dependencies: ["RasterKit", "RasterKitBatch", "RasterKitDiff", "RasterKitTestSupport", "RasterKitCLI",
                           "RasterKitArguments", "RasterKitCommandOptions", "RasterKitAssetsTool", "RasterKitServerTool"]),
        // Every ```swift block of README.md, written here by Scripts/readme-snippets.py: the build
        // fails when one stops compiling (`make test` also checks that they match the README).
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                "RasterKit", "RasterKitBatch", "RasterKitTesting", "RasterKitRemoteCache", "RasterKitServer", "RasterKitSnapshotTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The README's swift-snapshot-testing block.
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing", condition: .when(traits: ["SnapshotTesting"])),
            ],
            exclude: ["Generated/__Snapshots__"],
            resources: [.copy("Resources/badge-new@2x.png")]),
        // RasterKitSnapshotTesting's strategies under swift-snapshot-testing: built with the
        // SnapshotTesting trait on (the Makefile turns it on), empty without it.
        .testTarget(
            name: "RasterKitSnapshotTestingTests",
            dependencies: [
                "RasterKit", "RasterKitSnapshotTesting",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing", condition: .when(traits: ["SnapshotTesting"])),
            ],
            exclude: ["__Snapshots__"]),
        // RasterKitServer over loopback with a real HTTP client: routes, caching headers, bad input,
        // signed URLs, overload, reloads and shutdown.
        .testTarget(
            name: "RasterKitServerTests",
            dependencies: [
                "RasterKit", "RasterKitBatch", "RasterKitServer", "RasterKitTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
    ]
)

// Tools only maintainers use cost everyone else nothing: SwiftPM builds a package's plugin tools
// on every `swift build`, so swift-docc-plugin (`make docs`) is declared only when
// RASTERKIT_MAINTAINER is set (the Makefile sets it for `make docs`).
if Context.environment["RASTERKIT_MAINTAINER"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
