import RasterKit
// The kinds of layer a declarative component draws, with every value resolved.

/// A filled and/or stroked shape, with an optional drop shadow and inner shadow.
public struct ShapeLayer: Hashable, Sendable {
    /// The outline drawn in the layer's frame.
    public enum Shape: Hashable, Sendable {
        case rect
        /// Radii larger than half a side are reduced to it, so a large radius makes a pill.
        case roundedRect(CornerRadii)
        case ellipse
        /// SVG path data in points from the frame's origin, or mapped from `viewBox` onto the frame.
        case path(Path, viewBox: Rect?)
    }

    /// The outline filled and stroked.
    public var shape: Shape
    /// Frame, opacity and blend mode.
    public var common: LayerCommon
    /// What fills the shape; nil fills nothing.
    public var fill: LayerPaint?
    /// Which parts of a self-intersecting path are inside.
    public var fillRule: FillRule
    /// The outline drawn over the fill; nil draws none.
    public var stroke: LayerStroke?
    /// A drop shadow under what the layer draws.
    public var shadow: Shadow?
    /// A shadow inside the shape, drawn over the fill and under the stroke.
    public var innerShadow: Shadow?

    /// `shape` in its frame, filled and stroked as given.
    public init(shape: Shape, common: LayerCommon = LayerCommon(), fill: LayerPaint? = nil, fillRule: FillRule = .nonZero,
                stroke: LayerStroke? = nil, shadow: Shadow? = nil, innerShadow: Shadow? = nil) {
        self.shape = shape
        self.common = common
        self.fill = fill
        self.fillRule = fillRule
        self.stroke = stroke
        self.shadow = shadow
        self.innerShadow = innerShadow
    }
}

/// Text set with Pango inside the layer's frame, clipped to it: one text, or spans of one text
/// with their own font, weight, colour and lines.
public struct TextLayer: Hashable, Sendable {
    /// The text drawn, as spans; one plain span for plain text.
    public var spans: [TextSpan]
    /// Font, colour, alignment, direction, wrapping, line limits and fitting.
    public var style: TextStyle
    /// Frame, opacity and blend mode.
    public var common: LayerCommon
    /// A drop shadow under what the layer draws.
    public var shadow: Shadow?
    /// The digest of the fonts the manifest adds to RasterKit's defaults (its `fonts:`,
    /// `fallbackFonts:` and `--font-dir`), which the text may be drawn with; nil for none.
    public var fonts: StableDigest?

    /// `text` set in `style` inside the frame.
    public init(text: String, style: TextStyle, common: LayerCommon = LayerCommon(), shadow: Shadow? = nil) {
        self.init(spans: [TextSpan(text)], style: style, common: common, shadow: shadow)
    }

    /// Spans of one text, each styled as it says over `style`, inside the frame.
    public init(spans: [TextSpan], style: TextStyle, common: LayerCommon = LayerCommon(), shadow: Shadow? = nil) {
        self.spans = spans
        self.style = style
        self.common = common
        self.shadow = shadow
    }

    /// The characters of every span, in order.
    public var text: String { spans.count == 1 ? spans[0].text : spans.map(\.text).joined() }
}

/// A file's bytes, named by where they came from and identified by their digest: a render's
/// key depends on the bytes, never on the path, so editing the file redraws exactly its users.
public struct LayerFile: Hashable, Sendable {
    /// The path as the manifest gave it, for messages.
    public var source: String
    /// The file's bytes; constant, so the digest always names them.
    public let data: [UInt8]
    /// A stable 128-bit digest of the bytes: the file's identity in keys.
    public let digest: StableDigest

    /// The bytes of the file named `source`.
    public init(source: String, data: [UInt8]) {
        self.source = source
        self.data = data
        var sip = SipHash128()
        // A domain prefix keeps these digests apart from SVG documents' digests.
        sip.write(0x504E_4746_696C_6501 as UInt64)
        data.withUnsafeBytes { sip.write($0) }
        digest = sip.finalize()
    }

    /// Files are equal when their bytes are, wherever they were read from.
    public static func == (lhs: LayerFile, rhs: LayerFile) -> Bool { lhs.digest == rhs.digest && lhs.data == rhs.data }
    /// Hashes the bytes' digest.
    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

/// A PNG placed in the layer's frame.
public struct ImageLayer: Hashable, Sendable {
    /// The PNG.
    public var file: LayerFile
    /// Frame, opacity and blend mode.
    public var common: LayerCommon
    /// How the content's own size is placed in the frame.
    public var contentMode: ContentMode
    /// How pixels are sampled when the PNG is scaled.
    public var interpolation: Interpolation

    /// The PNG in `file`, fitted into the frame by default.
    public init(file: LayerFile, common: LayerCommon = LayerCommon(), contentMode: ContentMode = .aspectFit,
                interpolation: Interpolation = .good) {
        self.file = file
        self.common = common
        self.contentMode = contentMode
        self.interpolation = interpolation
    }
}

/// An SVG document placed in the layer's frame, optionally tinted.
public struct SVGLayer: Hashable, Sendable {
    /// The SVG, parsed when first drawn.
    public var document: SVGDocument
    /// Frame, opacity and blend mode.
    public var common: LayerCommon
    /// How the content's own size is placed in the frame.
    public var contentMode: ContentMode
    /// When set, every painted pixel takes this colour and keeps its alpha.
    public var tint: Color?
    /// The digest of the fonts the manifest adds, when the document may hold text; nil otherwise.
    public var fonts: StableDigest?

