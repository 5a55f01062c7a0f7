import RasterKit
import Foundation

extension LayerRenderer {
    /// `stack` as a RasterKit layout: each child an element sized by its content and its
    /// ``LayerCommon/sizing``, and drawn as a layer is, with its own opacity, blend mode and
    /// shadow, in the box the stack gives it.
    func stackElement(_ stack: StackLayer) -> LayoutElement {
        var element = Stack(stack.arrangement, children: stack.children.map(element(for:))).element
        element.sizing = stack.common.sizing
        return element
    }

    /// One child of a stack as a layout element.
    private func element(for layer: Layer) -> LayoutElement {
        var sizing = layer.common.sizing
        var element: LayoutElement
        // Shapes, groups and components of fixed sizes have no size of their own: they fill the
        // box they are given, as a background does.
        func filling() -> LayoutElement { Drawing { _, rect in try draw(layer, in: rect) }.element }
        switch layer {
        case .text(let text):
            element = Text(text.spans, style: text.style).effect { _, rect, content in
                try composite(text.common, in: rect) { _ in try casting(text.shadow) { try content() } }
            }
        case .svg(let svg):
            element = SVG(svg.document, contentMode: svg.contentMode, tint: svg.tint).effect { _, rect, content in
                try composite(svg.common, in: rect) { _ in try content() }
            }
        case .image(let image):
            // Sized by the PNG's header, read without decoding; drawn as an image layer is.
            let natural = (try? PNGHeader(Data(image.file.data.prefix(64)))).map { Size(width: Double($0.width), height: Double($0.height)) }
            element = CustomElement(naturalSize: natural ?? .zero) { _, rect in
                try composite(image.common, in: rect) { frame in try drawImage(image, in: frame) }
            }.element
        case .stack(let nested):
            element = stackElement(nested).effect { _, rect, content in
                try composite(nested.common, in: rect) { _ in try content() }
            }
        case .spacer(let spacer):
            element = Spacer(minimumLength: spacer.minimumLength).element
        case .component(let child):
            if let natural = child.naturalSize {
                // A component that sizes itself takes its measured size, as a fixed ideal, and is
                // not squashed below it unless its sizing allows it.
                element = CustomElement(sizeThatFits: { _, _ in natural }) { _, rect in try draw(layer, in: rect) }.element
                sizing.minWidth = sizing.minWidth ?? min(natural.width, sizing.maxWidth ?? .infinity)
                sizing.minHeight = sizing.minHeight ?? min(natural.height, sizing.maxHeight ?? .infinity)
            } else {
                element = filling()
            }
        case .shape, .group:
            element = filling()
        }
        element.sizing = sizing
        return element
    }
}
