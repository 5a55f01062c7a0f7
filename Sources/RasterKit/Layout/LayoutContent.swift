/// Anything that is one layout element: the kinds of element below, Stack, and
/// LayoutElement itself. Its modifiers set how the element is sized and placed.
public protocol LayoutContent {
    /// The element, with its sizing.
    var element: LayoutElement { get }
}

extension LayoutContent {
    /// The element with a fixed width and/or height, in points; an axis left nil keeps its rule.
    public func frame(width: Double? = nil, height: Double? = nil) -> LayoutElement {
        var copy = element
        var sizing = copy.sizing
        if let width { sizing.width = width }
        if let height { sizing.height = height }
        copy.sizing = sizing
        return copy
    }

    /// The element held between minimum and maximum lengths, in points.
    public func frame(minWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil,
                      maxHeight: Double? = nil) -> LayoutElement {
        var copy = element
        var sizing = copy.sizing
        if let minWidth { sizing.minWidth = minWidth }
        if let maxWidth { sizing.maxWidth = maxWidth }
        if let minHeight { sizing.minHeight = minHeight }
        if let maxHeight { sizing.maxHeight = maxHeight }
        copy.sizing = sizing
        return copy
    }

    /// The element taking `share` of the space its stack has left over (0 takes none).
    public func grow(_ share: Double = 1) -> LayoutElement {
        var copy = element
        copy.sizing.grow = share
        return copy
    }

    /// The element placed across its stack as `alignment` says, rather than as the stack does.
    public func align(_ alignment: Stack.Alignment) -> LayoutElement {
        var copy = element
        copy.sizing.alignment = alignment
        return copy
    }
}

extension LayoutContent {
    /// The element drawn through `body`, which is given the canvas, the element's rectangle and
    /// a closure that draws the element: to draw it inside a layer with opacity, under a
    /// shadow, or over a background of its exact size. Sizing is unchanged.
    ///
    /// ```swift
    /// Text("Draft", style: caption).effect { canvas, rect, content in
    ///     try canvas.withLayer(opacity: 0.5) { try content() }
    /// }
    /// ```
    public func effect(_ body: @escaping (Canvas, Rect, () throws -> Void) throws -> Void) -> LayoutElement {
        var inner = element
        let sizing = inner.sizing
        inner.sizing = LayoutSizing()
        return LayoutElement(.effect(inner, around: body), sizing: sizing)
    }
}

/// Empty space that takes a share of what its stack has left over (LayoutSizing/grow is 1
/// unless set), never shorter than its minimum length along the stack.
public struct Spacer: LayoutContent {
    /// The shortest the spacer is made along its stack, in points.
    public var minimumLength: Double

    /// A spacer at least `minimumLength` points long.
    public init(minimumLength: Double = 0) { self.minimumLength = minimumLength }

    /// The spacer as an element.
    public var element: LayoutElement { LayoutElement(.spacer(minimumLength: minimumLength), sizing: LayoutSizing(grow: 1)) }
}

/// Text in a style: as wide as its longest line, wrapped at the width it is offered, shrunk or
/// cut as its style says, and clipped to its box.
public struct Text: LayoutContent {
    /// The text, as spans of one style or several.
    public var spans: [TextSpan]
    /// How it is set.
    public var style: TextStyle

    /// `text` in `style`.
    public init(_ text: String, style: TextStyle = TextStyle()) {
        spans = [TextSpan(text)]
        self.style = style
    }

    /// Spans of one text, each styled as it says over `style` (see TextSpan).
    public init(_ spans: [TextSpan], style: TextStyle = TextStyle()) {
        self.spans = spans
        self.style = style
    }

    /// The text as an element.
    public var element: LayoutElement { LayoutElement(.text(TextRun(spans, style: style))) }
}

/// A raster image, at its size in points unless a frame sizes it; a frame on one axis sets the
/// other by the image's aspect ratio, and an image larger than what it is offered is scaled
/// down to fit.
public struct Image: LayoutContent {
    /// The image.
    public var image: RasterImage
    /// How it is placed in its box.
    public var contentMode: ContentMode
    /// How pixels are sampled when it is scaled.
    public var interpolation: Interpolation

