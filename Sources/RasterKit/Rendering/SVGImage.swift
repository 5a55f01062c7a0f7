/// A component that draws an ``SVGDocument``: the way to turn SVG icons into cached PNGs at
/// any size and scale. Its state is the document's digest, the content mode and the tint, so
/// an unchanged file is never drawn twice and a changed file always is.
///
/// ```swift
/// let icon = try SVGDocument(contentsOf: URL(fileURLWithPath: "Examples/icons/bell.svg"))
/// let image = try rasterizer.image(for: SVGImage(icon, contentMode: .aspectFit, tint: .white),
///                                  size: Size(48), scale: 2)
/// ```
public struct SVGImage: Rasterizable, StateHashable, CustomStringConvertible {
    /// The document drawn.
    public var document: SVGDocument
    /// How the document's intrinsic size is placed in the requested size.
    public var contentMode: ContentMode
    /// When set, every painted pixel takes this colour and keeps its alpha.
    public var tint: Color?
    /// The digest of fonts registered besides RasterKit's defaults that the document's text may
    /// be drawn with (`--font-dir`); part of the key when the document may hold text.
    public var fonts: StableDigest?

    /// `document` placed by `contentMode` (scaled to fit, by default), tinted when `tint` is set.
    public init(_ document: SVGDocument, contentMode: ContentMode = .aspectFit, tint: Color? = nil, fonts: StableDigest? = nil) {
        self.document = document
        self.contentMode = contentMode
        self.tint = tint
        self.fonts = fonts
    }

    /// Draws the document into the whole canvas; throws ``SVGError`` when librsvg cannot read or draw it.
    public func draw(in canvas: Canvas, size: Size) throws {
        try canvas.drawSVG(document, in: Rect(size: size), contentMode: contentMode, tint: tint)
    }

    /// Writes what decides the pixels: the document's bytes (by digest), where its external
    /// references may come from, the content mode, the tint, the librsvg version, and the
    /// added fonts when it may hold text.
    public func hashState(into hasher: inout StateHasher) {
        hasher.combine(document.digest.high)
        hasher.combine(document.digest.low)
        hasher.combine(document.externalReferences.baseDirectory?.path)
        hasher.combine(contentMode.rawValue)
        hasher.combine(tint)
        hasher.combine(LibrsvgHandle.version)
        if let fonts, document.mayContainText {
            hasher.combine(fonts.high)
            hasher.combine(fonts.low)
        }
    }

    /// The document's source, the digest's first digits, the content mode and any tint.
    public var description: String {
        let name = document.source ?? "\(document.data.count) bytes"
        var text = "\(name) [\(document.digest.hex.prefix(8))…], \(contentMode)"
        if let tint { text += ", tint \(tint)" }
        return text
    }
}
