import Foundation
@testable import RasterKit

/// Small SVG documents the SVG tests draw, written inline so each test shows what it draws.
enum SVGSamples {
    /// An SVG with the given root attributes and body.
    static func svg(_ attributes: String, _ body: String = "") -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \(attributes)>\(body)</svg>".utf8)
    }

    /// 20×10: the left half red, the right half blue.
    static let redBlue = svg(#"width="20" height="10" viewBox="0 0 20 10""#,
                             #"<rect width="10" height="10" fill="red"/><rect x="10" width="10" height="10" fill="blue"/>"#)

    /// 10×10, filled red.
    static let redSquare = svg(#"width="10" height="10""#, #"<rect width="10" height="10" fill="red"/>"#)

    static let red = RGBA8(red: 255, green: 0, blue: 0, alpha: 255)
    static let blue = RGBA8(red: 0, green: 0, blue: 255, alpha: 255)
    static let transparent = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

    static func document(_ data: Data, source: String? = nil) throws -> SVGDocument {
        try SVGDocument(data: data, source: source)
    }

    /// Draws `document` alone on a transparent canvas.
    static func render(_ document: SVGDocument, size: Size, scale: Double = 1, contentMode: ContentMode = .stretch,
                       tint: Color? = nil) throws -> RasterImage {
        try RasterImage(size: size, scale: scale) { canvas in
            canvas.draw(svg: document, in: Rect(size: size), contentMode: contentMode, tint: tint)
        }
    }
}
