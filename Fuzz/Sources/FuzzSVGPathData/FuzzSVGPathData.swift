import RasterKit

/// SVG path data (`d` attributes in SVGs and manifests): parsing must end in a path or a typed
/// error, and any parsed path must draw.
func fuzzSVGPathData(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let path = try? Path(svgPathData: text) else { return 0 }
    _ = try? RasterImage(size: Size(32), limits: .untrusted) { canvas in
        canvas.fill(path, with: .color(.black))
        canvas.stroke(path, with: .color(.black), style: StrokeStyle(width: 1))
    }
    return 0
}
