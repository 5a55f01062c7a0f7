internal import CCairo

/// Measures and places layout elements on one canvas. Text is measured with the canvas's own
/// text engine, which keeps each layout for the draw, so a text measured by its stack is not
/// laid out again to be drawn; and each element's size for a proposal is worked out once per
/// walk, so stacks nested n deep, which ask their children more than once, cost no more than
/// one pass over each element per proposal.
struct LayoutEngine {
    /// A measured element: its size, and the distance from its top to its first baseline when
    /// it shows text.
    struct Measured {
        var size: Size
        var baseline: Double?
    }

    /// Where the walk is: the direction rows run in, how deep stacks are nested, and the
    /// element's place in the tree (in the engine's memo). Plain values, so passing a context
    /// down the tree retains nothing.
    struct Context {
        var direction: LayoutDirection
        var depth = 0
        var place = LayoutMemo.root

        /// The context of `stack`'s children: one level deeper, in the stack's direction if it
        /// sets one.
        func inside(_ stack: Stack) -> Context {
            var nested = self
            nested.depth += 1
            if let direction = stack.direction { nested.direction = direction }
            return nested
        }

        /// The context of the child at `place` (one of ``LayoutMemo/children(of:count:)``).
        func child(at place: LayoutMemo.Place) -> Context {
            var child = self
            child.place = place
            return child
        }
    }

    /// Where a stack's children go, relative to its padded inner box.
    struct Arrangement {
        /// Each child's frame; only when the stack is arranged to be drawn (a measured stack
        /// needs only its size).
        var frames: [Rect]
        /// The inner box's size: the children's extent, or the box given.
        var size: Size
        var baseline: Double?
    }

    let canvas: Canvas
    /// What this walk learnt about each element, by its place.
    let memo = LayoutMemo()

    /// The longest length a layout may state: the longest side RasterKit draws, in points.
    var maximumLength: Double { Double(canvas.environment.limits.pixels.maximumSide) }

    // MARK: Measuring

    /// The size `element` takes when offered `proposal`: its fixed lengths, else its content's
    /// size within its bounds.
    func measure(_ element: LayoutElement, _ proposal: ProposedSize, _ context: Context) throws -> Measured {
        // Text that may not shrink takes the same size at any height (it wraps at its width
        // and is clipped), so the heights nested stacks offer it share one measurement.
        var asked = proposal
        if element.sizeIgnoresHeight { asked.height = nil }
        if let known = memo.measured(at: context.place, for: asked) { return known }
        let measured = try measureAnew(element, asked, context)
        memo.keep(measured, at: context.place, for: asked)
        return measured
    }

    /// Throws for sizing the layout cannot use; each element is checked once per walk.
    private func validate(_ sizing: LayoutSizing, _ context: Context) throws {
        guard !memo.isChecked(context.place) else { return }
        try sizing.validate(maximum: maximumLength)
        memo.markChecked(context.place)
    }

    private func measureAnew(_ element: LayoutElement, _ proposal: ProposedSize, _ context: Context) throws -> Measured {
        let sizing = element.sizing
        try validate(sizing, context)
        var offered = ProposedSize(width: sizing.width ?? proposal.width.map { sizing.clamp($0, .horizontal) },
                                   height: sizing.height ?? proposal.height.map { sizing.clamp($0, .vertical) })
        var content = try measureContent(element, offered, context)
        // Asked for its ideal size, content wider or taller than its maximum is measured again at
        // the maximum, so text wraps there rather than being cut.
        var again = false
        if offered.width == nil, let maximum = sizing.maxWidth, content.size.width > maximum {
            offered.width = maximum
            again = true
        }
        if offered.height == nil, let maximum = sizing.maxHeight, content.size.height > maximum {
            offered.height = maximum
            again = true
        }
        if again { content = try measureContent(element, offered, context) }
        let size = Size(width: sizing.width ?? sizing.clamp(content.size.width, .horizontal),
                        height: sizing.height ?? sizing.clamp(content.size.height, .vertical))
        return Measured(size: size, baseline: content.baseline)
    }

