#if SnapshotTesting
import Foundation
import SnapshotTesting

extension Snapshotting where Value == RasterImage, Format == PixelSnapshot {
    /// A `RasterImage` snapshotted as a PNG and compared with RasterKit's pixelmatch-compatible
    /// `ImageDiff` (perceptual colour distance, anti-aliasing excused) within `tolerance`.
    ///
    /// On a difference, `expected.png`, `actual.png`, `diff.png` and `result.json` are written to
    /// `$RASTERKIT_ARTIFACTS` (or `.build/rasterkit-artifacts` in the current directory) and the
    /// failure message names them, since attachments are dropped on Linux.
    ///
    /// ```swift
    /// assertSnapshot(of: image, as: .png(tolerance: Tolerance(maxDifferentPixels: 4)))
    /// ```
    public static func png(tolerance: Tolerance = Tolerance()) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .rasterKitPixels(tolerance: tolerance)) { PixelSnapshot(image: $0) }
    }

    /// `png(tolerance:)` with the default tolerance: not one pixel may differ, at threshold 0.1.
    public static var png: Snapshotting { png() }
}

extension Diffing where Value == PixelSnapshot {
    /// Stores PNG bytes and compares decoded pixels with `ImageDiff` within `tolerance`.
    public static func rasterKitPixels(tolerance: Tolerance = Tolerance()) -> Diffing {
        .diff(toData: \.pngData, fromData: { PixelSnapshot(pngData: $0) }) { reference, actual in
            SnapshotComparison(tolerance: tolerance).failure(reference: reference, actual: actual)
        }
    }
}
#endif
