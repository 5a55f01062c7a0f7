/// Children placed one after another along an axis — a row, a column — or on top of one
/// another, with spacing between them and padding around them.
///
/// Along a row or column each child first gets its ideal length (its content's, or its fixed
/// frame); space left over is shared among children with ``LayoutSizing/grow`` in proportion
/// to it, up to their maximums, and space missing is taken from children that can give it
/// (text and stacks without a fixed length), in proportion to their lengths, down to their
/// minimums. Across the axis each child is as long as its content at the length it got, and is
/// placed by its alignment. Content with no size of its own (a ``Drawing``)
/// spans the cross axis. A depth stack is as large as its largest child; each child is sized
/// for the whole stack and aligned in it.
@dynamicMemberLookup
public struct Stack: LayoutContent {
    /// Which way children follow one another.
    public enum Axis: String, Hashable, Sendable, CaseIterable {
        /// A row, from the leading edge.
        case horizontal
        /// A column, from the top.
        case vertical
        /// Children on top of one another, the first at the bottom.
        case depth
    }

    /// Where children sit across the stack's axis.
    public enum Alignment: String, Hashable, Sendable, CaseIterable {
        /// The leading edge (a column's) or the top (a row's).
        case start
        /// The middle.
        case center
        /// The trailing edge or the bottom.
        case end
        /// In a row: the first baselines of text line up; children without text sit on their
        /// bottom edge. Elsewhere the same as `start`.
        case baseline
    }

    /// The most children one stack may hold: a bound on the work of one layout.
    public static let maximumChildren = 1_000
    /// The deepest stacks may be nested.
    public static let maximumDepth = 64

    /// How a stack places its children, apart from the children themselves: the part a
    /// manifest's stack layer shares with a stack.
    public struct Arrangement: Hashable, Sendable {
        /// The axis children follow.
        public var axis: Axis
        /// Points between neighbouring children (spacers included); 0 or more.
        public var spacing: Double
        /// Points between the stack's edges and its children; each 0 or more.
        public var padding: EdgeInsets
        /// Where children sit across the axis (on both axes in a depth stack), unless a child
        /// says otherwise.
        public var alignment: Alignment
        /// The direction rows run in, for this stack and those inside it; nil keeps the
        /// parent's (left to right at the top).
        public var direction: LayoutDirection?

        /// An arrangement along `axis`.
        public init(_ axis: Axis, spacing: Double = 0, padding: EdgeInsets = .zero, alignment: Alignment = .center,
                    direction: LayoutDirection? = nil) {
            self.axis = axis
            self.spacing = spacing
            self.padding = padding
            self.alignment = alignment
            self.direction = direction
        }
    }

    /// How the children are placed.
    public var arrangement: Arrangement
    /// The children, placed in order.
    public var children: [LayoutElement]

    /// The arrangement's fields (`axis`, `spacing`, `padding`, `alignment`, `direction`), read
    /// and set on the stack itself.
    public subscript<Value>(dynamicMember field: WritableKeyPath<Arrangement, Value>) -> Value {
        get { arrangement[keyPath: field] }
        set { arrangement[keyPath: field] = newValue }
    }

    /// A stack of the children `content` lists.
    public init(_ axis: Axis, spacing: Double = 0, padding: EdgeInsets = .zero, alignment: Alignment = .center,
                direction: LayoutDirection? = nil, @LayoutBuilder content: () -> [LayoutElement]) {
        self.init(axis, spacing: spacing, padding: padding, alignment: alignment, direction: direction, children: content())
    }

    /// A stack of `children`.
    public init(_ axis: Axis, spacing: Double = 0, padding: EdgeInsets = .zero, alignment: Alignment = .center,
                direction: LayoutDirection? = nil, children: [LayoutElement]) {
        self.init(Arrangement(axis, spacing: spacing, padding: padding, alignment: alignment, direction: direction),
                  children: children)
    }

    /// A stack of `children` placed as `arrangement` says.
    public init(_ arrangement: Arrangement, children: [LayoutElement]) {
        self.arrangement = arrangement
        self.children = children
    }

