import Foundation
import Testing
@testable import RasterKit

/// DejaVu Sans Mono advances 1233/2048 em: at 10 points each character is 6.0205 points wide,
/// so text widths in these tests are known in advance.
private let mono = TextStyle(font: "DejaVu Sans Mono 10", maxLines: 1)
private let characterWidth = 10 * 1233.0 / 2048

/// A filled box of a fixed size, which cannot shrink: its lengths are exact.
private func box(_ width: Double, _ height: Double) -> LayoutElement {
    CustomElement(sizeThatFits: { _, _ in Size(width: width, height: height) }, draw: { canvas, rect in
        canvas.fill(Path(rect: rect), with: .color(.black))
    }).frame(width: width, height: height)
}

/// Measures on a scratch canvas.
private func measure(_ content: some LayoutContent, _ proposal: ProposedSize = .unspecified,
                     direction: LayoutDirection = .ltr) throws -> Size {
    try content.sizeThatFits(proposal, direction: direction)
}

/// Draws `content` filling `size` at scale 1 on white.
private func render(_ content: some LayoutContent, _ size: Size, direction: LayoutDirection = .ltr) throws -> RasterImage {
    try RasterImage(size: size) { canvas in
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.white))
        try canvas.draw(content, in: Rect(size: size), direction: direction)
    }
}

/// The columns holding a pixel darker than mid grey.
private func inkColumns(_ image: RasterImage, rows: Range<Int>? = nil) -> ClosedRange<Int>? {
    let rows = rows ?? 0..<image.pixelHeight
    let columns = (0..<image.pixelWidth).filter { x in rows.contains { image.pixel(x: x, y: $0).red < 128 } }
    guard let first = columns.first, let last = columns.last else { return nil }
    return first...last
}

/// The frames a stack gives its children in `size`, through the engine the canvas uses.
private func frames(_ stack: Stack, in size: Size, direction: LayoutDirection = .ltr) throws -> [Rect] {
    var result: [Rect] = []
    _ = try RasterImage(size: Size(width: 1, height: 1)) { canvas in
        let engine = LayoutEngine(canvas: canvas)
        let inner = Rect(size: size).inset(by: stack.padding)
        result = try engine.arrange(stack, inner: ProposedSize(inner.size), exact: true,
                                    ignoresHeight: stack.element.contentIgnoresHeight,
                                    LayoutEngine.Context(direction: direction)).frames
            .map { $0.offsetBy(dx: inner.minX, dy: inner.minY) }
    }
    return result
}

extension StackDistribution {
    /// The lengths ``distribute(_:spacing:available:)`` gives `claims`.
    static func lengths(for claims: [Claim], spacing: Double, available: Double?) -> [Double] {
        var claims = claims
        claims.withUnsafeMutableBufferPointer { distribute($0, spacing: spacing, available: available) }
        return claims.map(\.length)
    }
}

@Suite struct StackDistributionTests {
    typealias Claim = StackDistribution.Claim

    @Test func leftoverSpaceGoesToGrowersByShareUpToTheirMaximum() {
        let claims = [Claim(ideal: 10, minimum: 10, maximum: .infinity, grow: 0),
                      Claim(ideal: 0, minimum: 0, maximum: .infinity, grow: 1),
                      Claim(ideal: 0, minimum: 0, maximum: 15, grow: 3)]
        // 100 - 10 - 2 × 5 spacing = 80 over; the third takes 60 of it but stops at 15.
        let lengths = StackDistribution.lengths(for: claims, spacing: 5, available: 100)
        #expect(lengths == [10, 65, 15])
    }

