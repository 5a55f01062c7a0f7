extension RasterProcessors {
    /// Template rendering: every pixel takes `color`, through the image's alpha. An icon drawn
    /// in any colour becomes that colour, its edges' anti-aliasing kept; a translucent `color`
    /// multiplies the alpha. Keeps a nine-slice render stretchable.
    public struct Tint: RasterProcessor, Hashable {
        /// The colour painted through the alpha.
        public var color: Color

        /// Tints with `color` (each component in 0...1).
        public init(color: Color) { self.color = color }

        /// "rasterkit.tint.v1"
        public var identifier: String { "rasterkit.tint.v1" }

        /// Each pixel on its own: the tinted render stays stretchable.
        public var keepsNineSliceStretchable: Bool { true }

        /// The image with each pixel's colour replaced and its alpha kept (times the colour's).
        public func process(_ image: RasterImage) throws -> RasterImage {
            try ProcessorError.check(color, "color", of: "tint")
            // The premultiplied word for each alpha: one table lookup a pixel.
            var table = [UInt32](repeating: 0, count: 256)
            for alpha in 0..<256 {
                let a = color.alpha * Double(alpha)
                func channel(_ value: Double) -> UInt32 { UInt32((value * a).rounded()) }
                table[alpha] = UInt32(a.rounded()) << 24 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
            }
            return try PixelMap.map(image) { source, target, count in
                table.withUnsafeBufferPointer { table in
                    for index in 0..<count { target[index] = table[Int(source[index] >> 24)] }
                }
            }
        }
    }

    /// Multiplies the image's opacity by `value`. Keeps a nine-slice render stretchable.
    public struct Opacity: RasterProcessor, Hashable {
        /// The factor, 0 (transparent) to 1 (unchanged).
        public var value: Double

        /// Opacity multiplied by `value` (in 0...1).
        public init(_ value: Double) { self.value = value }

        /// "rasterkit.opacity.v1"
        public var identifier: String { "rasterkit.opacity.v1" }

        /// Each pixel on its own: the faded render stays stretchable.
        public var keepsNineSliceStretchable: Bool { true }

        /// Every premultiplied channel times `value`.
        public func process(_ image: RasterImage) throws -> RasterImage {
            try ProcessorError.check(value, in: 0...1, "value", of: "opacity")
            let factor = UInt32((value * 255).rounded())
            if factor == 255 { return image }
            return try PixelMap.map(image) { source, target, count in
                for index in 0..<count {
                    let pixel = source[index]
                    // Two channels per multiply, each divided by 255 with rounding (as pixman does).
                    var redBlue = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
                    redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
                    var alphaGreen = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
                    alphaGreen = (alphaGreen &+ ((alphaGreen >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
                    target[index] = alphaGreen | redBlue
                }
            }
        }
    }
}

/// A new image of the same size, scale and caps whose pixels `body` writes from the source's.
enum PixelMap {
    static func map(_ image: RasterImage,
                    _ body: (UnsafePointer<UInt32>, UnsafeMutablePointer<UInt32>, Int) -> Void) throws -> RasterImage {
        let storage = try ProcessorImages.storage(pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight)
        let count = image.pixelWidth * image.pixelHeight
        image.withUnsafePremultipliedPixels { source in
            body(source.baseAddress!, storage.bytes.assumingMemoryBound(to: UInt32.self), count)
        }
        return RasterImage(storage: storage, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight,
                           scale: image.scale, capInsets: image.capInsets)
    }
}
