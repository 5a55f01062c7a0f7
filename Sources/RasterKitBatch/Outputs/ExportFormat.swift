import RasterKit
/// How a batch writes its images.
///
/// - `png`: `<component>-<state>[-<W>x<H>][@<S>x].png` in the output directory.
/// - `xcassets`: an Xcode asset catalog, one image set per component, state and size, with
///   `resizing` slices for components that have caps.
/// - `ninepatch`: Android drawables in density folders (`drawable-xhdpi/…`): `.9.png` files with
///   stretch and content markers for components that have caps, plain `.png` files otherwise.
/// - `webp`: `<component>-<state>[-<W>x<H>][@<S>x].webp`, lossless unless a quality is given.
/// - `pdf`, `svg`: `<component>-<state>[-<W>x<H>].pdf` (`.svg`), one vector document per size
///   at its size in points, whatever the scales (see `Rasterizer.vectorDocument(of:size:format:)`).
public enum ExportFormat: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case png, xcassets, ninepatch, webp, pdf, svg

    /// Whether the format can hold images at `scale`: any for PNG; 1x, 2x and 3x in an asset
    /// catalog; the Android densities (0.75, 1, 1.5, 2, 3, 4) for nine-patch drawables.
    public func supports(scale: Double) -> Bool { layout.supports(scale: scale) }

    /// The scales ``supports(scale:)`` accepts, for messages.
    public var supportedScales: String { layout.supportedScales }

    public var description: String { rawValue }
}