    private func measureContent(_ element: LayoutElement, _ proposal: ProposedSize, _ context: Context) throws -> Measured {
        switch element.content {
        case .stack(let stack):
            let padding = stack.padding
            let inner = ProposedSize(width: proposal.width.map { max($0 - padding.horizontal, 0) },
                                     height: proposal.height.map { max($0 - padding.vertical, 0) })
            let arrangement = try arrange(stack, inner: inner, exact: false,
                                          ignoresHeight: element.contentIgnoresHeight, context)
            return Measured(size: Size(width: arrangement.size.width + padding.horizontal,
                                       height: arrangement.size.height + padding.vertical),
                            baseline: arrangement.baseline.map { $0 + padding.top })
        case .spacer:
            return Measured(size: .zero)
        case .text(let run):
            let metrics: TextMetrics
            // A stack measures text without a width, then at the length it gave it, which is
            // mostly that same width: text that fits a width unwrapped measures as it does without
            // one (the canvas lays it out so), so the second measurement is the first.
            if let width = proposal.width, run.sizeIgnoresHeight, let unwrapped = memo.unwrappedText(at: context.place),
               canvas.fitsUnwrapped(unwrapped.size.width, width: width) {
                metrics = unwrapped
            } else {
                metrics = canvas.measure(run, width: proposal.width, height: proposal.height)
                if proposal.width == nil, run.sizeIgnoresHeight { memo.keepUnwrappedText(metrics, at: context.place) }
            }
            let width = proposal.width.map { min(metrics.size.width, $0) } ?? metrics.size.width
            return Measured(size: Size(width: width, height: metrics.size.height), baseline: metrics.firstBaseline)
        case .aspect(let natural, _):
            return Measured(size: Self.aspectSize(natural: natural, proposal, element.sizing))
        case .drawing:
            return Measured(size: Size(width: proposal.width ?? 0, height: proposal.height ?? 0))
        case .custom(let sizeThatFits, _):
            let size = try sizeThatFits(proposal, canvas)
            for (name, value) in [("custom width", size.width), ("custom height", size.height)]
            where !(value.isFinite && value >= 0 && value <= maximumLength) {
                throw LayoutError.invalidLength(name: name, value: value, maximum: maximumLength)
            }
            return Measured(size: size)
        case .effect(let inner, _):
            // The wrapped element is one level down, so its size is not taken for the wrapper's.
            return try measure(inner, proposal, context.child(at: memo.children(of: context.place, count: 1).lowerBound))
        }
    }

    /// Content with an aspect ratio: a fixed length on one axis sets the other; otherwise its
    /// natural size, scaled down (never up) to fit what is offered.
    static func aspectSize(natural: Size, _ proposal: ProposedSize, _ sizing: LayoutSizing) -> Size {
        guard natural.width > 0, natural.height > 0 else { return Size(width: proposal.width ?? 0, height: proposal.height ?? 0) }
        let ratio = natural.width / natural.height
        switch (sizing.width, sizing.height) {
        case let (width?, nil): return Size(width: width, height: width / ratio)
        case let (nil, height?): return Size(width: height * ratio, height: height)
        case let (width?, height?): return Size(width: width, height: height)
        case (nil, nil):
            var factor = 1.0
            if let width = proposal.width { factor = min(factor, width / natural.width) }
            if let height = proposal.height { factor = min(factor, height / natural.height) }
            return Size(width: natural.width * factor, height: natural.height * factor)
        }
    }

    // MARK: Stacks

    /// Where `stack`'s children go in an inner box of `inner` (an axis nil: as long as the
    /// children need). `exact` boxes are the stack's own when it is drawn; otherwise the stack
    /// is being measured and hugs its children across its axis. `ignoresHeight`: the stack is a
    /// row whose children measure the same at any height, so how it shares out a box depends on
    /// the box's width alone.
    func arrange(_ stack: Stack, inner: ProposedSize, exact: Bool, ignoresHeight: Bool,
                 _ context: Context) throws -> Arrangement {
        try stack.validate(maximum: maximumLength)
        guard context.depth < Stack.maximumDepth else { throw LayoutError.nestedTooDeeply(limit: Stack.maximumDepth) }
        let nested = context.inside(stack)
        switch stack.axis {
        case .depth: return try arrangeDepth(stack, inner: inner, exact: exact, nested)
        case .horizontal:
            return try arrangeLine(stack, main: .horizontal, inner: inner, exact: exact, ignoresHeight: ignoresHeight, nested)
        case .vertical: return try arrangeLine(stack, main: .vertical, inner: inner, exact: exact, ignoresHeight: false, nested)
        }
    }

    private func arrangeDepth(_ stack: Stack, inner: ProposedSize, exact: Bool, _ context: Context) throws -> Arrangement {
        let places = memo.children(of: context.place, count: stack.children.count)
        var largest = Size.zero
        for index in stack.children.indices {
            let size = try measure(stack.children[index], inner, context.child(at: places.lowerBound + index)).size
            largest = Size(width: max(largest.width, size.width), height: max(largest.height, size.height))
        }
        let box = Size(width: inner.width ?? largest.width, height: inner.height ?? largest.height)
        var frames: [Rect] = []
        if exact { frames.reserveCapacity(stack.children.count) }
        var baseline: Double?
        // Children are read in place (`stack.children[index]`), not bound to a copy: a copy of an
        // element retains its content, and a walk visits each child several times.
        for index in stack.children.indices {
            // Sized for the whole box, so content without a size of its own fills it.
            let measured = try measure(stack.children[index], ProposedSize(box), context.child(at: places.lowerBound + index))
            let alignment = stack.children[index].sizing.alignment ?? stack.alignment
            let x = Self.offset(free: box.width - measured.size.width, alignment, reversed: context.direction == .rtl)
            let y = Self.offset(free: box.height - measured.size.height, alignment, reversed: false)
            let frame = Rect(x: x, y: y, width: measured.size.width, height: measured.size.height)
            if baseline == nil, let childBaseline = measured.baseline { baseline = y + childBaseline }
            if exact { frames.append(frame) }
        }
        return Arrangement(frames: frames, size: box, baseline: baseline)
    }

