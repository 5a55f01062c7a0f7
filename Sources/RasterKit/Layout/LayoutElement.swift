/// One box of a layout — a ``Stack``, a ``Spacer``, ``Text``, an ``Image``, an ``SVG``, a
/// ``Drawing``, a ``CustomElement`` or a ``ComponentElement`` — with the sizing rules its
/// parent places it by (``LayoutSizing``, set with the modifiers of ``LayoutContent``).
///
/// ```swift
/// let chip = Stack(.depth) {
///     Drawing { canvas, rect in
///         canvas.fill(Path(roundedRect: rect, cornerRadius: rect.height / 2), with: .color(.blue))
///     }
///     Stack(.horizontal, spacing: 6, padding: EdgeInsets(top: 4, left: 10, bottom: 4, right: 10)) {
///         SVG(star).frame(width: 16, height: 16)
///         Text("Favourite", style: TextStyle(font: "DejaVu Sans Bold 13", color: .white, maxLines: 1))
///     }
/// }
/// try canvas.draw(chip, in: Rect(size: size))
/// ```
///
/// See <doc:Layout> for how stacks share out their space.
public struct LayoutElement: LayoutContent {
    /// What the element shows.
    enum Content {
        case stack(Stack)
        case spacer(minimumLength: Double)
        case text(TextRun)
        /// Content of a natural size that keeps its aspect ratio: an image, an SVG.
        case aspect(natural: Size, draw: (Canvas, Rect) throws -> Void)
        /// Takes the size it is offered, or none when offered none.
        case drawing((Canvas, Rect) throws -> Void)
        case custom(sizeThatFits: (ProposedSize, Canvas) throws -> Size, draw: (Canvas, Rect) throws -> Void)
        /// Another element, drawn through a closure that wraps its drawing.
        case effect(LayoutElement, around: (Canvas, Rect, () throws -> Void) throws -> Void)
    }

    /// The element, boxed: a walk copies elements often (stacks hold them in arrays, a walk
    /// reads each child several times), and a reference copies with one retain where a text's
    /// style and a sizing would copy field by field. What a walk asks of the element at every
    /// visit is worked out here once, so asking copies no payload (a text's strings, a stack's
    /// children) and retains nothing. A box shared by copies never changes: setting a sizing
    /// makes a new one unless the element holds the only reference.
    private final class Box {
        let content: Content
        /// Set in place only while the box is the element's alone (copy on write).
        var sizing: LayoutSizing
        /// A spacer's minimum length; nil for other content.
        let spacerMinimumLength: Double?
        /// See ``LayoutElement/Content/reflows``.
        let reflows: Bool
        /// See ``LayoutElement/Content/sizeIgnoresHeight``.
        let contentIgnoresHeight: Bool

        init(_ content: Content, sizing: LayoutSizing) {
            self.content = content
            self.sizing = sizing
            if case .spacer(let minimumLength) = content { spacerMinimumLength = minimumLength } else { spacerMinimumLength = nil }
            reflows = content.reflows
            contentIgnoresHeight = content.sizeIgnoresHeight
        }

        /// `other`'s content with another sizing.
        init(_ other: Box, sizing: LayoutSizing) {
            content = other.content
            self.sizing = sizing
            spacerMinimumLength = other.spacerMinimumLength
            reflows = other.reflows
            contentIgnoresHeight = other.contentIgnoresHeight
        }
    }

    private var box: Box
    var content: Content { box.content }
    /// A spacer's minimum length; nil for other content.
    var spacerMinimumLength: Double? { box.spacerMinimumLength }
    /// Whether the content can be given less than its ideal length along a stack and still show.
    var reflows: Bool { box.reflows }
    /// Whether the element measures the same at any height it is offered: its height is fixed,
    /// or its content's size does not depend on it (``Content/sizeIgnoresHeight``). Such an
    /// element is measured once for all the heights a walk offers it.
    var sizeIgnoresHeight: Bool { box.sizing.height != nil || box.contentIgnoresHeight }
    /// Whether the content measures the same at any height (``Content/sizeIgnoresHeight``).
    var contentIgnoresHeight: Bool { box.contentIgnoresHeight }

    /// The size the element asks for and how it grows and aligns in a stack.
    public var sizing: LayoutSizing {
        get { box.sizing }
        set {
            if isKnownUniquelyReferenced(&box) { box.sizing = newValue } else { box = Box(box, sizing: newValue) }
        }
    }

    init(_ content: Content, sizing: LayoutSizing = LayoutSizing()) {
        box = Box(content, sizing: sizing)
    }

    /// Itself.
    public var element: LayoutElement { self }
}

extension LayoutElement.Content {
    /// Whether the content's size (and baseline) is the same at any height it is offered: text
    /// that may not shrink (it wraps at its width and is clipped), a spacer, and a row whose
    /// children all are so (a row offers its children its own height and nothing else; how it
    /// shares out its width does not depend on it). Worked out once, when the element is made.
    var sizeIgnoresHeight: Bool {
        switch self {
        case .text(let run): run.sizeIgnoresHeight
        case .spacer: true
        case .stack(let stack): stack.axis == .horizontal && stack.children.allSatisfy(\.sizeIgnoresHeight)
        case .effect(let inner, _): inner.sizeIgnoresHeight
        case .aspect, .drawing, .custom: false
        }
    }
}

/// A size offered to an element; an axis left nil asks for the element's ideal length on it.
public struct ProposedSize: Hashable, Sendable {
    /// The width offered, in points.
    public var width: Double?
    /// The height offered, in points.
    public var height: Double?

    /// A proposal of `width` × `height`.
    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    /// Exactly `size`.
    public init(_ size: Size) { self.init(width: size.width, height: size.height) }

    /// Nothing offered: the element's ideal size.
    public static let unspecified = ProposedSize(width: nil, height: nil)
}
