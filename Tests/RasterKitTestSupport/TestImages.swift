import Foundation
public import RasterKit

/// Small synthetic bitmaps for the image-diff tests.
package enum TestImages {
    package static let black = RGBA8(red: 0, green: 0, blue: 0, alpha: 255)
    package static let white = RGBA8(red: 255, green: 255, blue: 255, alpha: 255)
    package static let red = RGBA8(red: 255, green: 0, blue: 0, alpha: 255)
    package static let green = RGBA8(red: 0, green: 255, blue: 0, alpha: 255)
    package static let yellow = RGBA8(red: 255, green: 255, blue: 0, alpha: 255)
    package static let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

    /// A bitmap whose pixel at (x, y) is `color(x, y)`.
    package static func bitmap(width: Int, height: Int, _ color: (Int, Int) -> RGBA8) -> RGBABitmap {
        RGBABitmap.make(width: width, height: height) { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = color(x, y)
                    let pos = (y * width + x) * 4
                    bytes[pos] = pixel.red
                    bytes[pos + 1] = pixel.green
                    bytes[pos + 2] = pixel.blue
                    bytes[pos + 3] = pixel.alpha
                }
            }
        }
    }

    /// A bitmap of one colour.
    package static func solid(_ color: RGBA8, width: Int = 8, height: Int = 8) -> RGBABitmap {
        bitmap(width: width, height: height) { _, _ in color }
    }

    /// A black bitmap with white pixels at `points`, each far from the others, so none looks
    /// like anti-aliasing.
    package static func black(width: Int = 10, height: Int = 10, whiteAt points: [(Int, Int)]) -> RGBABitmap {
        bitmap(width: width, height: height) { x, y in points.contains { $0 == (x, y) } ? white : black }
    }

    /// Black on the left, white on the right, and between them a column of `edge` grey: a
    /// vertical edge with one column of anti-aliasing.
    package static func antiAliasedEdge(edge: UInt8, width: Int = 10, height: Int = 10) -> RGBABitmap {
        bitmap(width: width, height: height) { x, _ in
            x < width / 2 ? black : x == width / 2 ? RGBA8(red: edge, green: edge, blue: edge, alpha: 255) : white
        }
    }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
package struct TemporaryDirectory {
    package let url: URL

    package init() throws {
        url = TestScratch.path("rasterkit-diff")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bitmap` as a PNG named `name` and returns its path.
    package func write(_ bitmap: RGBABitmap, _ name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try bitmap.pngData().write(to: file)
        return file.path
    }

    /// The path of `name` inside the directory.
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}
