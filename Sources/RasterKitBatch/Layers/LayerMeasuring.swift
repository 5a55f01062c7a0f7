import RasterKit
import Foundation

/// Measures a component whose size is given as `auto` on an axis: its stack layers are laid
/// out as they would be drawn, offered the fixed lengths and asked for their ideal ones.
enum LayerMeasuring {
    /// Why a size could not be measured.
    enum Failure: Error, CustomStringConvertible {
        /// No stack layer to measure.
        case nothingToMeasure
        /// Laying out the stacks failed.
        case layout(any Error)

        var description: String {
            switch self {
            case .nothingToMeasure: "a measured (auto) length needs a stack layer to measure, and the layers have none"
            case .layout(let error): "\(error)"
            }
        }
    }

    /// `size` with its measured lengths taken from `layers`: the largest extent of their stack
    /// layers (with the stacks' insets; a stack given a `frame` counts its rectangle), rounded
    /// up to a whole point and held within the bounds. Text measures the same at every scale,
    /// so one size serves them all.
    static func measured(_ size: Manifest.ComponentSize, of layers: [Layer], limits: ResourceLimits) throws(Failure)
        -> Manifest.ComponentSize {
        guard size.isMeasured else { return size }
        let stacks = layers.compactMap { layer -> StackLayer? in if case .stack(let stack) = layer { stack } else { nil } }
        guard !stacks.isEmpty else { throw .nothingToMeasure }
        var extent = Size.zero
        do {
            try Canvas.measuring(limits: limits) { canvas in
                let renderer = LayerRenderer(canvas: canvas)
                for stack in stacks {
                    let stackExtent: Size
                    switch stack.common.frame {
                    case .rect(let rect):
                        stackExtent = Size(width: rect.maxX, height: rect.maxY)
                    case .inset(let insets):
                        let element = bounded(renderer.stackElement(stack), by: size, insets: insets)
                        let proposal = ProposedSize(
                            width: size.measuredWidth == nil ? max(size.size.width - insets.horizontal, 0) : nil,
                            height: size.measuredHeight == nil ? max(size.size.height - insets.vertical, 0) : nil)
                        let measured = try canvas.measure(element, proposal: proposal)
                        stackExtent = Size(width: measured.width + insets.horizontal, height: measured.height + insets.vertical)
                    }
                    extent = Size(width: max(extent.width, stackExtent.width), height: max(extent.height, stackExtent.height))
                }
            }
        } catch {
            throw .layout(error)
        }
        var result = size
        // Whole points, as `LayoutComponent.idealSize` gives, within the length's bounds.
        func whole(_ length: Double, _ bounds: Manifest.MeasuredLength) -> Double {
            min(max(LayoutSizing.wholePoints(length), bounds.minimum), bounds.maximum)
        }
        if let bounds = size.measuredWidth { result.size.width = whole(extent.width, bounds) }
        if let bounds = size.measuredHeight { result.size.height = whole(extent.height, bounds) }
        return result
    }

    /// The stack held within a measured length's bounds (less its insets), so content past the
    /// maximum is measured wrapped at it.
    private static func bounded(_ element: LayoutElement, by size: Manifest.ComponentSize, insets: EdgeInsets) -> LayoutElement {
        var element = element
        if let bounds = size.measuredWidth {
            let maximum = max(min(element.sizing.maxWidth ?? .infinity, bounds.maximum - insets.horizontal), 0)
            element.sizing.maxWidth = maximum
            element.sizing.minWidth = element.sizing.minWidth.map { min($0, maximum) }
        }
        if let bounds = size.measuredHeight {
            let maximum = max(min(element.sizing.maxHeight ?? .infinity, bounds.maximum - insets.vertical), 0)
            element.sizing.maxHeight = maximum
            element.sizing.minHeight = element.sizing.minHeight.map { min($0, maximum) }
        }
        return element
    }
}