    private func arrangeLine(_ stack: Stack, main: LayoutAxis, inner: ProposedSize, exact: Bool, ignoresHeight: Bool,
                             _ context: Context) throws -> Arrangement {
        let cross = main.other
        let crossOffered = Self.length(inner, cross)
        func proposal(main length: Double?) -> ProposedSize {
            main == .horizontal ? ProposedSize(width: length, height: crossOffered)
                : ProposedSize(width: crossOffered, height: length)
        }
        // Arranged in this box before (measured, then drawn there): only the placing is left. A
        // row of children that ignore its height shares out any box of the same width alike.
        let sharingBox = ignoresHeight ? ProposedSize(width: inner.width, height: nil) : inner
        if let shared = memo.lineSharing(at: context.place, for: sharingBox) {
            return place(stack, shared, main: main, crossOffered: crossOffered, inner: inner, exact: exact, context)
        }
        let places = memo.children(of: context.place, count: stack.children.count)
        let count = stack.children.count
        // Each child's claim on the main axis, from its ideal length, in a buffer on the stack and
        // shared out there: a stack is arranged several times a walk, and its lists were most
        // of its allocations.
        let shared = try withUnsafeTemporaryAllocation(of: StackDistribution.Claim.self, capacity: count) { claims in
            for index in 0..<count {
                let sizing = stack.children[index].sizing
                let childContext = context.child(at: places.lowerBound + index)
                try validate(sizing, childContext)
                let fixed = sizing.fixed(main)
                let ideal: Double
                let shrinks: Bool
                if let minimumLength = stack.children[index].spacerMinimumLength {
                    guard minimumLength.isFinite, minimumLength >= 0, minimumLength <= maximumLength else {
                        throw LayoutError.invalidLength(name: "spacer minimumLength", value: minimumLength, maximum: maximumLength)
                    }
                    ideal = fixed ?? sizing.clamp(minimumLength, main)
                    shrinks = false
                } else {
                    ideal = Self.length(try measure(stack.children[index], proposal(main: nil), childContext).size, main)
                    shrinks = fixed == nil && stack.children[index].reflows
                }
                claims.initializeElement(at: index, to: StackDistribution.Claim(
                    ideal: ideal, minimum: fixed ?? sizing.minimum(main) ?? (shrinks ? 0 : ideal),
                    maximum: fixed ?? sizing.maximum(main) ?? .infinity, grow: fixed == nil ? sizing.grow : 0))
            }
            // Claims hold only numbers, so what a throw leaves uninitialised needs no cleaning up.
            StackDistribution.distribute(claims, spacing: stack.spacing, available: Self.length(inner, main))

            // Across the axis: each child at the length it got, and whether it lines up by its
            // baseline (in a row; children without text line up by their bottom edge).
            var shared = LineSharing(lines: [], commonBaseline: nil)
            shared.lines.reserveCapacity(count)
            for index in 0..<count {
                let length = claims[index].length
                if stack.children[index].spacerMinimumLength != nil {
                    shared.lines.append(LineSharing.Line(length: length, cross: 0, baseline: nil, byBaseline: false))
                    continue
                }
                let measured = try measure(stack.children[index], proposal(main: length),
                                           context.child(at: places.lowerBound + index))
                let crossLength = Self.length(measured.size, cross)
                let byBaseline = main == .horizontal && (stack.children[index].sizing.alignment ?? stack.alignment) == .baseline
                if byBaseline { shared.commonBaseline = max(shared.commonBaseline ?? -.infinity, measured.baseline ?? crossLength) }
                shared.lines.append(LineSharing.Line(length: length, cross: crossLength, baseline: measured.baseline,
                                                     byBaseline: byBaseline))
            }
            return shared
        }
        memo.keep(shared, at: context.place, for: sharingBox)
        return place(stack, shared, main: main, crossOffered: crossOffered, inner: inner, exact: exact, context)
    }

    /// How a row or column shared out an inner box: each child's length along the axis and its
    /// line across it. It depends on the box alone, so a stack measured in a box and then drawn
    /// in it (hugging, then exact) places its children from one sharing.
    struct LineSharing {
        /// A child: its length along the stack's axis, its length across it, its first
        /// baseline, and whether it lines up by it.
        struct Line {
            var length: Double
            var cross: Double
            var baseline: Double?
            var byBaseline: Bool
        }
        var lines: [Line]
        /// The baseline the children that line up by theirs share.
        var commonBaseline: Double?
    }

