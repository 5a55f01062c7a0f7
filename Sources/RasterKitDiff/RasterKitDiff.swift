// The parts of golden-image testing that need no test framework: the pixelmatch-compatible
// ImageDiff, Tolerance, and the HTML report of failure artifacts. RasterKitTesting re-exports
// this module; the rasterkit command uses it directly.
@_exported import RasterKit
