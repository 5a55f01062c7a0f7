// swift-tools-version: 6.1
// The tests of RasterKitSnapshotTesting: a package of its own because they need RasterKit with
// the SnapshotTesting trait, which the root package leaves off. `make test` runs them.
import PackageDescription

let package = Package(
    name: "SnapshotTestingTrait",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RasterKit", path: "../..", traits: ["SnapshotTesting"]),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .testTarget(
            name: "RasterKitSnapshotTestingTests",
            dependencies: [
                .product(name: "RasterKitSnapshotTesting", package: "RasterKit"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]),
        // The README's swift-snapshot-testing block, written here by Scripts/readme-snippets.py
        // (with the "A component" block it continues): compiled by this package's build.
        .testTarget(
            name: "ReadmeSnippetTests",
            dependencies: [
                .product(name: "RasterKit", package: "RasterKit"),
                .product(name: "RasterKitSnapshotTesting", package: "RasterKit"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]),
    ]
)
