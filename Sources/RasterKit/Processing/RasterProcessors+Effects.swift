extension RasterProcessors {
    /// A Gaussian blur of `radius` points (the standard deviation, as Core Image's
    /// `CIGaussianBlur` and ImageMagick's `-blur 0xσ` take it), on premultiplied pixels so that
    /// colours never bleed from transparent ones. The image keeps its size.
    public struct GaussianBlur: RasterProcessor, Hashable {
        /// What lies beyond the image's edges while blurring.
        public enum Edges: String, Hashable, Sendable, Codable, CaseIterable {
            /// Transparency: the edges fade, as CSS and SVG blur filters do (for icons and shapes).
            case transparent
            /// The edge pixels, repeated: edges stay opaque (for photographs and backgrounds).
            case extend
        }

        /// The standard deviation in points; 0 leaves the image as it is.
        public var radius: Double
        /// What lies beyond the edges.
        public var edges: Edges

        /// Blurs by `radius` points (finite, at least 0, at most the limits' ``ResourceLimits/maximumShadowBlur``).
        public init(radius: Double, edges: Edges = .transparent) {
            self.radius = radius
            self.edges = edges
        }

        /// "rasterkit.gaussianBlur.v1"
        public var identifier: String { "rasterkit.gaussianBlur.v1" }

        /// The blurred image: a true Gaussian kernel for small radii, three box blurs (each
        /// costing the same whatever the radius) from σ = 2 pixels up.
        public func process(_ image: RasterImage) throws -> RasterImage {
            let limits = ProcessingContext.current.limits
            try ProcessorError.check(radius, in: 0...limits.maximumShadowBlur, "radius", of: "gaussianBlur")
            let sigma = radius * image.scale
            guard 3 * sigma <= Double(limits.pixels.maximumSide) else {
                throw RenderError.limitExceeded(what: "blur reach in pixels", value: "\(3 * sigma)",
                                                limit: "\(limits.pixels.maximumSide) pixels")
            }
            if sigma < 0.05 { return try image.withCapInsets(nil) }
            var result = try PixelMap.map(image) { source, target, count in
                target.update(from: source, count: count)
            }
            try PixelBlur.blur(result.storage.bytes.assumingMemoryBound(to: UInt32.self), width: image.pixelWidth,
                               height: image.pixelHeight, sigma: sigma, extendsEdges: edges == .extend)
            result = try result.withCapInsets(nil)
            return result
        }
    }

    /// Draws a shadow under the image, as ``Canvas/withShadow(_:_:)`` does: the image keeps its
    /// size, so leave room for the shadow with ``Padding`` first.
    public struct DropShadow: RasterProcessor, Hashable {
        /// The shadow: colour, offset and blur in points.
        public var shadow: Shadow

        /// A drop shadow within the limits' ``ResourceLimits/maximumShadowBlur`` and offset.
        public init(_ shadow: Shadow) { self.shadow = shadow }

        /// "rasterkit.dropShadow.v1"
        public var identifier: String { "rasterkit.dropShadow.v1" }

        /// The image over its blurred, offset, coloured silhouette.
        public func process(_ image: RasterImage) throws -> RasterImage {
            try ProcessorError.check(shadow.color, "shadow.color", of: "dropShadow")
            let source = try image.withCapInsets(nil)
            return try ProcessorImages.draw(pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, scale: image.scale) { canvas in
                let bounds = Rect(size: canvas.size)
                canvas.withShadow(shadow) { canvas.draw(source, in: bounds) }
            }
        }
    }

    /// A stage written as a closure. Its `identifier` is all the key knows of it (a closure's
    /// code cannot be keyed): give each closure its own, and bump its version when the closure changes.
    ///
    /// ```swift
    /// let inverted = RasterProcessors.Anonymous(identifier: "com.example.invert.v1") { image in invert(image) }
    /// ```
    public struct Anonymous: RasterProcessor {
        /// Names the closure in cache keys.
        public let identifier: String
        /// Whether the closure changes each pixel on its own, so a nine-slice render stays stretchable.
        public let keepsNineSliceStretchable: Bool
        private let body: @Sendable (RasterImage) throws -> RasterImage

        /// A stage running `body`, keyed by `identifier`.
        public init(identifier: String, keepsNineSliceStretchable: Bool = false,
                    _ body: @escaping @Sendable (RasterImage) throws -> RasterImage) {
            self.identifier = identifier
            self.keepsNineSliceStretchable = keepsNineSliceStretchable
            self.body = body
        }

        /// What the closure returns.
        public func process(_ image: RasterImage) throws -> RasterImage { try body(image) }
    }
}

extension RasterProcessors.Anonymous: StateHashable {
    /// Writes whether the stage keeps a nine-slice render stretchable: the closure is named by
    /// ``RasterProcessors/Anonymous/identifier``, which every chain's key already holds (a
    /// closure cannot be keyed otherwise).
    public func hashState(into hasher: inout StateHasher) { hasher.combine(keepsNineSliceStretchable) }
}
