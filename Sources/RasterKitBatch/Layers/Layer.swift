import RasterKit
/// One drawing step of a ``DeclarativeComponent``, with every variable already filled in: a
/// shape, text, a PNG, an SVG, a group of layers, another component, or a stack that lays out
/// the layers in it (with spacers between them). Layers draw in order, the first at the bottom.
///
/// ```swift
/// let layers: [Layer] = [
///     .shape(ShapeLayer(shape: .roundedRect(CornerRadii(all: 8)), fill: .color(try Color(hex: "#2F6FEB")))),
///     .text(TextLayer(text: "Continue", style: TextStyle(font: "DejaVu Sans Bold 15", color: .white,
///                                                       alignment: .center, verticalAlignment: .center))),
/// ]
/// ```
public enum Layer: Hashable, Sendable {
    case shape(ShapeLayer)
    case text(TextLayer)
    case image(ImageLayer)
    case svg(SVGLayer)
    case group(GroupLayer)
    /// Another component, drawn through the rasterizer so it is cached under its own key.
    case component(ComponentLayer)
    /// Layers placed by a stack: in a row, a column, or on top of one another.
    case stack(StackLayer)
    /// Space a stack shares out.
    case spacer(SpacerLayer)

    /// Frame, opacity, blend mode and sizing in a stack.
    public var common: LayerCommon {
        switch self {
        case .shape(let layer): layer.common
        case .text(let layer): layer.common
        case .image(let layer): layer.common
        case .svg(let layer): layer.common
        case .group(let layer): layer.common
        case .component(let layer): layer.common
        case .stack(let layer): layer.common
        case .spacer(let layer): layer.common
        }
    }
}

/// Where a layer goes inside its parent's bounds: inset from them (the default is the whole
/// bounds), or a fixed rectangle in points. Insets follow the component's size; rectangles do not.
public enum LayerFrame: Hashable, Sendable {
    case inset(EdgeInsets)
    case rect(Rect)

    /// The whole parent.
    public static let bounds = LayerFrame.inset(.zero)

    /// The rectangle this frame takes in `bounds`.
    public func resolved(in bounds: Rect) -> Rect {
        switch self {
        case .inset(let insets): bounds.inset(by: insets)
        case .rect(let rect): rect.offsetBy(dx: bounds.minX, dy: bounds.minY)
        }
    }
}

/// Paint whose gradient points are fractions of the layer's frame (0…1), so a gradient follows
/// the size it is drawn at.
public enum LayerPaint: Hashable, Sendable {
    case color(Color)
    /// From `start` to `end`, as fractions of the frame (`(0.5, 0)` is the middle of the top edge).
    case linear(Gradient, start: Point, end: Point)
    /// Around `center` (a fraction of the frame) out to `radius` times the frame's longer side.
    case radial(Gradient, center: Point, radius: Double)

    /// The paint in canvas coordinates for a layer drawn in `frame`.
    public func paint(in frame: Rect) -> Paint {
        func place(_ point: Point) -> Point {
            Point(x: frame.minX + point.x * frame.width, y: frame.minY + point.y * frame.height)
        }
        switch self {
        case .color(let color):
            return .color(color)
        case let .linear(gradient, start, end):
            return .linearGradient(LinearGradient(gradient: gradient, start: place(start), end: place(end)))
        case let .radial(gradient, center, radius):
            return .radialGradient(RadialGradient(gradient: gradient, center: place(center),
                                                  radius: radius * max(frame.width, frame.height)))
        }
    }
}

/// An outline: its paint and how it is drawn. Centred on the shape's edge, like every stroke.
public struct LayerStroke: Hashable, Sendable {
    /// The colour or gradient of the outline.
    public var paint: LayerPaint
    /// Width, caps, joins and dashes.
    public var style: StrokeStyle

    /// An outline in `paint`, one point wide unless `style` says otherwise.
    public init(paint: LayerPaint, style: StrokeStyle = StrokeStyle()) {
        self.paint = paint
        self.style = style
    }
}

/// What every layer may have besides its content: its frame, opacity and blend mode, and how a
/// stack sizes it.
public struct LayerCommon: Hashable, Sendable {
    /// Where the layer goes in its parent's bounds; in a stack, in the box the stack gives it.
    public var frame: LayerFrame
    /// 0…1; below 1 the layer is drawn into its own group and faded as a whole.
    public var opacity: Double
    /// How the layer combines with what is under it.
    public var blendMode: BlendMode
    /// Its fixed lengths, bounds, share of leftover space and alignment in a stack.
    public var sizing: LayoutSizing

    /// The whole parent, opaque and normally blended, sized by its content in a stack, by default.
    public init(frame: LayerFrame = .bounds, opacity: Double = 1, blendMode: BlendMode = .normal,
                sizing: LayoutSizing = LayoutSizing()) {
        self.frame = frame
        self.opacity = opacity
        self.blendMode = blendMode
        self.sizing = sizing
    }

    /// Whether the layer is drawn offscreen and composited, for its opacity or blend mode.
    var needsOwnLayer: Bool { opacity < 1 || blendMode != .normal }
}
