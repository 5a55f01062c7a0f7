// swift-tools-version: 6.3
// RasterKit's fuzz targets: a nested package, so that libFuzzer builds never touch the library's
// own build. Each target is one `LLVMFuzzerTestOneInput` over an input a stranger can hand
// RasterKit (SVG path data, PNG files, manifests, SVG documents, remote cache objects and run
// packs, HTTP requests to the server), checked under the untrusted limits. Build and run with
// `make fuzz` from the repository root (see Fuzz/README.md). The harnesses of formats that carry
// a checksum reach internal API (`@testable`, so the build passes `-enable-testing`) to frame
// what they fuzz as a writer who knows the format would.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is wherever the repository was
/// cloned to.
let rasterKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let fuzzTargets = ["FuzzSVGPathData", "FuzzPNGDecode", "FuzzManifest", "FuzzSVGDocument", "FuzzRemoteObject", "FuzzRunPack"]

let package = Package(
    name: "RasterKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // libFuzzer's driver, declared for Swift.
        .target(name: "CFuzzDriver", path: "Sources/CFuzzDriver"),
        // What several harnesses share: reading an input as fields, seeds of this build, a store.
        .target(name: "FuzzSupport", dependencies: [.product(name: "RasterKit", package: rasterKitPackage)],
                path: "Sources/FuzzSupport"),
        // The server's routes, answered in process: no socket is opened.
        .executableTarget(
            name: "FuzzServerRequest",
            dependencies: ["CFuzzDriver", "FuzzSupport",
                           .product(name: "RasterKit", package: rasterKitPackage),
                           .product(name: "RasterKitServer", package: rasterKitPackage),
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "NIOEmbedded", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Sources/FuzzServerRequest"),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["CFuzzDriver", "FuzzSupport", .product(name: "RasterKit", package: rasterKitPackage),
                           .product(name: "RasterKitBatch", package: rasterKitPackage)],
            path: "Sources/\(name)")
    }
)
