// RasterKit's own value types write their state directly: they appear in almost every
// component's state, so they should never cost a Mirror walk.

extension StateHasher {
    @inline(__always)
    mutating func writeValues(_ tag: UInt8, _ values: Double...) {
        sip.write(tag)
        for value in values { write(value) }
    }
}

/// Tags for RasterKit's own types: ``StateTags/OwnType``.
private typealias OwnTag = StateTags.OwnType

extension Point: StateHashable {
    /// Writes a tag for points, then `x` and `y` (with `-0.0` as `0.0`).
    public func hashState(into hasher: inout StateHasher) { hasher.writeValues(OwnTag.point, x, y) }
}

extension Size: StateHashable {
    /// Writes a tag for sizes, then `width` and `height`.
    public func hashState(into hasher: inout StateHasher) { hasher.writeValues(OwnTag.size, width, height) }
}

extension Rect: StateHashable {
    /// Writes a tag for rectangles, then the origin and the size.
    public func hashState(into hasher: inout StateHasher) {
        hasher.writeValues(OwnTag.rect, origin.x, origin.y, size.width, size.height)
    }
}

extension EdgeInsets: StateHashable {
    /// Writes a tag for insets, then the top, left, bottom and right distances.
    public func hashState(into hasher: inout StateHasher) { hasher.writeValues(OwnTag.insets, top, left, bottom, right) }
}

extension Color: StateHashable {
    /// Writes a tag for colours, then the red, green, blue and alpha components.
    public func hashState(into hasher: inout StateHasher) { hasher.writeValues(OwnTag.color, red, green, blue, alpha) }
}

extension CornerRadii: StateHashable {
    /// Writes a tag for corner radii, then the four radii clockwise from the top left.
    public func hashState(into hasher: inout StateHasher) {
        hasher.writeValues(OwnTag.radii, topLeft, topRight, bottomRight, bottomLeft)
    }
}

extension Transform: StateHashable {
    /// Writes a tag for transforms, then its six coefficients.
    public func hashState(into hasher: inout StateHasher) { hasher.writeValues(OwnTag.transform, a, b, c, d, tx, ty) }
}

extension Path: StateHashable {
    /// Writes a tag for paths and the element count, then each element's kind and points.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.path)
        hasher.write(elements.count)
        for element in elements {
            switch element {
            case .move(let point): hasher.writeValues(1, point.x, point.y)
            case .line(let point): hasher.writeValues(2, point.x, point.y)
            case let .quadCurve(point, control): hasher.writeValues(3, point.x, point.y, control.x, control.y)
            case let .curve(point, c1, c2): hasher.writeValues(4, point.x, point.y, c1.x, c1.y, c2.x, c2.y)
            case let .arc(center, radius, start, end, clockwise):
                hasher.writeValues(clockwise ? 5 : 6, center.x, center.y, radius, start, end)
            case .closeSubpath: hasher.sip.write(7 as UInt8)
            }
        }
    }
}

extension Gradient: StateHashable {
    /// Writes the extend mode by name, then each stop's colour and location.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.gradient)
        extend.rawValue.hashState(into: &hasher)
        hasher.write(stops.count)
        for stop in stops {
            stop.color.hashState(into: &hasher)
            hasher.write(stop.location)
        }
    }
}

extension LinearGradient: StateHashable {
    /// Writes the gradient, then the start and end points.
    public func hashState(into hasher: inout StateHasher) {
        gradient.hashState(into: &hasher)
        hasher.writeValues(OwnTag.linear, start.x, start.y, end.x, end.y)
    }
}

extension RadialGradient: StateHashable {
    /// Writes the gradient, then both circles' centres and radii.
    public func hashState(into hasher: inout StateHasher) {
        gradient.hashState(into: &hasher)
        hasher.writeValues(OwnTag.radial, startCenter.x, startCenter.y, startRadius, endCenter.x, endCenter.y, endRadius)
    }
}

extension RasterImage: StateHashable {
    /// Images are part of a state by their pixels, scale and insets.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.image)
        hasher.write(pixelWidth)
        hasher.write(pixelHeight)
        hasher.write(scale)
        capInsets.hashState(into: &hasher)
        hasher.sip.write(storage.buffer)
    }
}