    /// `image` fitted into its box by default.
    public init(_ image: RasterImage, contentMode: ContentMode = .aspectFit, interpolation: Interpolation = .good) {
        self.image = image
        self.contentMode = contentMode
        self.interpolation = interpolation
    }

    /// The image as an element.
    public var element: LayoutElement {
        let (image, contentMode, interpolation) = (image, contentMode, interpolation)
        return LayoutElement(.aspect(natural: image.size) { canvas, rect in
            let placed = contentMode.frame(forContentOfSize: image.size, in: rect)
            canvas.withState {
                if contentMode == .aspectFill || contentMode == .center { canvas.clip(to: rect) }
                canvas.draw(image, in: placed, interpolation: interpolation)
            }
        })
    }
}

/// An SVG document, at its intrinsic size unless a frame sizes it, optionally tinted; sized
/// by its aspect ratio as an Image is.
public struct SVG: LayoutContent {
    /// The document.
    public var document: SVGDocument
    /// How it is placed in its box.
    public var contentMode: ContentMode
    /// When set, every painted pixel takes this colour and keeps its alpha.
    public var tint: Color?

    /// `document` fitted into its box by default.
    public init(_ document: SVGDocument, contentMode: ContentMode = .aspectFit, tint: Color? = nil) {
        self.document = document
        self.contentMode = contentMode
        self.tint = tint
    }

    /// The document as an element.
    public var element: LayoutElement {
        let (document, contentMode, tint) = (document, contentMode, tint)
        return LayoutElement(.aspect(natural: document.intrinsicSize) { canvas, rect in
            try canvas.drawSVG(document, in: rect, contentMode: contentMode, tint: tint)
        })
    }
}

/// A drawing with no size of its own: it takes the space it is offered (the whole of a depth
/// stack, the cross axis of a row or column) and none along a stack unless it grows or has a
/// frame. Backgrounds, outlines and dividers are drawings.
public struct Drawing: LayoutContent {
    /// Draws in the rectangle the drawing was given.
    public var draw: (Canvas, Rect) throws -> Void

    /// A drawing made by `draw`.
    public init(_ draw: @escaping (Canvas, Rect) throws -> Void) { self.draw = draw }

    /// The drawing as an element.
    public var element: LayoutElement { LayoutElement(.drawing(draw)) }
}

/// Content that measures itself: either by a closure that answers for a proposed size (an
/// axis left nil asks for the ideal length), or by a natural size whose aspect ratio it keeps
/// as an ``Image`` does.
public struct CustomElement: LayoutContent {
    private let content: LayoutElement.Content

    /// Content measured by `sizeThatFits` and drawn by `draw` in the rectangle it was given.
    public init(sizeThatFits: @escaping (ProposedSize, Canvas) throws -> Size, draw: @escaping (Canvas, Rect) throws -> Void) {
        content = .custom(sizeThatFits: sizeThatFits, draw: draw)
    }

    /// Content `naturalSize` points large that keeps its aspect ratio, drawn by `draw` in the
    /// rectangle it was given.
    public init(naturalSize: Size, draw: @escaping (Canvas, Rect) throws -> Void) {
        content = .aspect(natural: naturalSize, draw: draw)
    }

    /// The content as an element.
    public var element: LayoutElement { LayoutElement(content) }
}

/// Another component, drawn through the rasterizer in the element's box (so it is cached under
/// its own key, and stretched by its caps when it has them). It takes the space it is offered,
/// or its ideal size when offered none.
public struct ComponentElement<Child: Rasterizable>: LayoutContent {
    /// The component drawn.
    public var component: Child
    /// Its size when nothing is offered, in points.
    public var idealSize: Size

    /// `component`, `idealSize` large unless given space.
    public init(_ component: Child, idealSize: Size = .zero) {
        self.component = component
        self.idealSize = idealSize
    }

    /// The component as an element.
    public var element: LayoutElement {
        let (component, idealSize) = (component, idealSize)
        return LayoutElement(.custom(sizeThatFits: { proposal, _ in
            Size(width: proposal.width ?? idealSize.width, height: proposal.height ?? idealSize.height)
        }, draw: { canvas, rect in try canvas.draw(component, in: rect) }))
    }
}
