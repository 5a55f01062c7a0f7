import RasterKit

/// Layers laid out by a stack (RasterKit's ``Stack``) instead of placed by hand: in a row, a
/// column, or on top of one another, each sized by its content and its ``LayerCommon/sizing``.
/// Text, SVG and image layers have sizes of their own; shapes, groups and other components take
/// the space they are given, as backgrounds do.
public struct StackLayer: Hashable, Sendable {
    /// Row, column or depth.
    public var axis: Stack.Axis
    /// Points between neighbouring children.
    public var spacing: Double
    /// Points between the stack's edges and its children.
    public var padding: EdgeInsets
    /// Where children sit across the axis unless they say otherwise.
    public var alignment: Stack.Alignment
    /// The direction rows run in; nil keeps the enclosing stack's (left to right at the top).
    public var direction: LayoutDirection?
    /// The layers laid out, in order (the first at the bottom of a depth stack).
    public var children: [Layer]
    /// Frame, opacity and blend mode of the whole stack, and its sizing in an enclosing stack.
    public var common: LayerCommon

    /// A stack of `children`.
    public init(axis: Stack.Axis, spacing: Double = 0, padding: EdgeInsets = .zero, alignment: Stack.Alignment = .center,
                direction: LayoutDirection? = nil, children: [Layer], common: LayerCommon = LayerCommon()) {
        self.axis = axis
        self.spacing = spacing
        self.padding = padding
        self.alignment = alignment
        self.direction = direction
        self.children = children
        self.common = common
    }
}

/// Empty space in a stack: it takes a share of what is left over (its ``LayoutSizing/grow``, 1
/// unless set), and is never shorter than `minimumLength` along the stack.
public struct SpacerLayer: Hashable, Sendable {
    /// The shortest the spacer is made along its stack, in points.
    public var minimumLength: Double
    /// Its sizing in the stack (frame, opacity and blend mode draw nothing).
    public var common: LayerCommon

    /// A spacer at least `minimumLength` points long that grows by 1 share.
    public init(minimumLength: Double = 0, common: LayerCommon = LayerCommon(sizing: LayoutSizing(grow: 1))) {
        self.minimumLength = minimumLength
        self.common = common
    }
}