extension ImagePattern: StateHashable {
    /// Writes the image (by its pixels), the rectangle, whether it tiles and the interpolation.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.imagePattern)
        image.hashState(into: &hasher)
        rect.hashState(into: &hasher)
        tiles.hashState(into: &hasher)
        interpolation.hashState(into: &hasher)
    }
}

extension Paint: StateHashable {
    /// Writes a tag for paints, then the colour, gradient or image pattern it holds.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.paint)
        switch self {
        case .color(let color): color.hashState(into: &hasher)
        case .linearGradient(let gradient): gradient.hashState(into: &hasher)
        case .radialGradient(let gradient): gradient.hashState(into: &hasher)
        case .image(let pattern): pattern.hashState(into: &hasher)
        }
    }
}

extension Mask: StateHashable {
    /// Writes a tag for masks, then the image and its rectangle, or the gradient.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.mask)
        switch self {
        case let .image(image, rect):
            image.hashState(into: &hasher)
            rect.hashState(into: &hasher)
        case .linearGradient(let gradient): gradient.hashState(into: &hasher)
        case .radialGradient(let gradient): gradient.hashState(into: &hasher)
        }
    }
}

extension StrokeStyle: StateHashable {
    /// Writes the width, miter limit, dash phase, cap, join and dash lengths.
    public func hashState(into hasher: inout StateHasher) {
        hasher.writeValues(OwnTag.stroke, width, miterLimit, dashPhase)
        cap.hashState(into: &hasher)
        join.hashState(into: &hasher)
        dash.hashState(into: &hasher)
    }
}

extension Shadow: StateHashable {
    /// Writes the offset, the blur radius and the colour.
    public func hashState(into hasher: inout StateHasher) {
        hasher.writeValues(OwnTag.shadow, offset.x, offset.y, blur)
        color.hashState(into: &hasher)
    }
}

extension TextStyle: StateHashable {
    /// Writes every property that changes how text is set: font, colour, alignments, wrapping,
    /// line spacing, line height and line limit.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.text)
        font.hashState(into: &hasher)
        color.hashState(into: &hasher)
        alignment.hashState(into: &hasher)
        verticalAlignment.hashState(into: &hasher)
        wrapping.hashState(into: &hasher)
        hasher.write(lineSpacing)
        hasher.write(lineHeightMultiple)
        maxLines.hashState(into: &hasher)
        direction.hashState(into: &hasher)
        switch fit {
        case .none: hasher.write(0)
        case .shrink(let minimumScale):
            hasher.write(1)
            hasher.write(minimumScale)
        }
    }
}

extension TextSpan: StateHashable {
    /// Writes the characters and every override, set or not.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.span)
        text.hashState(into: &hasher)
        font.hashState(into: &hasher)
        (weight?.rawValue).hashState(into: &hasher)
        color.hashState(into: &hasher)
        underline.hashState(into: &hasher)
        strikethrough.hashState(into: &hasher)
    }
}

extension LayoutSizing: StateHashable {
    /// Writes every length, bound, share and alignment, set or not.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.sizing)
        for length in [width, height, minWidth, maxWidth, minHeight, maxHeight] { length.hashState(into: &hasher) }
        hasher.write(grow)
        alignment.hashState(into: &hasher)
    }
}

extension StateHashable where Self: RawRepresentable, RawValue == String {
    /// Named options hash by name, so reordering cases never changes a key.
    public func hashState(into hasher: inout StateHasher) {
        hasher.sip.write(OwnTag.rawValue)
        hasher.write(rawValue)
    }
}

extension BlendMode: StateHashable {}
extension Interpolation: StateHashable {}
extension FillRule: StateHashable {}
extension Gradient.Extend: StateHashable {}
extension StrokeStyle.LineCap: StateHashable {}
extension StrokeStyle.LineJoin: StateHashable {}
extension TextStyle.Alignment: StateHashable {}
extension TextStyle.VerticalAlignment: StateHashable {}
extension TextStyle.Wrapping: StateHashable {}
extension TextStyle.Direction: StateHashable {}
extension Stack.Axis: StateHashable {}
extension Stack.Alignment: StateHashable {}
extension LayoutDirection: StateHashable {}
