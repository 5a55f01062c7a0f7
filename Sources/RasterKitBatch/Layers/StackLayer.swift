import RasterKit

/// Layers laid out by a stack (RasterKit's `Stack`) instead of placed by hand: in a row, a
/// column, or on top of one another, each sized by its content and its ``LayerCommon/sizing``.
/// Text, SVG and image layers have sizes of their own; shapes, groups and other components take
/// the space they are given, as backgrounds do.
public struct StackLayer: Hashable, Sendable {
    /// Axis, spacing, padding, alignment and direction, as a `Stack` has them.
    public var arrangement: Stack.Arrangement
    /// The layers laid out, in order (the first at the bottom of a depth stack).
    public var children: [Layer]
    /// Frame, opacity and blend mode of the whole stack, and its sizing in an enclosing stack.
    public var common: LayerCommon

    /// A stack of `children` placed as `arrangement` says.
    public init(_ arrangement: Stack.Arrangement, children: [Layer], common: LayerCommon = LayerCommon()) {
        self.arrangement = arrangement
        self.children = children
        self.common = common
    }
}

/// Empty space in a stack: it takes a share of what is left over (its `LayoutSizing.grow`, 1
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