    @Test func missingSpaceIsTakenInProportionToIdealLengthsDownToMinimums() {
        let claims = [Claim(ideal: 100, minimum: 0, maximum: .infinity, grow: 0),
                      Claim(ideal: 50, minimum: 0, maximum: .infinity, grow: 0),
                      Claim(ideal: 30, minimum: 30, maximum: 30, grow: 0)]
        let lengths = StackDistribution.lengths(for: claims, spacing: 0, available: 120)
        #expect(abs(lengths[0] - 60) < 1e-9 && abs(lengths[1] - 30) < 1e-9 && lengths[2] == 30)
        // A child pinned at its minimum passes the rest of the loss to the others.
        let pinned = StackDistribution.lengths(for: [Claim(ideal: 100, minimum: 90, maximum: .infinity, grow: 0),
                                                     Claim(ideal: 100, minimum: 0, maximum: .infinity, grow: 0)],
                                               spacing: 0, available: 100)
        #expect(abs(pinned[0] - 90) < 1e-9 && abs(pinned[1] - 10) < 1e-9)
    }

    @Test func withoutALengthEveryChildGetsItsIdeal() {
        let claims = [Claim(ideal: 7, minimum: 0, maximum: 7, grow: 1), Claim(ideal: 3, minimum: 0, maximum: .infinity, grow: 1)]
        #expect(StackDistribution.lengths(for: claims, spacing: 4, available: nil) == [7, 3])
        #expect(StackDistribution.lengths(for: [], spacing: 4, available: 100) == [])
    }
}

@Suite struct LayoutTests {
    @Test func aRowHugsItsChildrenWithSpacingAndPadding() throws {
        let row = Stack(.horizontal, spacing: 4, padding: EdgeInsets(top: 2, left: 3, bottom: 5, right: 7)) {
            box(10, 6)
            box(20, 12)
            Text("abc", style: mono)
        }
        let size = try measure(row)
        #expect(abs(size.width - (3 + 10 + 4 + 20 + 4 + 3 * characterWidth + 7)) < 0.01)
        #expect(size.height >= 12 + 7 && size.height < 20 + 7)   // the tallest child, and padding
    }

    @Test func aChipsWidthFollowsItsLabelAndKeepsItsPadding() throws {
        func chip(_ label: String) -> Stack {
            Stack(.horizontal, padding: EdgeInsets(top: 4, left: 10, bottom: 4, right: 10)) { Text(label, style: mono) }
        }
        let widths = try ["a", "abcde", "abcdefghijklmnop"].map { try measure(chip($0), ProposedSize(width: nil, height: 28)).width }
        #expect(abs(widths[0] - (20 + characterWidth)) < 0.01)
        #expect(abs(widths[1] - (20 + 5 * characterWidth)) < 0.01)
        #expect(abs(widths[2] - (20 + 16 * characterWidth)) < 0.01)
        let size = Size(width: widths[2].rounded(.up), height: 28)
        let ink = try #require(inkColumns(try render(chip("abcdefghijklmnop"), size)))
        #expect(ink.lowerBound >= 10 && ink.lowerBound <= 11)                  // padding on the left
        #expect(Int(size.width) - 1 - ink.upperBound >= 10 - 1)                // and on the right
    }

    @Test func aColumnWrapsTextAtItsWidth() throws {
        let column = Stack(.vertical) { Text("aaaa bbbb cccc dddd", style: TextStyle(font: "DejaVu Sans Mono 10")) }
        let unwrapped = try measure(column)
        let wrapped = try measure(column, ProposedSize(width: 60, height: nil))
        #expect(wrapped.width <= 60)
        #expect(wrapped.height > unwrapped.height * 1.5)
    }

    @Test func aMaximumWidthWrapsTextThereRatherThanCuttingIt() throws {
        let text = Text("aaaa bbbb cccc dddd", style: TextStyle(font: "DejaVu Sans Mono 10")).frame(maxWidth: 60)
        let size = try measure(text)
        #expect(size.width <= 60)
        #expect(size.height > 20)
    }

    @Test func spacersShareLeftoverSpaceAndPushChildrenApart() throws {
        let row = Stack(.horizontal) {
            box(10, 10)
            Spacer()
            box(10, 10)
            Spacer().grow(3)
            box(10, 10)
        }
        let placed = try frames(row, in: Size(width: 110, height: 10))
        #expect([0, 2, 4].map { placed[$0].minX } == [0, 30, 100])   // 80 over: 20 and 60
    }

