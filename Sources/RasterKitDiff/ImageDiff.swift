import Foundation

/// Pixel-by-pixel image comparison compatible with pixelmatch v7.2.0 (mapbox/pixelmatch, ISC).
///
/// Same counts, same diff image: a perceptual YIQ colour distance per pixel, anti-aliased
/// pixels detected and excused, semi-transparent pixels blended over pixelmatch's background.
/// Byte-identical images take a `memcmp` fast path.
///
/// ```swift
/// let result = try ImageDiff.compare(golden, rendered)
/// if !Tolerance(maxDifferentPixels: 4).accepts(result) { try result.diffImage?.pngData().write(to: url) }
/// ```
public enum ImageDiff {
    /// Compares `expected` with `actual` (pixelmatch's `img1` and `img2`).
    ///
    /// - Parameter expected: the reference image, such as a golden.
    /// - Parameter actual: the image to check, of the same size.
    /// - Parameter options: the threshold and how the diff image is drawn (pixelmatch's defaults).
    /// - Parameter makeDiffImage: false skips drawing the diff image, for counting only.
    /// - Throws: ``ImageDiffError`` for invalid options or images of different sizes.
    public static func compare(_ expected: RGBABitmap, _ actual: RGBABitmap, options: Options = .init(),
                               makeDiffImage: Bool = true) throws(ImageDiffError) -> Result {
        try options.validate()
        let size = PixelSize(of: expected)
        guard size == PixelSize(of: actual) else { throw .sizeMismatch(expected: size, actual: PixelSize(of: actual)) }

        if expected == actual {
            let source: DiffImageSource = if !makeDiffImage {
                .none
            } else if options.diffMask {
                .transparent(size)
            } else {
                .faded(expected, alpha: options.alpha)
            }
            return Result(size: size, differentPixels: 0, antiAliasedPixels: 0, isIdentical: true,
                          diffImageSource: source)
        }

        var counts = Pixelmatch.Counts()
        let output: RGBABitmap? = expected.withUnsafeBytes { first in
            actual.withUnsafeBytes { second in
                func compare(drawingInto output: UnsafeMutableBufferPointer<UInt8>?) {
                    let matcher = Pixelmatch(first: first, second: second, output: output, size: size, options: options)
                    counts = matcher.run()
                }
                guard makeDiffImage else {
                    compare(drawingInto: nil)
                    return nil
                }
                return RGBABitmap.make(width: size.width, height: size.height) { compare(drawingInto: $0) }
            }
        }
        var bounds: PixelRect?, largest: LargestDifference?
        if counts.different > 0 {
            bounds = PixelRect(x: counts.minX, y: counts.minY, width: counts.maxX - counts.minX + 1,
                               height: counts.maxY - counts.minY + 1)
            let (x, y) = (counts.largestX, counts.largestY)
            largest = LargestDifference(x: x, y: y, expected: expected[x, y], actual: actual[x, y],
                                        distance: min(1, (counts.largestDelta / 35215).squareRoot()))
        }
        return Result(size: size, differentPixels: counts.different, antiAliasedPixels: counts.antiAliased,
                      isIdentical: false, differenceBounds: bounds, largestDifference: largest,
                      diffImageSource: output.map { .drawn($0) } ?? .none)
    }
}
