import RasterKit

/// A horizontal progress bar; `value` is clamped to 0...1.
public struct ProgressBar: Rasterizable {
    public var value: Double
    public var tint: Color

    public init(value: Double, tint: Color = Palette.blue) {
        self.value = value
        self.tint = tint
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let track = Rect(size: size)
        let radius = size.height / 2
        let trackPath = Path(roundedRect: track, cornerRadius: radius)
        canvas.fill(trackPath, with: .color(Palette.line))
        canvas.drawInnerShadow(Shadow(color: Color(white: 0, alpha: 0.1), offset: Point(x: 0, y: 1), blur: 2), in: trackPath)
        let fraction = value.isFinite ? min(max(value, 0), 1) : 0
        guard fraction > 0 else { return }
        let filled = Rect(x: 0, y: 0, width: max(size.height, size.width * fraction), height: size.height)
        canvas.withState {
            canvas.clip(to: trackPath)
            canvas.fill(Path(roundedRect: filled, cornerRadius: radius),
                        with: Palette.vertical(Palette.lighter(tint, 0.15), tint, in: filled))
        }
    }
}