    @Test func growingChildrenTakeTheRestAndShrinkingTextEndsInAnEllipsis() throws {
        let row = Stack(.horizontal, spacing: 5) {
            box(20, 10)
            Text("abcdefghijklmnopqrstuvwxyz", style: mono)
        }
        let placed = try frames(row, in: Size(width: 100, height: 20))
        #expect(placed[0].width == 20)
        #expect(abs(placed[1].width - 75) < 1e-6)
        var truncated = false
        _ = try RasterImage(size: Size(width: 1, height: 1)) { canvas in
            truncated = canvas.measure([TextSpan("abcdefghijklmnopqrstuvwxyz")], style: mono, width: 75).isTruncated
        }
        #expect(truncated)
    }

    @Test func baselineAlignmentLinesUpTextInDifferentFonts() throws {
        let row = Stack(.horizontal, alignment: .baseline) {
            Text("Big", style: TextStyle(font: "DejaVu Sans 30"))
            Text("small", style: TextStyle(font: "DejaVu Sans 10"))
        }
        var baselines: [Double] = []
        _ = try RasterImage(size: Size(width: 1, height: 1)) { canvas in
            baselines = [30.0, 10].map { size in
                canvas.measure([TextSpan("x")], style: TextStyle(font: "DejaVu Sans \(Int(size))")).firstBaseline
            }
        }
        let placed = try frames(row, in: Size(width: 200, height: 60))
        #expect(abs((placed[0].minY + baselines[0]) - (placed[1].minY + baselines[1])) < 0.01)
        #expect(placed[1].minY > placed[0].minY)
    }

    @Test func rowsRunFromTheRightInRightToLeftLayouts() throws {
        let row = Stack(.horizontal, spacing: 10) {
            box(10, 10)
            box(20, 10)
        }
        let leftToRight = try frames(row, in: Size(width: 100, height: 10))
        let rightToLeft = try frames(row, in: Size(width: 100, height: 10), direction: .rtl)
        #expect(leftToRight.map(\.minX) == [0, 20])
        #expect(rightToLeft.map(\.minX) == [90, 60])
        // A stack's own direction wins over its parent's, and passes to the stacks inside it.
        let nested = Stack(.vertical, alignment: .start, direction: .rtl) { box(10, 10) }
        #expect(try frames(nested, in: Size(width: 100, height: 10)).map(\.minX) == [90])
        let image = try render(Stack(.horizontal) { box(10, 10) }, Size(width: 50, height: 10), direction: .rtl)
        #expect(inkColumns(image) == 40...49)
    }

