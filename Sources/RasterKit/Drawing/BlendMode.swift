/// How drawn pixels combine with what is already on the canvas: the separable and
/// non-separable blend modes of the PDF and CSS specifications, and Porter-Duff operators.
public enum BlendMode: String, Hashable, Sendable, Codable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn
    case hardLight, softLight, difference, exclusion, hue, saturation, color, luminosity
    /// Adds colour values (Porter-Duff "add").
    case plusLighter
    /// Clears what lies under the drawing.
    case clear
    /// Replaces what lies under the drawing.
    case copy
    case sourceIn, sourceOut, sourceAtop
    case destinationOver, destinationIn, destinationOut, destinationAtop
    case xor
}

/// A shadow cast by what is drawn (or, as an inner shadow, inside a shape).
public struct Shadow: Hashable, Sendable {
    /// The shadow's colour; its alpha sets how dark the shadow is.
    public var color: Color
    /// Offset in points. Like CSS and Core Graphics, the offset is not rotated or scaled by the
    /// canvas's transform: a shadow falls the same way whatever the drawing's orientation.
    public var offset: Point
    /// Blur radius in points, as in CSS `box-shadow`: a Gaussian with σ = blur / 2.
    public var blur: Double

    /// A shadow of `color`, by default 2 points down with a 4-point blur.
    public init(color: Color, offset: Point = Point(x: 0, y: 2), blur: Double = 4) {
        self.color = color
        self.offset = offset
        self.blur = blur
    }
}

/// A layer mask: what is drawn in the layer shows only where the mask is opaque.
public enum Mask: Hashable, Sendable {
    /// The alpha of an image placed in `rect`.
    case image(RasterImage, in: Rect)
    /// The alpha of a linear gradient.
    case linearGradient(LinearGradient)
    /// The alpha of a radial gradient.
    case radialGradient(RadialGradient)
}
