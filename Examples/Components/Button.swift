import RasterKit

/// A push button in three styles and four interaction states.
public struct Button: Rasterizable {
    public enum Style: String, Sendable, CaseIterable { case primary, secondary, destructive }
    public enum State: String, Sendable, CaseIterable { case normal, hovered, pressed, disabled }

    public var title: String
    public var style: Style
    public var state: State

    public init(title: String, style: Style = .primary, state: State = .normal) {
        self.title = title
        self.style = style
        self.state = state
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let pressed = state == .pressed
        // Room for the shadow below; a pressed button sits one point lower without it.
        let body = Rect(x: 2, y: pressed ? 2 : 1, width: size.width - 4, height: size.height - 4)
        let shape = Path(roundedRect: body, cornerRadius: min(10, body.height / 2))
        let (top, bottom, text, border) = colors
        let fill = Palette.vertical(top, bottom, in: body)
        if pressed || state == .disabled {
            canvas.fill(shape, with: fill)
        } else {
            let shadow = Shadow(color: Color(white: 0, alpha: state == .hovered ? 0.28 : 0.2),
                                offset: Point(x: 0, y: state == .hovered ? 2 : 1), blur: state == .hovered ? 5 : 3)
            canvas.withShadow(shadow) { canvas.fill(shape, with: fill) }
        }
        if let border { canvas.stroke(shape, with: .color(border), style: StrokeStyle(width: 1)) }
        if pressed {
            canvas.drawInnerShadow(Shadow(color: Color(white: 0, alpha: 0.25), offset: Point(x: 0, y: 1.5), blur: 3), in: shape)
        } else if style != .secondary, state != .disabled {
            // A soft highlight along the top edge.
            canvas.drawInnerShadow(Shadow(color: Color(white: 1, alpha: 0.35), offset: Point(x: 0, y: 1), blur: 0), in: shape)
        }
        canvas.draw(text: title, in: body,
                    style: TextStyle(font: "DejaVu Sans Bold 14", color: text, alignment: .center,
                                     verticalAlignment: .center, wrapping: .none, maxLines: 1))
    }

    private var colors: (top: Color, bottom: Color, text: Color, border: Color?) {
        if state == .disabled {
            return (Palette.line, Palette.line, Palette.mist, nil)
        }
        let base: Color
        switch style {
        case .primary: base = Palette.blue
        case .destructive: base = Palette.red
        case .secondary:
            let top = state == .pressed ? Palette.line : (state == .hovered ? Palette.paper : .white)
            return (top, Palette.darker(top, 0.04), Palette.ink, Palette.darker(Palette.line, 0.08))
        }
        switch state {
        case .hovered: return (Palette.lighter(base, 0.18), Palette.lighter(base, 0.04), .white, nil)
        case .pressed: return (Palette.darker(base, 0.18), Palette.darker(base, 0.08), Color(white: 1, alpha: 0.92), nil)
        default: return (Palette.lighter(base, 0.1), Palette.darker(base, 0.06), .white, nil)
        }
    }
}
