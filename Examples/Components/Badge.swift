import RasterKit

/// A notification badge: a dot, a count, or "99+".
public struct Badge: Rasterizable {
    public var count: Int
    public var tint: Color

    public init(count: Int, tint: Color = Palette.red) {
        self.count = count
        self.tint = tint
    }

    /// The label shown, or nil for a plain dot.
    public var label: String? {
        if count <= 0 { return nil }
        return count > 99 ? "99+" : "\(count)"
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let bounds = Rect(size: size)
        guard let label else {
            let side = min(size.width, size.height) * 0.5
            let dot = Rect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side)
            canvas.fill(Path(ellipseIn: dot.insetBy(dx: -1.5, dy: -1.5)), with: .color(.white))
            canvas.fill(Path(ellipseIn: dot), with: Palette.vertical(Palette.lighter(tint, 0.12), tint, in: dot))
            return
        }
        let pill = Path(roundedRect: bounds.insetBy(dx: 0.5, dy: 0.5), cornerRadius: size.height / 2)
        canvas.fill(pill, with: .color(.white))
        let inner = bounds.insetBy(dx: 2, dy: 2)
        canvas.fill(Path(roundedRect: inner, cornerRadius: inner.height / 2),
                    with: Palette.vertical(Palette.lighter(tint, 0.12), Palette.darker(tint, 0.05), in: inner))
        let fontSize = (size.height * 0.5).rounded()
        canvas.draw(text: label, in: inner,
                    style: TextStyle(font: "DejaVu Sans Bold \(Int(fontSize))", color: .white, alignment: .center,
                                     verticalAlignment: .center, wrapping: .none))
    }
}
