extension Canvas {
    /// Lays out `element` to fill `rect` and draws it. Rows run left to right unless
    /// `direction` (or a stack's own) says otherwise.
    ///
    /// Throws ``LayoutError`` for a length, spacing or bound the layout cannot use; errors of
    /// the content (text, an SVG) are thrown when the draw finishes, as elsewhere on a canvas.
    public func draw(_ content: some LayoutContent, in rect: Rect, direction: LayoutDirection = .ltr) throws {
        ensureOpen()
        try LayoutEngine(canvas: self).draw(content.element, in: rect, LayoutEngine.Context(direction: direction))
    }

    /// The size `element` takes when offered `proposal`, as ``draw(_:in:direction:)`` would
    /// measure it: leave an axis nil to ask for its ideal length.
    public func measure(_ content: some LayoutContent, proposal: ProposedSize = .unspecified,
                        direction: LayoutDirection = .ltr) throws -> Size {
        ensureOpen()
        return try LayoutEngine(canvas: self).measure(content.element, proposal, LayoutEngine.Context(direction: direction)).size
    }
}

extension Canvas {
    /// Runs `body` on a canvas that only measures: one pixel at scale 1, never shown. Text
    /// measured on it is kept for the process (``TextMeasurements``), so measuring the same text
    /// again on any measuring canvas is a lookup rather than a Pango layout: how a server learns
    /// the size of a self-sizing state on each request, and a manifest its `auto` sizes.
    package static func measuring<Result>(limits: ResourceLimits, _ body: (Canvas) throws -> Result) throws -> Result {
        var result: Result?
        _ = try RasterImage(size: Size(width: 1, height: 1), scale: 1, limits: limits) { canvas in
            canvas.keepsMeasurements = true
            result = try body(canvas)
        }
        // The draw ran `body` or threw.
        return result!
    }
}

extension LayoutContent {
    /// The size the element takes when offered `proposal`, measured outside any draw (on a
    /// one-pixel canvas): how a component sizes itself to its content before it is rendered.
    /// Text measures the same at every scale, since glyphs are neither hinted nor rounded.
    public func sizeThatFits(_ proposal: ProposedSize = .unspecified, direction: LayoutDirection = .ltr,
                             limits: ResourceLimits = .default) throws -> Size {
        try Canvas.measuring(limits: limits) { canvas in try canvas.measure(element, proposal: proposal, direction: direction) }
    }
}

/// A component whose drawing is one layout, filling the size it is drawn at. Its state is
/// declared as any component's is (``Rasterizable/stateKeyPaths``); nine-slice caps, caching
/// and nesting work as for any other.
///
/// ```swift
/// struct Chip: LayoutComponent {
///     var label: String
///     var body: some LayoutContent {
///         Stack(.depth) {
///             Drawing { canvas, rect in
///                 canvas.fill(Path(roundedRect: rect, cornerRadius: rect.height / 2), with: .color(.blue))
///             }
///             Stack(.horizontal, padding: EdgeInsets(top: 4, left: 10, bottom: 4, right: 10)) {
///                 Text(label, style: TextStyle(font: "DejaVu Sans Bold 13", color: .white, maxLines: 1))
///             }
///         }
///     }
/// }
/// let size = try Chip(label: "New").idealSize(height: 28)     // hugs its label
/// ```
public protocol LayoutComponent: Rasterizable {
    /// The type of the layout: any ``LayoutContent``.
    associatedtype Body: LayoutContent
    /// The layout drawn to fill the component.
    var body: Body { get }
    /// The direction rows run in; left to right unless given.
    var layoutDirection: LayoutDirection { get }
}

extension LayoutComponent {
    /// Left to right.
    public var layoutDirection: LayoutDirection { .ltr }

    /// Draws ``body`` filling the canvas.
    public func draw(in canvas: Canvas, size: Size) throws {
        try canvas.draw(body, in: Rect(size: size), direction: layoutDirection)
    }

    /// The size the component's layout takes when its width and/or height are given (nil: its
    /// ideal length on that axis), rounded up to whole points: the size to render it at so it
    /// hugs its content. Rounded as a manifest's `auto` sizes are, so that at any whole scale the
    /// size is whole pixels and its text fits as it was measured (``LayoutContent/sizeThatFits(_:direction:limits:)``
    /// gives the exact size).
    public func idealSize(width: Double? = nil, height: Double? = nil, limits: ResourceLimits = .default) throws -> Size {
        let measured = try body.sizeThatFits(ProposedSize(width: width, height: height), direction: layoutDirection,
                                             limits: limits)
        return Size(width: LayoutSizing.wholePoints(measured.width), height: LayoutSizing.wholePoints(measured.height))
    }
}
