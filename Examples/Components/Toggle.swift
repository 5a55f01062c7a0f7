import RasterKit

/// An on/off switch.
public struct Toggle: Rasterizable {
    public var isOn: Bool
    public var isEnabled: Bool

    public init(isOn: Bool, isEnabled: Bool = true) {
        self.isOn = isOn
        self.isEnabled = isEnabled
    }

    public func draw(in canvas: Canvas, size: Size) throws {
        let track = Rect(size: size).insetBy(dx: 1, dy: 1)
        let trackPath = Path(roundedRect: track, cornerRadius: track.height / 2)
        canvas.withLayer(opacity: isEnabled ? 1 : 0.45) {
            canvas.fill(trackPath, with: .color(isOn ? Palette.green : Palette.line))
            canvas.drawInnerShadow(Shadow(color: Color(white: 0, alpha: 0.12), offset: Point(x: 0, y: 1), blur: 2), in: trackPath)
            let side = track.height - 4
            let knob = Rect(x: isOn ? track.maxX - side - 2 : track.minX + 2, y: track.minY + 2, width: side, height: side)
            canvas.withShadow(Shadow(color: Color(white: 0, alpha: 0.25), offset: Point(x: 0, y: 1), blur: 3)) {
                canvas.fill(Path(ellipseIn: knob), with: Palette.vertical(.white, Palette.paper, in: knob))
            }
        }
    }
}
