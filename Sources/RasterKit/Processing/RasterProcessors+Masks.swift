extension RasterProcessors {
    /// Rounds the image's corners: what lies outside a rounded rectangle of `radius` points
    /// becomes transparent, with anti-aliased edges. A radius over half a side makes a pill.
    public struct RoundedCorners: RasterProcessor, Hashable {
        /// The corner radius in points; 0 leaves the image as it is.
        public var radius: Double

        /// Corners rounded by `radius` points (finite, at least 0).
        public init(radius: Double) { self.radius = radius }

        /// "rasterkit.roundedCorners.v1"
        public var identifier: String { "rasterkit.roundedCorners.v1" }

        /// The image clipped to the rounded rectangle of its bounds.
        public func process(_ image: RasterImage) throws -> RasterImage {
            try ProcessorError.checkNonNegative(radius, "radius", of: "roundedCorners")
            if radius == 0 { return try image.withCapInsets(nil) }
            return try MaskedCopy.clip(image, toRoundedRect: (0, 0, Double(image.pixelWidth), Double(image.pixelHeight)),
                                       radius: radius * image.scale)
        }
    }

    /// Keeps the largest circle centred in the image, transparent around it (the image keeps its
    /// size): the avatar shape.
    public struct Circle: RasterProcessor, Hashable {
        /// The circle of the image's shorter side.
        public init() {}

        /// "rasterkit.circle.v1"
        public var identifier: String { "rasterkit.circle.v1" }

        /// The image clipped to its centred circle.
        public func process(_ image: RasterImage) throws -> RasterImage {
            let width = Double(image.pixelWidth), height = Double(image.pixelHeight)
            let diameter = min(width, height)
            return try MaskedCopy.clip(image, toRoundedRect: ((width - diameter) / 2, (height - diameter) / 2, diameter, diameter),
                                       radius: diameter / 2)
        }
    }
}

/// A copy of an image with everything outside a rounded rectangle cleared, row by row: rows
/// and spans wholly inside are copied, wholly outside cleared, and only the pixels the edge
/// crosses are weighted by their coverage — the shape's signed distance at the pixel's centre,
/// which for edges and arcs wider than a pixel is the covered area to within a few levels.
enum MaskedCopy {
    /// `rect` (x, y, width, height) and `radius` in pixels; a radius over half a side makes a pill.
    static func clip(_ image: RasterImage, toRoundedRect rect: (x: Double, y: Double, width: Double, height: Double),
                     radius: Double) throws -> RasterImage {
        let width = image.pixelWidth, height = image.pixelHeight
        let storage = try ProcessorImages.storage(pixelWidth: width, pixelHeight: height)
        let target = storage.bytes.assumingMemoryBound(to: UInt32.self)
        // Under half a pixel the distance no longer measures coverage; nobody sees the difference.
        let r = max(0.5, min(radius, rect.width / 2, rect.height / 2))
        let innerLeft = rect.x + r, innerRight = rect.x + rect.width - r
        let innerTop = rect.y + r, innerBottom = rect.y + rect.height - r
        image.withUnsafePremultipliedPixels { pixels in
            let source = pixels.baseAddress!
            for y in 0..<height {
                let row = target + y * width, from = source + y * width
                let centreY = Double(y) + 0.5
                let dy = max(0, innerTop - centreY, centreY - innerBottom)
                guard dy < r + 0.5 else {
                    row.initialize(repeating: 0, count: width)
                    continue
                }
                // Pixel centres at horizontal distance ≤ inside from the inner band are wholly
                // inside; ≥ outside, wholly outside.
                let outside = ((r + 0.5) * (r + 0.5) - dy * dy).squareRoot()
                let inside = dy < r - 0.5 ? ((r - 0.5) * (r - 0.5) - dy * dy).squareRoot() : -1
                let firstTouched = max(0, Int((innerLeft - outside - 0.5).rounded(.up)))
                let lastTouched = min(width - 1, Int((innerRight + outside - 0.5).rounded(.down)))
                guard firstTouched <= lastTouched else {
                    row.initialize(repeating: 0, count: width)
                    continue
                }
                var firstInside = inside < 0 ? lastTouched + 1 : max(firstTouched, Int((innerLeft - inside - 0.5).rounded(.up)))
                var lastInside = inside < 0 ? lastTouched : min(lastTouched, Int((innerRight + inside - 0.5).rounded(.down)))
                if firstInside > lastInside { (firstInside, lastInside) = (lastTouched + 1, lastTouched) }
                row.initialize(repeating: 0, count: firstTouched)
                (row + lastTouched + 1).initialize(repeating: 0, count: width - lastTouched - 1)
                if firstInside <= lastInside {
                    (row + firstInside).initialize(from: from + firstInside, count: lastInside - firstInside + 1)
                }
                for x in firstTouched..<firstInside { row[x] = weighted(from[x], x, dy, innerLeft, innerRight, r) }
                for x in (lastInside + 1)..<(lastTouched + 1) where x >= firstInside {
                    row[x] = weighted(from[x], x, dy, innerLeft, innerRight, r)
                }
            }
        }
        return RasterImage(storage: storage, pixelWidth: width, pixelHeight: height, scale: image.scale, capInsets: nil)
    }

    /// `pixel` times the shape's coverage of pixel column `x` in a row `dy` from the inner band.
    @inline(__always)
    private static func weighted(_ pixel: UInt32, _ x: Int, _ dy: Double, _ innerLeft: Double, _ innerRight: Double,
                                 _ r: Double) -> UInt32 {
        let centreX = Double(x) + 0.5
        let dx = max(0, innerLeft - centreX, centreX - innerRight)
        let coverage = min(1, max(0, r + 0.5 - (dx * dx + dy * dy).squareRoot()))
        let factor = UInt32((coverage * 255).rounded())
        if factor == 255 { return pixel }
        var redBlue = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
        redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var alphaGreen = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
        alphaGreen = (alphaGreen &+ ((alphaGreen >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return alphaGreen | redBlue
    }
}