    /// The frames of a row's or column's children, from how it shared out its box. `exact`
    /// boxes are the stack's own when it is drawn; a measured stack hugs its children.
    private func place(_ stack: Stack, _ shared: LineSharing, main: LayoutAxis, crossOffered: Double?,
                       inner: ProposedSize, exact: Bool, _ context: Context) -> Arrangement {
        let (lines, commonBaseline) = (shared.lines, shared.commonBaseline)
        var hugged = 0.0
        for line in lines {
            let extent = line.byBaseline ? (commonBaseline ?? 0) - (line.baseline ?? line.cross) + line.cross : line.cross
            hugged = max(hugged, extent)
        }
        let crossBox = exact ? (crossOffered ?? hugged) : hugged
        let mainExtent = lines.reduce(0) { $0 + $1.length } + stack.spacing * Double(max(lines.count - 1, 0))
        let mainBox = exact ? (Self.length(inner, main) ?? mainExtent) : mainExtent
        // A row runs from the right in right-to-left layouts; a column's cross axis does.
        let mirrorsMain = main == .horizontal && context.direction == .rtl
        let mirrorsCross = main == .vertical && context.direction == .rtl

        var frames: [Rect] = []
        if exact { frames.reserveCapacity(lines.count) }
        var baseline: Double?
        var cursor = 0.0
        for (index, line) in lines.enumerated() {
            let length = line.length
            let mainPosition = mirrorsMain ? mainBox - cursor - length : cursor
            cursor += length + stack.spacing
            let crossPosition: Double
            if line.byBaseline {
                crossPosition = (commonBaseline ?? 0) - (line.baseline ?? line.cross)
            } else {
                let alignment = stack.children[index].sizing.alignment ?? stack.alignment
                crossPosition = Self.offset(free: crossBox - line.cross, alignment, reversed: mirrorsCross)
            }
            let frame = main == .horizontal
                ? Rect(x: mainPosition, y: crossPosition, width: length, height: line.cross)
                : Rect(x: crossPosition, y: mainPosition, width: line.cross, height: length)
            if baseline == nil, let childBaseline = line.baseline { baseline = frame.minY + childBaseline }
            if exact { frames.append(frame) }
        }
        let size = main == .horizontal ? Size(width: mainBox, height: crossBox) : Size(width: crossBox, height: mainBox)
        return Arrangement(frames: frames, size: size, baseline: baseline)
    }

    /// Where something `free` points shorter than its box starts, for an alignment.
    private static func offset(free: Double, _ alignment: Stack.Alignment, reversed: Bool) -> Double {
        switch alignment {
        case .start, .baseline: reversed ? free : 0
        case .center: free / 2
        case .end: reversed ? 0 : free
        }
    }

    private static func length(_ size: Size, _ axis: LayoutAxis) -> Double { axis == .horizontal ? size.width : size.height }
    private static func length(_ proposal: ProposedSize, _ axis: LayoutAxis) -> Double? {
        axis == .horizontal ? proposal.width : proposal.height
    }

    // MARK: Drawing

    /// Draws `element` filling `rect`.
    func draw(_ element: LayoutElement, in rect: Rect, _ context: Context) throws {
        try validate(element.sizing, context)
        switch element.content {
        case .stack(let stack):
            let box = rect.inset(by: stack.padding)
            let arrangement = try arrange(stack, inner: ProposedSize(box.size), exact: true,
                                          ignoresHeight: element.contentIgnoresHeight, context)
            let nested = context.inside(stack)
            let places = memo.children(of: context.place, count: stack.children.count)
            for (index, frame) in arrangement.frames.enumerated() {
                try draw(stack.children[index], in: frame.offsetBy(dx: box.minX, dy: box.minY),
                         nested.child(at: places.lowerBound + index))
            }
        case .spacer:
            break
        case .text(let run):
            canvas.draw(run, in: rect)
        case .aspect(_, let draw), .drawing(let draw), .custom(_, let draw):
            try draw(canvas, rect)
        case let .effect(inner, around):
            let place = memo.children(of: context.place, count: 1).lowerBound
            try around(canvas, rect) { try self.draw(inner, in: rect, context.child(at: place)) }
        }
    }
}

extension LayoutElement.Content {
    /// Whether the content can be given less than its ideal length along a stack and still
    /// show (text wraps or is cut, a stack passes the loss on), rather than be squashed.
    var reflows: Bool {
        switch self {
        case .text, .stack, .drawing, .custom: true
        case .spacer, .aspect: false
        case .effect(let inner, _): inner.reflows
        }
    }
}
