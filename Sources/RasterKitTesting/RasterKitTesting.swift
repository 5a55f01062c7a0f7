// Golden-image testing for RasterKit: `assertGolden`, a pixelmatch-compatible `ImageDiff`,
// failure artifacts and reports. Importing RasterKitTesting also imports RasterKit.
@_exported import RasterKit
