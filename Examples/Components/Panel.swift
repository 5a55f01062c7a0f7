import RasterKit

/// A resizable card background: drawn once at its minimum frame and stretched (nine-slice).
public struct Panel: Rasterizable {
    public var fill: Color
    public var border: Color
    public var cornerRadius: Double

    public init(fill: Color = .white, border: Color = Palette.line, cornerRadius: Double = 12) {
        self.fill = fill
        self.border = border
        self.cornerRadius = cornerRadius
    }

    public var capInsets: EdgeInsets? { EdgeInsets(all: cornerRadius + 4) }

    public func draw(in canvas: Canvas, size: Size) throws {
        let body = Rect(size: size).insetBy(dx: 0.5, dy: 0.5)
        let shape = Path(roundedRect: body, cornerRadius: cornerRadius)
        canvas.fill(shape, with: .color(fill))
        canvas.drawInnerShadow(Shadow(color: Color(white: 1, alpha: 0.9), offset: Point(x: 0, y: 1), blur: 0), in: shape)
        canvas.stroke(shape, with: .color(border), style: StrokeStyle(width: 1))
    }
}
