// swift-tools-version: 6.1
// An app-side package, as a user's would be, that the root package's tests build
// (`make test-example`): its badges are rendered at build time by RasterKit's build-tool plugin:
// `Sources/ExampleAssets/Badges.rasterkit.yaml` becomes PNGs in the target's resources, which
// `Bundle.module` finds; `swift run PluginExampleCheck` loads and checks them.
import PackageDescription

let package = Package(
    name: "PluginExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RasterKit", path: "../.."),
    ],
    targets: [
        .target(
            name: "ExampleAssets",
            dependencies: [.product(name: "RasterKit", package: "RasterKit")],
            // The SVG the manifest draws is read by the plugin's tool, not compiled or bundled.
            exclude: ["Art"],
            plugins: [.plugin(name: "RenderAssetsBuildPlugin", package: "RasterKit")]),
        .executableTarget(name: "PluginExampleCheck", dependencies: ["ExampleAssets"]),
    ]
)
