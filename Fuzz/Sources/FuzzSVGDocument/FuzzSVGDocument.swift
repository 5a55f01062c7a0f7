import Foundation
import RasterKit

/// SVG documents, loaded through RasterKit's limits and drawn: a document must end in pixels
/// or a typed ``SVGError`` — hostile ones are refused before librsvg sees them.
func fuzzSVGDocument(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    guard let document = try? SVGDocument(data: data, source: "fuzz.svg", limits: .untrusted) else { return 0 }
    _ = try? RasterImage(size: Size(48), limits: .untrusted) { canvas in
        canvas.draw(svg: document, in: Rect(size: Size(48)))
    }
    return 0
}