    /// Drawn in a box it was measured in, a row or column is placed from the sharing of that box
    /// measuring made; for every axis, alignment, direction and sharing of space, in the box it
    /// hugs and in a larger one, that must be where arranging it afresh puts its children.
    @Test func aStackDrawnAtItsMeasuredSizeIsPlacedAsArrangingItAfreshWould() throws {
        final class Recorder: @unchecked Sendable { var frames: [Rect] = [] }
        for axis in [Stack.Axis.horizontal, .vertical] {
            for alignment in [Stack.Alignment.start, .center, .end, .baseline] {
                for direction in [LayoutDirection.ltr, .rtl] {
                    let recorder = Recorder()
                    func recorded(_ element: LayoutElement) -> LayoutElement {
                        element.effect { _, rect, draw in
                            recorder.frames.append(rect)
                            try draw()
                        }
                    }
                    let stack = Stack(axis, spacing: 3, padding: EdgeInsets(top: 2, left: 5, bottom: 4, right: 1),
                                      alignment: alignment, direction: direction) {
                        recorded(Text("Label", style: mono).element)
                        recorded(box(12, 17))
                        recorded(Spacer().grow())
                        recorded(Text("A longer text that wraps", style: TextStyle(font: "DejaVu Sans 9")).frame(maxWidth: 60))
                    }
                    // On one canvas (a canvas of a fractional size stretches its points onto
                    // whole pixels, and text measures differently under the stretch): drawn as
                    // the root, which nothing measured, then inside a stack that measures it
                    // in the box it then draws it in.
                    // In the box it hugs, and in a larger one it does not fill.
                    for extra in [0.0, 7.5] {
                        var afresh: [Rect] = []
                        recorder.frames = []
                        _ = try RasterImage(size: Size(width: 300, height: 200)) { canvas in
                            let measured = try canvas.measure(stack)
                            let box = Rect(size: Size(width: measured.width + extra, height: measured.height + extra))
                            try canvas.draw(stack, in: box)
                            afresh = recorder.frames
                            recorder.frames = []
                            // A fixed frame gives the stack the box it was measured in even
                            // where it does not fill it (a depth stack would centre its hug).
                            try canvas.draw(Stack(.depth) { stack.frame(width: box.width, height: box.height) }, in: box)
                        }
                        #expect(afresh.count == 4)
                        #expect(recorder.frames == afresh, "\(axis) \(alignment) \(direction) +\(extra)")
                    }
                }
            }
        }
    }

    /// A row whose children measure the same at any height (text that may not shrink, spacers,
    /// fixed heights, rows of these) is measured and shared out once for every height a walk
    /// offers it; a row holding anything that takes the height it is offered is not, nor is a
    /// column or a depth stack, whose sizes follow the height.
    @Test func onlyRowsOfChildrenThatIgnoreHeightMeasureAlikeAtEveryHeight() throws {
        let label = Text("Label", style: mono)
        let ignoring = Stack(.horizontal, spacing: 4) {
            label
            Spacer()
            Text("12", style: mono).frame(height: 30)
            Stack(.horizontal) { label }.effect { _, _, draw in try draw() }
        }
        #expect(ignoring.element.contentIgnoresHeight)
        let sizes = try [nil, 5.0, 80].map { try measure(ignoring, ProposedSize(width: 200, height: $0)) }
        #expect(sizes == Array(repeating: Size(width: 200, height: 30), count: 3))

        let filling = Stack(.horizontal, spacing: 4) {
            label
            Drawing { _, _ in }
        }
        let shrinking = Stack(.horizontal) {
            Text("Label", style: TextStyle(font: "DejaVu Sans Mono 10", fit: .shrink(minimumScale: 0.5)))
        }
        for stack in [filling, shrinking, Stack(.vertical) { label }, Stack(.depth) { label }] {
            #expect(!stack.element.contentIgnoresHeight, "\(stack.axis)")
        }
        // Measured without a height, then with one, in one walk: the drawing takes the height.
        let column = Stack(.vertical) { filling.frame(height: 40) }
        let hugged = try measure(filling, ProposedSize(width: 200, height: nil)).height
        #expect(hugged < 40)
        #expect(try measure(filling, ProposedSize(width: 200, height: 40)).height == 40)
        #expect(try frames(column, in: Size(width: 200, height: 40)).map(\.height) == [40])
        let drawn = try frames(filling, in: Size(width: 200, height: 40))
        #expect(drawn.last?.height == 40)
    }

