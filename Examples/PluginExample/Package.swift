// swift-tools-version: 6.1
// An app-side package, as a user's would be, that the root package's tests build:
// - its badges are rendered at build time by RasterKit's build-tool plugin:
//   `Sources/ExampleAssets/Badges.rasterkit.yaml` becomes PNGs in the target's resources, which
//   `Bundle.module` finds; `swift run PluginExampleCheck` loads and checks them
//   (`PluginExampleTests` in the root package);
// - its tests use RasterKitSnapshotTesting, with RasterKit's `SnapshotTesting` trait on (the root
//   package leaves it off), and compile the README's swift-snapshot-testing block
//   (`make test-snapshot-trait`). One package for both, so `make test` builds RasterKit once more,
//   not twice.
import PackageDescription

let package = Package(
    name: "PluginExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RasterKit", path: "../..", traits: ["SnapshotTesting"]),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .target(
            name: "ExampleAssets",
            dependencies: [.product(name: "RasterKit", package: "RasterKit")],
            // The SVG the manifest draws is read by the plugin's tool, not compiled or bundled.
            exclude: ["Art"],
            plugins: [.plugin(name: "RenderAssetsBuildPlugin", package: "RasterKit")]),
        .executableTarget(name: "PluginExampleCheck", dependencies: ["ExampleAssets"]),
        // RasterKitSnapshotTesting's tests.
        .testTarget(
            name: "RasterKitSnapshotTestingTests",
            dependencies: [
                .product(name: "RasterKitSnapshotTesting", package: "RasterKit"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]),
        // The README's swift-snapshot-testing block, written here by Scripts/readme-snippets.py
        // (with the "A component" block it continues).
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                .product(name: "RasterKit", package: "RasterKit"),
                .product(name: "RasterKitSnapshotTesting", package: "RasterKit"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]),
    ]
)
