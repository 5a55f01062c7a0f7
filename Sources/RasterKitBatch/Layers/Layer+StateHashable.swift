import RasterKit
// Layers write their state by hand: a declarative component's state is its whole resolved layer
// tree, walked for every output's fingerprint, so it must never cost a Mirror walk. Every case
// writes a distinct tag first, so two different trees never write the same bytes.

/// The layer model's tag bytes, registered with every other in RasterKit's `StateTag.swift`.
private typealias LayerTag = StateTags.Layer

extension Layer: StateHashable {
    /// Writes the kind of layer, then that layer's state.
    public func hashState(into hasher: inout StateHasher) {
        switch self {
        case .shape(let layer): layer.hashState(into: &hasher)
        case .text(let layer): layer.hashState(into: &hasher)
        case .image(let layer): layer.hashState(into: &hasher)
        case .svg(let layer): layer.hashState(into: &hasher)
        case .group(let layer): layer.hashState(into: &hasher)
        case .component(let layer): layer.hashState(into: &hasher)
        case .stack(let layer): layer.hashState(into: &hasher)
        case .spacer(let layer): layer.hashState(into: &hasher)
        }
    }
}

extension LayerFrame: StateHashable {
    /// Writes how the layer is placed: a frame, insets, or its parent's whole bounds.
    public func hashState(into hasher: inout StateHasher) {
        switch self {
        case .inset(let insets):
            hasher.sip.write(LayerTag.inset)
            insets.hashState(into: &hasher)
        case .rect(let rect):
            hasher.sip.write(LayerTag.rect)
            rect.hashState(into: &hasher)
        }
    }
}

extension LayerPaint: StateHashable {
    /// Writes the colour or gradient, with its stops and geometry.
    public func hashState(into hasher: inout StateHasher) {
        switch self {
        case .color(let color):
            hasher.sip.write(LayerTag.color)
            color.hashState(into: &hasher)
        case let .linear(gradient, start, end):
            hasher.sip.write(LayerTag.linear)
            gradient.hashState(into: &hasher)
            start.hashState(into: &hasher)
            end.hashState(into: &hasher)
        case let .radial(gradient, center, radius):
            hasher.sip.write(LayerTag.radial)
            gradient.hashState(into: &hasher)
            center.hashState(into: &hasher)
            hasher.write(radius)
        }
    }
}

extension LayerStroke: StateHashable {
    /// Writes the paint, then the stroke style.
    public func hashState(into hasher: inout StateHasher) {
        paint.hashState(into: &hasher)
        style.hashState(into: &hasher)
    }
}

extension LayerCommon: StateHashable {
    /// Writes the frame, opacity, blend mode and stack sizing every layer has.
    public func hashState(into hasher: inout StateHasher) {
        frame.hashState(into: &hasher)
        hasher.write(opacity)
        blendMode.hashState(into: &hasher)
        sizing.hashState(into: &hasher)
    }
}

extension ShapeLayer: StateHashable {
    /// Writes the shape, the placement, opacity and blend mode, the fill and fill rule, the stroke
    /// and both shadows.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.shape)
        switch shape {
        case .rect: hasher.sip.write(LayerTag.shapeRect)
        case .roundedRect(let radii):
            hasher.sip.write(LayerTag.roundedRect)
            radii.hashState(into: &hasher)
        case .ellipse: hasher.sip.write(LayerTag.ellipse)
        case let .path(path, viewBox):
            hasher.sip.write(LayerTag.path)
            path.hashState(into: &hasher)
            viewBox.hashState(into: &hasher)
        }
        common.hashState(into: &hasher)
        fill.hashState(into: &hasher)
        fillRule.hashState(into: &hasher)
        stroke.hashState(into: &hasher)
        shadow.hashState(into: &hasher)
        innerShadow.hashState(into: &hasher)
    }
}

extension TextLayer: StateHashable {
    /// Writes the spans, the style, the placement, opacity and blend mode, the shadow and the fonts.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.text)
        spans.hashState(into: &hasher)
        style.hashState(into: &hasher)
        common.hashState(into: &hasher)
        shadow.hashState(into: &hasher)
        (fonts.map { [$0.high, $0.low] }).hashState(into: &hasher)
    }
}

extension ImageLayer: StateHashable {
    /// The file by its digest: a file moved or renamed with the same bytes keeps its renders.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.image)
        hasher.write(file.digest.high)
        hasher.write(file.digest.low)
        common.hashState(into: &hasher)
        contentMode.rawValue.hashState(into: &hasher)
        interpolation.hashState(into: &hasher)
    }
}

extension SVGLayer: StateHashable {
    /// The document as `SVGImage` writes it: by digest, with librsvg's version.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.svg)
        hasher.write(document.digest.high)
        hasher.write(document.digest.low)
        hasher.combine(document.externalReferences.baseDirectory?.path)
        hasher.combine(LibrsvgHandle.version)
        common.hashState(into: &hasher)
        contentMode.rawValue.hashState(into: &hasher)
        tint.hashState(into: &hasher)
        (fonts.map { [$0.high, $0.low] }).hashState(into: &hasher)
    }
}

extension GroupLayer: StateHashable {
    /// Writes the group's layers, its placement, opacity and blend mode, transform, mask and shadow.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.group)
        layers.hashState(into: &hasher)
        common.hashState(into: &hasher)
        if let transform {
            hasher.sip.write(LayerTag.transform)
            transform.translation.hashState(into: &hasher)
            hasher.write(transform.rotation)
            transform.scale.hashState(into: &hasher)
            transform.origin.hashState(into: &hasher)
        } else {
            hasher.sip.write(LayerTag.none)
        }
        switch mask {
        case .none: hasher.sip.write(LayerTag.none)
        case .paint(let paint):
            hasher.sip.write(LayerTag.maskPaint)
            paint.hashState(into: &hasher)
        case .layers(let layers):
            hasher.sip.write(LayerTag.maskLayers)
            layers.hashState(into: &hasher)
        }
        shadow.hashState(into: &hasher)
    }
}

extension ComponentLayer: StateHashable {
    /// The child's whole state and caps, through their digest: the parent's pixels depend on
    /// them; and its natural size when it has one (behind a tag of its own, so the keys of
    /// children without one are what they were).
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.component)
        hasher.write(componentDigest.high)
        hasher.write(componentDigest.low)
        common.hashState(into: &hasher)
        if let naturalSize {
            hasher.sip.write(LayerTag.naturalSize)
            hasher.write(naturalSize.width)
            hasher.write(naturalSize.height)
        }
    }
}

extension StackLayer: StateHashable {
    /// Writes the axis, spacing, padding, alignment, direction, children and common properties.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.stack)
        arrangement.axis.hashState(into: &hasher)
        hasher.write(arrangement.spacing)
        arrangement.padding.hashState(into: &hasher)
        arrangement.alignment.hashState(into: &hasher)
        arrangement.direction.hashState(into: &hasher)
        children.hashState(into: &hasher)
        common.hashState(into: &hasher)
    }
}

extension SpacerLayer: StateHashable {
    /// Writes the minimum length and the sizing.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(LayerTag.spacer)
        hasher.write(minimumLength)
        common.hashState(into: &hasher)
    }
}
