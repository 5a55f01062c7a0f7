import RasterKit
import Foundation

/// How a batch turns a render into the bytes of a file.
///
/// The identifier names those bytes: it is part of every output's fingerprint (an output whose
/// file holds what its fingerprint names is not made again) and the name under which the render
/// store keeps the bytes, so that a batch into a fresh folder copies them instead of encoding
/// the render again. Encoders must therefore be deterministic: the same render, the same bytes.
///
/// ```swift
/// struct GrayscalePNG: BatchEncoder {
///     var identifier: String { "example.grayscale-png.v1" }
///     func encode(_ image: RasterImage) throws -> Data { try image.grayscale().pngData() }
/// }
/// ```
public protocol BatchEncoder: Sendable {
    /// A stable, versioned name of the bytes this encoder writes for a render, with every
    /// parameter that changes them ("png1-9patch1-caps"). Change it whenever the encoder would
    /// write other bytes for the same render: stored bytes under the old name are then ignored.
    var identifier: String { get }

    /// Whether ``encode(_:)`` writes RasterKit's PNG of exactly the rendered pixels
    /// (`RasterImage.pngData()`): the store's entry then holds these very bytes rather than a
    /// copy beside its own encoding. False unless an encoder says otherwise.
    var writesRenderPNG: Bool { get }

    /// The file's bytes for `image`.
    func encode(_ image: RasterImage) throws -> Data
}

extension BatchEncoder {
    /// False: the bytes are made from the render, not the render's own PNG.
    public var writesRenderPNG: Bool { false }
}

/// RasterKit's deterministic PNG of the render, with its scale and cap insets in text chunks:
/// what `png` and `xcassets` outputs and plain Android drawables hold.
public struct PNGBatchEncoder: BatchEncoder {
    /// Changes whenever `RasterImage.pngData()` would write other bytes for the same pixels.
    static let version = 1

    /// The PNG encoder.
    public init() {}

    /// `png1`.
    public var identifier: String { "png\(Self.version)" }

    /// True: the bytes are the render's own PNG.
    public var writesRenderPNG: Bool { true }

    /// `image.pngData()`.
    public func encode(_ image: RasterImage) throws -> Data { try image.pngData() }
}

/// An Android `.9.png`: the render inside a one-pixel border of stretch and content markers
/// (see `RasterImage.ninePatchPNGData(contentInsets:)`). Throws for a render without caps.
public struct NinePatchBatchEncoder: BatchEncoder {
    /// The content area the bottom and right markers show, in points; nil marks the area inside the caps.
    public var contentInsets: EdgeInsets?

    /// Changes whenever the markers would be drawn differently for the same render.
    static let version = 1

    /// The optical (layout) bounds the red ticks mark, in points; nil for none.
    public var opticalInsets: EdgeInsets?

    /// A nine-patch encoder marking `contentInsets` as the content area (nil: inside the caps)
    /// and `opticalInsets` as the layout bounds (nil: none).
    public init(contentInsets: EdgeInsets? = nil, opticalInsets: EdgeInsets? = nil) {
        self.contentInsets = contentInsets
        self.opticalInsets = opticalInsets
    }

    /// `png1-9patch1-` and the content insets (or `caps`), then `-optical` and the optical
    /// insets when there are any.
    public var identifier: String {
        PNGBatchEncoder().identifier + "-9patch\(Self.version)-\(contentInsets.map(\.description) ?? "caps")"
            + (opticalInsets.map { "-optical\($0.description)" } ?? "")
    }

    /// The render with its marker border, as a PNG.
    public func encode(_ image: RasterImage) throws -> Data {
        try image.ninePatchPNGData(contentInsets: contentInsets, opticalInsets: opticalInsets)
    }
}

/// A template image's PNG: the render's alpha in black (`RasterProcessors.Tint` with black),
/// with its scale and caps, as Xcode and tinting code expect of a template.
public struct TemplatePNGBatchEncoder: BatchEncoder {
    /// Changes whenever a template would be written otherwise for the same render.
    static let version = 1

    /// The template encoder.
    public init() {}

    /// `png1-template1`.
    public var identifier: String { PNGBatchEncoder().identifier + "-template\(Self.version)" }

    /// The render in black with its alpha, as a PNG.
    public func encode(_ image: RasterImage) throws -> Data {
        try RasterProcessors.Tint(color: .black).process(image).pngData()
    }
}
