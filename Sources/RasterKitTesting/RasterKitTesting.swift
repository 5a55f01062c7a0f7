// Golden-image testing for RasterKit: `assertGolden` for Swift Testing and XCTest, with
// failure artifacts. Importing RasterKitTesting also imports RasterKit and RasterKitDiff (the
// pixelmatch-compatible `ImageDiff`, `Tolerance` and the HTML `GoldenReport`), which live in a
// module of their own so the `rasterkit` command can use them without linking the test
// frameworks.
@_exported import RasterKit
@_exported import RasterKitDiff
