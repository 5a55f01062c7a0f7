extension RasterProcessors {
    /// Scales the image to `size` points (at its own scale), placed by `contentMode`: fitted
    /// inside by default, or covering, stretched or centred.
    public struct Resize: RasterProcessor, Hashable {
        /// The new size, in points.
        public var size: Size
        /// How the image is placed in the new size.
        public var contentMode: ContentMode

        /// Resizes to `size` points (finite and positive), fitting the image by default.
        public init(size: Size, contentMode: ContentMode = .aspectFit) {
            self.size = size
            self.contentMode = contentMode
        }

        /// "rasterkit.resize.v1"
        public var identifier: String { "rasterkit.resize.v1" }

        /// The image redrawn at `size` with cairo's good (box-filtered when shrinking) sampling.
        public func process(_ image: RasterImage) throws -> RasterImage {
            guard size.isDrawable else {
                throw ProcessorError.invalidParameter(processor: "resize", parameter: "size", value: "\(size)",
                                                      expected: "a finite width and height greater than 0")
            }
            let pixels = try PixelGeometry.pixelSize(for: size, scale: image.scale, limits: ProcessingContext.current.limits.pixels)
            let source = try image.withCapInsets(nil)
            let frame = contentMode.frame(forContentOfSize: image.size, in: Rect(size: size))
            return try ProcessorImages.draw(pixelWidth: pixels.width, pixelHeight: pixels.height, scale: image.scale,
                                            size: size) { canvas in
                canvas.draw(source, in: frame)
            }
        }
    }

    /// Keeps the part of the image inside `rect` (in points, from its top left): the result is
    /// `rect.size`, transparent where the rectangle reaches past the image. Edges are rounded to
    /// whole pixels, so pixels are copied, never resampled.
    public struct Crop: RasterProcessor, Hashable {
        /// The part kept, in points.
        public var rect: Rect

        /// Crops to `rect` (finite, with a positive width and height).
        public init(rect: Rect) { self.rect = rect }

        /// "rasterkit.crop.v1"
        public var identifier: String { "rasterkit.crop.v1" }

        /// The pixels inside `rect`.
        public func process(_ image: RasterImage) throws -> RasterImage {
            guard rect.size.isDrawable, rect.minX.isFinite, rect.minY.isFinite else {
                throw ProcessorError.invalidParameter(processor: "crop", parameter: "rect", value: "\(rect)",
                                                      expected: "a finite origin and a finite size greater than 0")
            }
            let scale = image.scale
            let width = max(1, try ProcessorImages.pixels(rect.width, scale: scale))
            let height = max(1, try ProcessorImages.pixels(rect.height, scale: scale))
            // Origins far outside the image just give a transparent result; bounded before Int().
            let bound = Double(ProcessingContext.current.limits.pixels.maximumSide) * 4
            let x = Int(max(-bound, min(bound, (rect.minX * scale).rounded())))
            let y = Int(max(-bound, min(bound, (rect.minY * scale).rounded())))
            return try PixelCopy.place(image, at: (-x, -y), inPixelWidth: width, height: height)
        }
    }

    /// Adds transparent space around the image: the result is larger by the insets. Insets are
    /// rounded to whole pixels, so the image's pixels are copied, never resampled.
    public struct Padding: RasterProcessor, Hashable {
        /// The space added on each edge, in points.
        public var insets: EdgeInsets

        /// Pads by `insets` points (each finite and at least 0).
        public init(_ insets: EdgeInsets) { self.insets = insets }

        /// "rasterkit.padding.v1"
        public var identifier: String { "rasterkit.padding.v1" }

        /// The image placed inside a transparent frame.
        public func process(_ image: RasterImage) throws -> RasterImage {
            for (name, value) in [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)] {
                try ProcessorError.checkNonNegative(value, "insets.\(name)", of: "padding")
            }
            let scale = image.scale
            let left = try ProcessorImages.pixels(insets.left, scale: scale), right = try ProcessorImages.pixels(insets.right, scale: scale)
            let top = try ProcessorImages.pixels(insets.top, scale: scale), bottom = try ProcessorImages.pixels(insets.bottom, scale: scale)
            return try PixelCopy.place(image, at: (left, top), inPixelWidth: image.pixelWidth + left + right,
                                       height: image.pixelHeight + top + bottom)
        }
    }
}

/// Copies an image's pixels into a new transparent image of another size.
enum PixelCopy {
    /// A `width` × `height` image at the source's scale with the source's pixel (0, 0) at `origin`.
    static func place(_ image: RasterImage, at origin: (x: Int, y: Int), inPixelWidth width: Int, height: Int) throws -> RasterImage {
        // Every pixel is written once: cleared around the copied span, never cleared and then overwritten.
        let storage = try ProcessorImages.storage(pixelWidth: width, pixelHeight: height)
        let target = storage.bytes.assumingMemoryBound(to: UInt32.self)
        // The source columns and rows that land inside the target.
        let firstColumn = max(0, -origin.x), lastColumn = min(image.pixelWidth, width - origin.x)
        let firstRow = max(0, -origin.y), lastRow = min(image.pixelHeight, height - origin.y)
        let copiesColumns = firstColumn < lastColumn
        image.withUnsafePremultipliedPixels { source in
            let base = source.baseAddress!
            for y in 0..<height {
                let row = target + y * width
                let sourceRow = y - origin.y
                guard copiesColumns, sourceRow >= firstRow, sourceRow < lastRow else {
                    row.initialize(repeating: 0, count: width)
                    continue
                }
                let start = firstColumn + origin.x, count = lastColumn - firstColumn
                row.initialize(repeating: 0, count: start)
                (row + start).initialize(from: base + sourceRow * image.pixelWidth + firstColumn, count: count)
                (row + start + count).initialize(repeating: 0, count: width - start - count)
            }
        }
        return RasterImage(storage: storage, pixelWidth: width, pixelHeight: height, scale: image.scale, capInsets: nil)
    }
}
