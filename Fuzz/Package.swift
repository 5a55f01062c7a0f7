// swift-tools-version: 6.3
// RasterKit's fuzz targets: a nested package, so that libFuzzer builds never touch the library's
// own build. Each target is one `LLVMFuzzerTestOneInput` over an input a stranger can hand
// RasterKit (SVG path data, PNG files, manifests, SVG documents), checked under the untrusted
// limits. Build and run with `make fuzz` from the repository root (see Fuzz/README.md).
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is wherever the repository was
/// cloned to.
let rasterKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let fuzzTargets = ["FuzzSVGPathData", "FuzzPNGDecode", "FuzzManifest", "FuzzSVGDocument"]

let package = Package(
    name: "RasterKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../")],
    targets: [
        // libFuzzer's driver, declared for Swift.
        .target(name: "CFuzzDriver", path: "Sources/CFuzzDriver"),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: ["CFuzzDriver", .product(name: "RasterKit", package: rasterKitPackage),
                           .product(name: "RasterKitBatch", package: rasterKitPackage)],
            path: "Sources/\(name)")
    }
)