    /// The walk's memo: each place's children are the same places each time and no other
    /// place's; sizes and a row's sharing of its box are kept by proposal and box.
    @Test func theMemoKeepsWhatEachPlaceLearntApart() {
        let memo = LayoutMemo()
        let children = memo.children(of: LayoutMemo.root, count: 3)
        #expect(memo.children(of: LayoutMemo.root, count: 3) == children)
        let grandchildren = memo.children(of: children.lowerBound + 1, count: 2)
        #expect(!grandchildren.overlaps(children) && !grandchildren.contains(LayoutMemo.root))

        let proposals = [ProposedSize(width: 10, height: nil), .unspecified, ProposedSize(width: 10, height: 5)]
        for (index, proposal) in proposals.enumerated() {
            memo.keep(LayoutEngine.Measured(size: Size(width: Double(index), height: 1)), at: children.lowerBound, for: proposal)
        }
        for (index, proposal) in proposals.enumerated() {
            #expect(memo.measured(at: children.lowerBound, for: proposal)?.size.width == Double(index))
            #expect(memo.measured(at: children.lowerBound + 2, for: proposal) == nil)
        }
        #expect(!memo.isChecked(grandchildren.lowerBound))
        memo.markChecked(grandchildren.lowerBound)
        #expect(memo.isChecked(grandchildren.lowerBound) && !memo.isChecked(grandchildren.lowerBound + 1))

        let lines = [20.0, 5].map { LayoutEngine.LineSharing.Line(length: $0, cross: 8, baseline: nil, byBaseline: false) }
        memo.keep(LayoutEngine.LineSharing(lines: lines, commonBaseline: nil), at: LayoutMemo.root,
                  for: ProposedSize(width: 30, height: 8))
        #expect(memo.lineSharing(at: LayoutMemo.root, for: ProposedSize(width: 30, height: 8))?.lines.map(\.length) == [20, 5])
        #expect(memo.lineSharing(at: LayoutMemo.root, for: ProposedSize(width: 30, height: nil)) == nil)
        #expect(memo.lineSharing(at: children.lowerBound, for: ProposedSize(width: 30, height: 8)) == nil)
    }

    @Test func aDepthStackIsItsLargestChildAndBackgroundsFillIt() throws {
        let chip = Stack(.depth) {
            Drawing { canvas, rect in canvas.fill(Path(rect: rect), with: .color(.black)) }
            box(30, 10)
            box(10, 20)
        }
        #expect(try measure(chip) == Size(width: 30, height: 20))
        let placed = try frames(chip, in: Size(width: 30, height: 20))
        #expect(placed[0] == Rect(x: 0, y: 0, width: 30, height: 20))
        #expect(placed[2] == Rect(x: 10, y: 0, width: 10, height: 20))
    }

    @Test func imagesKeepTheirAspectRatioAndNeverGrow() throws {
        let image = try RasterImage(size: Size(width: 40, height: 20)) { _ in }
        #expect(try measure(Image(image)) == Size(width: 40, height: 20))
        #expect(try measure(Image(image), ProposedSize(width: 20, height: nil)) == Size(width: 20, height: 10))
        #expect(try measure(Image(image), ProposedSize(width: 400, height: 400)) == Size(width: 40, height: 20))
        #expect(try measure(Image(image).frame(height: 10)) == Size(width: 20, height: 10))
    }

