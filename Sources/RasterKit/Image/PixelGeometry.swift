/// Conversions between sizes in points and whole pixels, shared by every surface RasterKit makes.
package enum PixelGeometry {
    /// Throws unless `scale` is finite and positive.
    static func validate(scale: Double) throws {
        guard scale.isFinite, scale > 0 else { throw RenderError.invalidScale(scale) }
    }

    /// Throws unless `size` is finite and positive on both sides.
    static func validate(size: Size) throws {
        guard size.isDrawable else { throw RenderError.invalidSize(size) }
    }

    /// Whole pixels covering `points` at `scale`. A product within a millionth of a pixel of a
    /// whole number is taken as that number, so 33.333… × 3 gives 100, not 101.
    static func pixels(_ points: Double, scale: Double) -> Int {
        let exact = points * scale
        let nearest = exact.rounded()
        if abs(exact - nearest) < 1e-6 { return Int(nearest) }
        return Int(exact.rounded(.up))
    }

    /// Validates and converts a point size to a pixel size within `limits`.
    package static func pixelSize(for size: Size, scale: Double, limits: PixelLimits) throws -> (width: Int, height: Int) {
        try validate(size: size)
        try validate(scale: scale)
        // Checked in Double first so an absurd size cannot overflow Int conversion.
        let side = Double(limits.maximumSide)
        guard size.width * scale <= side + 1, size.height * scale <= side + 1 else {
            throw RenderError.surfaceTooLarge(
                pixelWidth: Int(min(size.width * scale, 1e15)), pixelHeight: Int(min(size.height * scale, 1e15)),
                limits: limits)
        }
        let width = max(1, pixels(size.width, scale: scale))
        let height = max(1, pixels(size.height, scale: scale))
        try limits.check(pixelWidth: width, pixelHeight: height)
        return (width, height)
    }
}