    /// `document` fitted into the frame by default, optionally tinted.
    public init(document: SVGDocument, common: LayerCommon = LayerCommon(), contentMode: ContentMode = .aspectFit,
                tint: Color? = nil) {
        self.document = document
        self.common = common
        self.contentMode = contentMode
        self.tint = tint
    }
}

/// Layers drawn together in the group's frame (their bounds), then composited as one: with the
/// group's opacity, blend mode, mask, shadow and transform.
public struct GroupLayer: Hashable, Sendable {
    /// The layers drawn in the group, in its frame.
    public var layers: [Layer]
    /// Frame, opacity and blend mode.
    public var common: LayerCommon
    /// Moves, turns and scales the group.
    public var transform: LayerTransform?
    /// What the group shows through.
    public var mask: LayerMask?
    /// A drop shadow under what the layer draws.
    public var shadow: Shadow?

    /// `layers` composited as one.
    public init(layers: [Layer], common: LayerCommon = LayerCommon(), transform: LayerTransform? = nil,
                mask: LayerMask? = nil, shadow: Shadow? = nil) {
        self.layers = layers
        self.common = common
        self.transform = transform
        self.mask = mask
        self.shadow = shadow
    }
}

/// Moves, turns and scales a group about an origin given as a fraction of its frame (the centre
/// by default), in that order: scale, then rotate, then translate.
public struct LayerTransform: Hashable, Sendable {
    /// Points to move by, after scaling and turning.
    public var translation: Point
    /// Degrees, clockwise on screen.
    public var rotation: Double
    /// Factors along x and y.
    public var scale: Point
    /// The point scaled and turned about, as a fraction of the frame.
    public var origin: Point

    /// No change, by default.
    public init(translation: Point = .zero, rotation: Double = 0, scale: Point = Point(x: 1, y: 1),
                origin: Point = Point(x: 0.5, y: 0.5)) {
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
        self.origin = origin
    }

    /// The transform for a group drawn in `frame`.
    public func transform(in frame: Rect) -> Transform {
        let pivot = Point(x: frame.minX + origin.x * frame.width, y: frame.minY + origin.y * frame.height)
        return Transform(translationX: -pivot.x, y: -pivot.y)
            .concatenating(Transform(scaleX: scale.x, y: scale.y))
            .concatenating(Transform(rotationAngle: rotation * .pi / 180))
            .concatenating(Transform(translationX: pivot.x + translation.x, y: pivot.y + translation.y))
    }
}

/// What a group shows through: the alpha of a paint (a gradient fade), or of layers drawn in
/// the group's frame (a shape to clip to, with smooth edges).
public enum LayerMask: Hashable, Sendable {
    case paint(LayerPaint)
    case layers([Layer])
}

/// Another component drawn in the layer's frame, through the rasterizer: cached under its own
/// key, so a child many parents use is drawn once; a child with caps is stretched to the frame.
public struct ComponentLayer: Hashable, Sendable {
    /// The child, with its state resolved.
    public var component: DeclarativeComponent {
        didSet { componentDigest = Self.digest(of: component) }
    }
    /// Frame, opacity and blend mode.
    public var common: LayerCommon
    /// The size the child takes in a stack when nothing else sizes it: its measured size when
    /// its component's size is `auto`. Nil for a component of fixed sizes, which fills the box
    /// it is given, as a background does.
    public var naturalSize: Size?
    /// The child's state digest, worked out once. Parents key, compare and hash a child by it
    /// rather than by walking its layers again: components that use each other twice at every
    /// level would otherwise cost 2ⁿ walks for n levels.
    private(set) var componentDigest: StableDigest

    /// `component` drawn in the frame; in a stack, at `naturalSize` unless that is nil.
    public init(component: DeclarativeComponent, common: LayerCommon = LayerCommon(), naturalSize: Size? = nil) {
        self.component = component
        self.common = common
        self.naturalSize = naturalSize
        componentDigest = Self.digest(of: component)
    }

    private static func digest(of component: DeclarativeComponent) -> StableDigest {
        var hasher = StateHasher()
        component.hashState(into: &hasher)
        component.capInsets.hashState(into: &hasher)
        return hasher.digest
    }

    /// Equal when the children's states and caps, the frames and the natural sizes are.
    public static func == (lhs: ComponentLayer, rhs: ComponentLayer) -> Bool {
        lhs.componentDigest == rhs.componentDigest && lhs.common == rhs.common && lhs.naturalSize == rhs.naturalSize
    }

    /// Hashes the child's digest, the frame and the natural size.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(componentDigest)
        hasher.combine(common)
        hasher.combine(naturalSize)
    }
}