    @Test func badLengthsAreTypedErrors() throws {
        func error(_ content: some LayoutContent) -> LayoutError? {
            do {
                _ = try measure(content)
                return nil
            } catch let error as LayoutError {
                return error
            } catch {
                return nil
            }
        }
        #expect(error(Stack(.horizontal, spacing: -1) { box(1, 1) }) == .invalidLength(name: "spacing", value: -1, maximum: 16_384))
        #expect(error(Stack(.horizontal, spacing: .nan) { box(1, 1) }) != nil)
        #expect(error(Stack(.horizontal, padding: EdgeInsets(top: 0, left: -2, bottom: 0, right: 0)) { box(1, 1) }) != nil)
        #expect(error(box(1, 1).frame(minWidth: 10, maxWidth: 5)) == .minimumAboveMaximum(axis: "width", 10, 5))
        #expect(error(box(1, 1).frame(width: .infinity)) != nil)
        #expect(error(box(1, 1).grow(-1)) == .invalidGrow(-1))
        #expect(error(Spacer(minimumLength: -3).frame(height: 1)) == nil)   // a spacer outside a stack measures nothing
        #expect(error(Stack(.horizontal) { Spacer(minimumLength: -3) }) != nil)
        #expect(error(Stack(.vertical, children: Array(repeating: box(1, 1), count: Stack.maximumChildren + 1)))
                == .tooManyChildren(Stack.maximumChildren + 1, limit: Stack.maximumChildren))
        var deep = Stack(.vertical) { box(1, 1) }
        for _ in 0..<Stack.maximumDepth { deep = Stack(.vertical) { deep } }
        #expect(error(deep) == .nestedTooDeeply(limit: Stack.maximumDepth))
        let custom = CustomElement(sizeThatFits: { _, _ in Size(width: -1, height: .nan) }, draw: { _, _ in })
        #expect(error(custom) != nil)
    }

    @Test func aLayoutComponentIsCachedLikeAnyOther() throws {
        struct Chip: LayoutComponent {
            var label: String
            var body: some LayoutContent {
                Stack(.depth) {
                    Drawing { canvas, rect in canvas.fill(Path(rect: rect), with: .color(.black)) }
                    Stack(.horizontal, padding: EdgeInsets(top: 2, left: 6, bottom: 2, right: 6)) { Text(label, style: mono) }
                }
            }
        }
        let short = try Chip(label: "ab").idealSize(height: 20)
        let exactShort = try Chip(label: "ab").body.sizeThatFits(ProposedSize(width: nil, height: 20))
        let exactLong = try Chip(label: "abcdef").body.sizeThatFits(ProposedSize(width: nil, height: 20))
        #expect(abs(exactLong.width - exactShort.width - 4 * characterWidth) < 0.01)
        #expect(short.width == exactShort.width.rounded(.up))
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 8 << 20))
        let first = try rasterizer.image(for: Chip(label: "ab"), size: short, scale: 2)
        _ = try rasterizer.image(for: Chip(label: "ab"), size: short, scale: 2)
        #expect(first.pixelWidth == Int((short.width * 2).rounded(.up)) || first.pixelWidth == Int((short.width * 2).rounded()))
        #expect(rasterizer.statistics.draws == 1)
    }

    /// A component drawn at its ideal size shows its whole label at every scale: the size is
    /// whole points, so no canvas stretches it and its text measures there as it was measured.
    /// (Drawn at the exact, fractional size, "Waiting for review" lost its last letters to an
    /// ellipsis at scale 2.)
    @Test func aComponentDrawnAtItsIdealSizeShowsItsWholeLabel() throws {
        let style = TextStyle(font: "DejaVu Sans Bold 13", color: .white, maxLines: 1)
        struct Chip: LayoutComponent {
            var label: String
            var style: TextStyle
            var body: some LayoutContent {
                Stack(.horizontal, spacing: 6, padding: EdgeInsets(top: 4, left: 10, bottom: 4, right: 10)) {
                    Text(label, style: style)
                }
            }
        }
        final class Cut: @unchecked Sendable { var labels: [String] = [] }
        let cut = Cut()
        for label in ["New", "12", "Design review", "Waiting for review", "Ünïcödé wörds", "A much longer label for this chip"] {
            let size = try Chip(label: label, style: style).idealSize(height: 28)
            let exact = try Chip(label: label, style: style).body.sizeThatFits(ProposedSize(width: nil, height: 28))
            #expect(size.width == size.width.rounded() && size.width >= exact.width - 1e-3)
            for scale in [1.0, 2.0, 3.0] {
                _ = try RasterImage(size: size, scale: scale) { canvas in
                    let checked = Stack(.horizontal, spacing: 6, padding: EdgeInsets(top: 4, left: 10, bottom: 4, right: 10)) {
                        Text(label, style: style).effect { canvas, rect, draw in
                            if canvas.measure(text: label, style: style, width: rect.width).isTruncated {
                                cut.labels.append("\(label) at \(scale)")
                            }
                            try draw()
                        }
                    }
                    try canvas.draw(checked, in: Rect(size: size))
                }
            }
        }
        #expect(cut.labels.isEmpty, "\(cut.labels)")
    }
}
