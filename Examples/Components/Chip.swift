import RasterKit

/// A rounded label with an optional coloured dot, for tags and statuses.
public struct Chip: Rasterizable {
    public var text: String
    public var tint: Color
    public var showsDot: Bool

    public init(text: String, tint: Color = Palette.blue, showsDot: Bool = true) {
        self.text = text
        self.tint = tint
        self.showsDot = showsDot
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let body = Rect(size: size).insetBy(dx: 0.5, dy: 0.5)
        let shape = Path(roundedRect: body, cornerRadius: body.height / 2)
        canvas.fill(shape, with: .color(Palette.lighter(tint, 0.88)))
        canvas.stroke(shape, with: .color(Palette.lighter(tint, 0.6)))
        var textRect = body.insetBy(dx: size.height / 2, dy: 0)
        if showsDot {
            let dot = Rect(x: textRect.minX, y: body.midY - 3, width: 6, height: 6)
            canvas.fill(Path(ellipseIn: dot), with: .color(tint))
            textRect = Rect(x: dot.maxX + 6, y: body.minY, width: textRect.maxX - dot.maxX - 6, height: body.height)
        }
        canvas.draw(text: text, in: textRect,
                    style: TextStyle(font: "DejaVu Sans Bold 12", color: Palette.darker(tint, 0.35),
                                     alignment: showsDot ? .left : .center, verticalAlignment: .center,
                                     wrapping: .none, maxLines: 1))
    }
}
