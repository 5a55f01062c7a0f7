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
            return try MaskedCopy.clip(image, to: Path(roundedRect: Rect(size: image.size), cornerRadius: radius))
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
            let size = image.size
            let diameter = min(size.width, size.height)
            let square = Rect(x: (size.width - diameter) / 2, y: (size.height - diameter) / 2, width: diameter, height: diameter)
            return try MaskedCopy.clip(image, to: Path(ellipseIn: square))
        }
    }
}

/// A copy of an image with everything outside a path cleared.
enum MaskedCopy {
    static func clip(_ image: RasterImage, to path: Path) throws -> RasterImage {
        let source = try image.withCapInsets(nil)
        return try ProcessorImages.draw(pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, scale: image.scale) { canvas in
            canvas.clip(to: path)
            canvas.draw(source, in: Rect(size: canvas.size))
        }
    }
}
