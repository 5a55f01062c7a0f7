// swift-snapshot-testing strategies for RasterKit images and components, compared with
// RasterKitDiff. Everything here is compiled only with the package trait `SnapshotTesting`;
// without it the module is empty and nothing of swift-snapshot-testing is built.
@_exported import RasterKitDiff
