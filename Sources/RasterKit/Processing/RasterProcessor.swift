/// One post-processing stage: takes a finished render and returns a new image. Chained on a
/// component with ``Rasterizable/processed(_:)``; the chain becomes part of the cache key, so
/// each processed variant is cached like any component state, and the base render it starts
/// from is requested through the cache and shared by every variant.
///
/// ```swift
/// struct Grayscale: RasterProcessor {
///     var identifier: String { "com.example.grayscale.v1" }
///     func process(_ image: RasterImage) throws -> RasterImage { … }
/// }
/// let gray = Badge(count: 3).processed(Grayscale(), RasterProcessors.RoundedCorners(radius: 8))
/// ```
///
/// Geometry a processor takes is in points: an image's ``RasterImage/scale`` converts it to pixels.
/// A processor's stored properties are keyed like component state (see ``StateHashable``), so two
/// values that differ in any of them never share a render; bump the version in `identifier`
/// when `process` changes what it makes from the same input.
public protocol RasterProcessor: Sendable {
    /// Stable, versioned name such as "rasterkit.roundedCorners.v1"; part of the cache key.
    var identifier: String { get }
    /// Whether a nine-slice render stays stretchable through this stage: true for stages that
    /// change each pixel on its own (tint, opacity), which then run on the small minimum-frame
    /// render before it is stretched. False (the default) runs the stage after stretching, with
    /// the final size in the key.
    var keepsNineSliceStretchable: Bool { get }
    /// The processed image. Throw for parameters that cannot be applied (``ProcessorError``);
    /// surfaces should be made with the processor helpers so that they stay inside the render's
    /// ``ResourceLimits``.
    func process(_ image: RasterImage) throws -> RasterImage
}

extension RasterProcessor {
    /// Not stretchable: the stage runs on the stretched, full-size render.
    public var keepsNineSliceStretchable: Bool { false }
}
