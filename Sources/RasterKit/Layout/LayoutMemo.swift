/// What one layout walk learnt about each element, by the element's place in the tree: stacks
/// ask a child its size more than once, and nested stacks would otherwise measure their leaves
/// once per level, and a row or column measured in a box and then drawn in it would share out
/// that box twice. A place is an index into flat arrays rather than a key built from the path
/// or an object per element, so a lookup hashes nothing and a walk makes a few arrays, not an
/// allocation per element and proposal.
final class LayoutMemo {
    /// An element's place in the walk's tree.
    typealias Place = Int
    /// The place of the element the walk starts at.
    static let root: Place = 0

    private struct Node {
        /// The places of the element's children, once asked for: `firstChild ..< firstChild + childCount`.
        var firstChild = 0
        var childCount = 0
        /// Whether the element's sizing was checked.
        var isChecked = false
        /// The first size measured here: most elements are offered one or two proposals, so the
        /// first is kept in the node and the others in a list in `sizes`.
        var firstSize: Sized?
        var moreSizes = -1
        /// The head of the element's list in `sharings`, when it is a row or a column.
        var firstSharing = -1
        /// A text's measurement without a width, when it was measured so.
        var unwrappedText: TextMetrics?
    }

    private struct Sized {
        var proposal: ProposedSize
        var measured: LayoutEngine.Measured
    }

    /// How a row or column shared out an inner box, by that box.
    private struct Shared {
        var inner: ProposedSize
        var sharing: LayoutEngine.LineSharing
    }

    /// An entry of a list threaded through one array: the index of the next, or -1.
    private struct Link<Value> {
        var value: Value
        var next: Int
    }

    // Read and written only by the walk that made the memo, on one thread: the dynamic
    // exclusivity checks of a class's properties were a tenth of what laying out cost.
    @exclusivity(unchecked) private var nodes: [Node] = []
    @exclusivity(unchecked) private var sizes: [Link<Sized>] = []
    @exclusivity(unchecked) private var sharings: [Link<Shared>] = []

    init() {
        // Room for a small component's walk, so it does not grow its lists one doubling at a time.
        nodes.reserveCapacity(8)
        nodes.append(Node())
        sizes.reserveCapacity(8)
        sharings.reserveCapacity(2)
    }

    /// The places of the first `count` children of the element at `place` (a stack's children,
    /// or the one element an effect wraps), the same ones each time they are asked for.
    func children(of place: Place, count: Int) -> Range<Place> {
        if nodes[place].childCount < count {
            // The first time: a place always holds the same element, so its count never grows
            // afterwards (were it to, new places would only cost measuring again).
            nodes[place].firstChild = nodes.count
            nodes[place].childCount = count
            nodes.append(contentsOf: repeatElement(Node(), count: count))
        }
        let first = nodes[place].firstChild
        return first ..< first + count
    }

    /// Whether the sizing of the element at `place` was checked in this walk.
    func isChecked(_ place: Place) -> Bool { nodes[place].isChecked }

    /// Notes that the sizing of the element at `place` was checked.
    func markChecked(_ place: Place) { nodes[place].isChecked = true }

    /// The size measured for the element at `place` when offered `proposal`, if it was.
    func measured(at place: Place, for proposal: ProposedSize) -> LayoutEngine.Measured? {
        guard let first = nodes[place].firstSize else { return nil }
        if first.proposal == proposal { return first.measured }
        return Self.first(in: sizes, from: nodes[place].moreSizes) { $0.proposal == proposal }?.measured
    }

    /// Keeps the size measured for the element at `place` when offered `proposal`.
    func keep(_ measured: LayoutEngine.Measured, at place: Place, for proposal: ProposedSize) {
        let sized = Sized(proposal: proposal, measured: measured)
        if nodes[place].firstSize == nil {
            nodes[place].firstSize = sized
        } else {
            sizes.append(Link(value: sized, next: nodes[place].moreSizes))
            nodes[place].moreSizes = sizes.count - 1
        }
    }

    /// The measurement of the text at `place` without a width, if it was measured so.
    func unwrappedText(at place: Place) -> TextMetrics? { nodes[place].unwrappedText }

    /// Keeps the measurement of the text at `place` without a width.
    func keepUnwrappedText(_ metrics: TextMetrics, at place: Place) { nodes[place].unwrappedText = metrics }

    /// How the row or column at `place` shared out an inner box of `inner`, if it did.
    func lineSharing(at place: Place, for inner: ProposedSize) -> LayoutEngine.LineSharing? {
        Self.first(in: sharings, from: nodes[place].firstSharing) { $0.inner == inner }?.sharing
    }

    /// The first value of the list starting at `head` in `links` that passes `test`.
    private static func first<Value>(in links: [Link<Value>], from head: Int, where test: (Value) -> Bool) -> Value? {
        var link = head
        while link >= 0 {
            if test(links[link].value) { return links[link].value }
            link = links[link].next
        }
        return nil
    }

    /// Keeps how the row or column at `place` shared out an inner box of `inner`.
    func keep(_ sharing: LayoutEngine.LineSharing, at place: Place, for inner: ProposedSize) {
        sharings.append(Link(value: Shared(inner: inner, sharing: sharing), next: nodes[place].firstSharing))
        nodes[place].firstSharing = sharings.count - 1
    }
}
