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
        indirect case effect(LayoutElement, around: (Canvas, Rect, () throws -> Void) throws -> Void)
    }

    /// The content, boxed: a walk copies elements often (stacks hold them in arrays), and a
    /// reference copies in one step where a text's style would copy field by field. What a
    /// walk asks of the content at every visit is worked out here once, so asking copies no
    /// payload (a text's strings, a stack's children) and retains nothing.
    private final class Box {
        let content: Content
        /// A spacer's minimum length; nil for other content.
        let spacerMinimumLength: Double?
        /// See ``LayoutElement/Content/reflows``.
        let reflows: Bool
        /// See ``TextRun/sizeIgnoresHeight``; false for other content.
        let sizeIgnoresHeight: Bool

        init(_ content: Content) {
            self.content = content
            if case .spacer(let minimumLength) = content { spacerMinimumLength = minimumLength } else { spacerMinimumLength = nil }
            reflows = content.reflows
            if case .text(let run) = content { sizeIgnoresHeight = run.sizeIgnoresHeight } else { sizeIgnoresHeight = false }
        }
    }

    private let box: Box
    var content: Content { box.content }
    /// A spacer's minimum length; nil for other content.
    var spacerMinimumLength: Double? { box.spacerMinimumLength }
    /// Whether the content can be given less than its ideal length along a stack and still show.
    var reflows: Bool { box.reflows }
    /// Whether the content takes the same size at any height (text that may not shrink: it
    /// wraps at its width and is clipped).
    var sizeIgnoresHeight: Bool { box.sizeIgnoresHeight }
    /// The size the element asks for and how it grows and aligns in a stack.
    public var sizing: LayoutSizing

    init(_ content: Content, sizing: LayoutSizing = LayoutSizing()) {
        box = Box(content)
        self.sizing = sizing
    }

    /// Itself.
    public var element: LayoutElement { self }
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
