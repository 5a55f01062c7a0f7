import Foundation

/// Rectangles of an image a comparison ignores (a timestamp, an animated part), in pixels, and
/// how they are shown in a diff image: hatched in blue, so a reviewer sees what was not compared.
package struct IgnoredRegions: Sendable {
    /// A region in whole pixels, clipped to the image.
    package struct PixelRegion: Hashable, Sendable {
        package var x: Int, y: Int, width: Int, height: Int
    }

    /// The regions, in pixels.
    package let regions: [PixelRegion]

    /// Converts rectangles in points to pixels at `scale` (rounded outwards, so a mask covers
    /// every pixel it touches), after checking each one. Throws ``IgnoredRegionsError`` for a
    /// rectangle that is not finite, is empty or extends past the `imageSize` in points.
    package init(_ rectangles: [Rect], scale: Double, imageSize: Size) throws(IgnoredRegionsError) {
        var regions: [PixelRegion] = []
        for rectangle in rectangles {
            let values = [rectangle.minX, rectangle.minY, rectangle.width, rectangle.height]
            guard values.allSatisfy(\.isFinite) else { throw .notFinite(rectangle) }
            guard rectangle.width > 0, rectangle.height > 0 else { throw .empty(rectangle) }
            guard rectangle.minX >= 0, rectangle.minY >= 0, rectangle.maxX <= imageSize.width, rectangle.maxY <= imageSize.height else {
                throw .outside(rectangle, imageSize: imageSize)
            }
            let x0 = Int((rectangle.minX * scale).rounded(.down)), y0 = Int((rectangle.minY * scale).rounded(.down))
            let x1 = Int((rectangle.maxX * scale).rounded(.up)), y1 = Int((rectangle.maxY * scale).rounded(.up))
            regions.append(PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
        self.regions = regions
    }

    /// No region: every pixel is compared.
    package static let none = IgnoredRegions(regions: [])

    private init(regions: [PixelRegion]) { self.regions = regions }

    /// True when there is nothing to ignore.
    package var isEmpty: Bool { regions.isEmpty }

    /// `actual` with the pixels of every region taken from `expected`, so those pixels compare
    /// equal and the anti-aliasing check around a region's edge sees the same neighbours in
    /// both images. Both bitmaps must have the same size.
    package func applying(_ expected: RGBABitmap, to actual: RGBABitmap) -> RGBABitmap {
        guard !regions.isEmpty else { return actual }
        let width = actual.width, height = actual.height
        return expected.withUnsafeBytes { source in
            actual.withUnsafeBytes { original in
                RGBABitmap.make(width: width, height: height) { output in
                    _ = output.initialize(from: original)
                    for region in clipped(width: width, height: height) {
                        for y in region.y ..< region.y + region.height {
                            let start = (y * width + region.x) * 4
                            for index in start ..< start + region.width * 4 { output[index] = source[index] }
                        }
                    }
                }
            }
        }
    }

    /// `diff` with each region hatched: diagonal stripes of two blues.
    package func drawn(on diff: RGBABitmap) -> RGBABitmap {
        guard !regions.isEmpty else { return diff }
        let width = diff.width, height = diff.height
        return diff.withUnsafeBytes { original in
            RGBABitmap.make(width: width, height: height) { output in
                _ = output.initialize(from: original)
                for region in clipped(width: width, height: height) {
                    for y in region.y ..< region.y + region.height {
                        for x in region.x ..< region.x + region.width {
                            let stripe = (x + y) % 6 < 3
                            let index = (y * width + x) * 4
                            output[index] = stripe ? 0 : 160
                            output[index + 1] = stripe ? 102 : 200
                            output[index + 2] = 255
                            output[index + 3] = 255
                        }
                    }
                }
            }
        }
    }

    /// Each region as `x,y widthxheight px`, for messages and reports.
    package var descriptions: [String] {
        regions.map { "\($0.x),\($0.y) \($0.width)×\($0.height) px" }
    }

    private func clipped(width: Int, height: Int) -> [PixelRegion] {
        regions.compactMap { region in
            let x0 = max(0, region.x), y0 = max(0, region.y)
            let x1 = min(width, region.x + region.width), y1 = min(height, region.y + region.height)
            return x1 > x0 && y1 > y0 ? PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
    }
}

/// A mask rectangle that cannot be used. Not public: a golden assertion reports it as
/// ``GoldenError/invalidMask(_:)``, the one error a caller sees.
package enum IgnoredRegionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A coordinate or side is NaN or infinite.
    case notFinite(Rect)
    /// The width or height is zero or negative.
    case empty(Rect)
    /// Part of the rectangle lies outside the image.
    case outside(Rect, imageSize: Size)

    /// What is wrong with the rectangle, in points.
    package var description: String {
        switch self {
        case .notFinite(let rect): "mask \(rect) has a coordinate that is not a finite number"
        case .empty(let rect): "mask \(rect) is empty: its width and height must be greater than 0"
        case let .outside(rect, size):
            "mask \(rect) extends past the image, which is \(size.width)×\(size.height) points; masks are in points from the top left"
        }
    }
}