    /// The stack as an element.
    public var element: LayoutElement { LayoutElement(.stack(self)) }

    /// Throws ``LayoutError`` for negative or non-finite spacing or padding, and for more
    /// children than ``maximumChildren``.
    func validate(maximum: Double) throws(LayoutError) {
        // One call per length rather than a loop over a list (an allocation each arrangement).
        func check(_ name: String, _ value: Double) throws(LayoutError) {
            guard value.isFinite, value >= 0, value <= maximum else { throw .invalidLength(name: name, value: value, maximum: maximum) }
        }
        let padding = arrangement.padding
        try check("spacing", arrangement.spacing)
        try check("padding top", padding.top)
        try check("padding left", padding.left)
        try check("padding bottom", padding.bottom)
        try check("padding right", padding.right)
        guard children.count <= Self.maximumChildren else { throw .tooManyChildren(children.count, limit: Self.maximumChildren) }
    }
}

/// Builds a list of layout elements from statements: one element per line, with `if`, `switch`
/// and `for` choosing and repeating them.
@resultBuilder
public enum LayoutBuilder {
    /// What a statement or a block makes: one element, or a list. A line's element is not
    /// wrapped in a list of its own, nor is a block or a loop's pass of one line (such lists were
    /// most of the allocations of building a body).
    public enum Part {
        /// One element.
        case one(LayoutElement)
        /// Elements in order.
        case many([LayoutElement])

        fileprivate var count: Int {
            switch self {
            case .one: 1
            case .many(let elements): elements.count
            }
        }

        /// Appends `next`'s elements to the part's list.
        fileprivate mutating func append(_ next: Part) {
            var elements: [LayoutElement]
            switch self {
            case .one(let element):
                // Room for the few lines a block usually has.
                elements = []
                elements.reserveCapacity(Swift.max(4, 1 + next.count))
                elements.append(element)
            case .many(let list):
                elements = list
                // Let go of the part's reference, so a list no one else holds is appended to in
                // place rather than copied.
                self = .many([])
            }
            next.append(to: &elements)
            self = .many(elements)
        }

        /// The part's elements appended to `elements`.
        fileprivate func append(to elements: inout [LayoutElement]) {
            switch self {
            case .one(let element): elements.append(element)
            case .many(let more): elements.append(contentsOf: more)
            }
        }

        /// The part's elements as a list.
        fileprivate var elements: [LayoutElement] {
            switch self {
            case .one(let element): [element]
            case .many(let elements): elements
            }
        }
    }

    /// One element.
    public static func buildExpression(_ content: some LayoutContent) -> Part { .one(content.element) }
    /// Elements made elsewhere, in order.
    public static func buildExpression(_ elements: [LayoutElement]) -> Part { .many(elements) }
    /// The first statement's elements.
    public static func buildPartialBlock(first: Part) -> Part { first }
    /// The elements so far, then the next statement's, in one list.
    public static func buildPartialBlock(accumulated: consuming Part, next: Part) -> Part {
        accumulated.append(next)
        return accumulated
    }
    /// No elements, for an empty block.
    public static func buildBlock() -> Part { .many([]) }
    /// The elements of an `if` without `else`, or none.
    public static func buildOptional(_ part: Part?) -> Part { part ?? .many([]) }
    /// The branch taken.
    public static func buildEither(first part: Part) -> Part { part }
    /// The branch taken.
    public static func buildEither(second part: Part) -> Part { part }
    /// The elements of every pass of a `for` loop.
    public static func buildArray(_ parts: [Part]) -> Part {
        var elements: [LayoutElement] = []
        elements.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { part.append(to: &elements) }
        return .many(elements)
    }
    /// The elements of an `if #available` branch.
    public static func buildLimitedAvailability(_ part: Part) -> Part { part }
    /// The body's elements, as a list.
    public static func buildFinalResult(_ part: Part) -> [LayoutElement] { part.elements }
}
