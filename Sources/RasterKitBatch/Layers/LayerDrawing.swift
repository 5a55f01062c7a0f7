import RasterKit
import Foundation

/// Draws resolved layers on a canvas: each in its frame inside its parent's bounds, faded or
/// blended as a group when it asks to be.
struct LayerRenderer {
    let canvas: Canvas

    func draw(_ layers: [Layer], in bounds: Rect) throws {
        for layer in layers { try draw(layer, in: bounds) }
    }

    func draw(_ layer: Layer, in bounds: Rect) throws {
        switch layer {
        case .shape(let shape): try composite(shape.common, in: bounds) { drawShape(shape, in: $0) }
        case .text(let text): try composite(text.common, in: bounds) { drawText(text, in: $0) }
        case .image(let image): try composite(image.common, in: bounds) { try drawImage(image, in: $0) }
        case .svg(let svg):
            try composite(svg.common, in: bounds) { frame in
                try canvas.drawSVG(svg.document, in: frame, contentMode: svg.contentMode, tint: svg.tint)
            }
        case .group(let group): try drawGroup(group, in: bounds)
        case .component(let child):
            try composite(child.common, in: bounds) { frame in try canvas.draw(child.component, in: frame) }
        case .stack(let stack):
            try composite(stack.common, in: bounds) { frame in try canvas.draw(stackElement(stack), in: frame) }
        case .spacer:
            break  // space, which only a stack gives out
        }
    }

    /// Resolves the frame and draws `body` in it, inside a layer when opacity or blending ask for one.
    func composite(_ common: LayerCommon, in bounds: Rect, _ body: (Rect) throws -> Void) throws {
        let frame = common.frame.resolved(in: bounds)
        // An inset larger than the size leaves nothing to draw, which is not an error.
        guard !frame.isEmpty else { return }
        if common.needsOwnLayer {
            try canvas.withLayer(opacity: common.opacity, blendMode: common.blendMode) { try body(frame) }
        } else {
            try body(frame)
        }
    }

    // MARK: Layer kinds

    private func drawShape(_ layer: ShapeLayer, in frame: Rect) {
        let path = Self.path(for: layer.shape, in: frame)
        let paint = {
            if let fill = layer.fill { canvas.fill(path, with: fill.paint(in: frame), rule: layer.fillRule) }
            if let inner = layer.innerShadow, inner.color.alpha > 0 { canvas.drawInnerShadow(inner, in: path) }
            if let stroke = layer.stroke { canvas.stroke(path, with: stroke.paint.paint(in: frame), style: stroke.style) }
        }
        casting(layer.shadow, paint)
    }

    /// Draws `body` casting `shadow`. A clear shadow (a state turning a shadow off) draws
    /// nothing, so its offscreen layer is skipped.
    func casting(_ shadow: Shadow?, _ body: () throws -> Void) rethrows {
        if let shadow, shadow.color.alpha > 0 { try canvas.withShadow(shadow, body) } else { try body() }
    }

    static func path(for shape: ShapeLayer.Shape, in frame: Rect) -> Path {
        switch shape {
        case .rect: return Path(rect: frame)
        case .roundedRect(let radii): return Path(roundedRect: frame, cornerRadii: radii)
        case .ellipse: return Path(ellipseIn: frame)
        case let .path(path, viewBox):
            guard let viewBox, viewBox.width > 0, viewBox.height > 0 else {
                return path.applying(Transform(translationX: frame.minX, y: frame.minY))
            }
            return path.applying(Transform(translationX: -viewBox.minX, y: -viewBox.minY)
                .concatenating(Transform(scaleX: frame.width / viewBox.width, y: frame.height / viewBox.height))
                .concatenating(Transform(translationX: frame.minX, y: frame.minY)))
        }
    }

    private func drawText(_ layer: TextLayer, in frame: Rect) {
        casting(layer.shadow) { canvas.draw(layer.spans, in: frame, style: layer.style) }
    }

    func drawImage(_ layer: ImageLayer, in frame: Rect) throws {
        do {
            // Decoded under the render's limits and memory budget, not the defaults.
            try canvas.withDecodedPNG(Data(layer.file.data)) { image in
                let placed = layer.contentMode.frame(forContentOfSize: image.size, in: frame)
                canvas.withState {
                    if layer.contentMode == .aspectFill || layer.contentMode == .center { canvas.clip(to: frame) }
                    canvas.draw(image, in: placed, interpolation: layer.interpolation)
                }
            }
        } catch let error as RenderError {
            throw error
        } catch {
            throw LayerDrawingError.unreadableImage(source: layer.file.source, reason: "\(error)")
        }
    }

    private func drawGroup(_ group: GroupLayer, in bounds: Rect) throws {
        let frame = group.common.frame.resolved(in: bounds)
        guard !frame.isEmpty else { return }
        try canvas.withState {
            if let transform = group.transform { canvas.concatenate(transform.transform(in: frame)) }
            let shadowed = { try casting(group.shadow) { try draw(group.layers, in: frame) } }
            let mask = try group.mask.map { try canvasMask($0, in: frame) }
            if mask != nil || group.common.needsOwnLayer {
                try canvas.withLayer(opacity: group.common.opacity, blendMode: group.common.blendMode, mask: mask, shadowed)
            } else {
                try shadowed()
            }
        }
    }

    /// The canvas mask for a group in `frame`: a paint's alpha, or layers drawn into an image.
    private func canvasMask(_ mask: LayerMask, in frame: Rect) throws -> Mask {
        switch mask {
        case .paint(let paint):
            switch paint.paint(in: frame) {
            case .linearGradient(let gradient): return .linearGradient(gradient)
            case .radialGradient(let gradient): return .radialGradient(gradient)
            case .color(let color): return Self.constantMask(color, in: frame)
            case .image: return Self.constantMask(.black, in: frame)  // layer paints are never images
            }
        case .layers(let layers):
            let image = try RasterImage(size: frame.size, scale: canvas.scale) { maskCanvas in
                try LayerRenderer(canvas: maskCanvas).draw(layers, in: Rect(size: frame.size))
            }
            return .image(image, in: frame)
        }
    }

    /// A plain colour masks by its alpha everywhere: a gradient that never changes.
    private static func constantMask(_ color: Color, in frame: Rect) -> Mask {
        .linearGradient(LinearGradient(gradient: Gradient(colors: [color, color]), start: frame.origin,
                                       end: Point(x: frame.minX, y: frame.maxY)))
    }
}

/// Why a layer could not be drawn.
enum LayerDrawingError: Error, CustomStringConvertible {
    case unreadableImage(source: String, reason: String)

    var description: String {
        switch self {
        case let .unreadableImage(source, reason): "cannot read the PNG '\(source)': \(reason)"
        }
    }
}
