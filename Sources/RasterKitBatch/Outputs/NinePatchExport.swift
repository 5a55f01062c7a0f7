import RasterKit
import Foundation

/// Android nine-patch drawables: the image inside a one-pixel transparent border whose black
/// pixels mark, on the top and left, the rows and columns that stretch (the centre between the
/// caps) and, on the bottom and right, the content area (inside the caps unless given) and, in
/// red at their ends, the optical (layout) bounds when given.
enum NinePatchExport {
    /// Android's density folder suffix for a scale: `mdpi` for 1x, `xhdpi` for 2x, …
    static func density(for scale: Double) -> String? {
        switch scale {
        case 0.75: "ldpi"
        case 1: "mdpi"
        case 1.5: "hdpi"
        case 2: "xhdpi"
        case 3: "xxhdpi"
        case 4: "xxxhdpi"
        default: nil
        }
    }

    /// A file-based resource name: lowercase `a-z`, `0-9` and `_`, starting with a letter.
    static func resourceName(_ name: String) -> String {
        var result = String(name.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        })
        if let first = result.unicodeScalars.first, !("a"..."z").contains(first) { result = "img_" + result }
        return result
    }

    /// The markers of a `width` × `height` pixel image: stretch ranges from `caps`, content
    /// ranges from `content` (points, at `scale`).
    static func markers(caps: EdgeInsets, content: EdgeInsets, scale: Double, width: Int, height: Int)
        -> (stretchX: Range<Int>, stretchY: Range<Int>, contentX: Range<Int>, contentY: Range<Int>) {
        let stretch = NineSlice.pixelCaps(caps, scale: scale, width: width, height: height)
        let inner = NineSlice.pixelCaps(content, scale: scale, width: width, height: height)
        return (stretch.left..<(width - stretch.right), stretch.top..<(height - stretch.bottom),
                inner.left..<(width - inner.right), inner.top..<(height - inner.bottom))
    }
}

extension RasterImage {
    /// The image as an Android `.9.png`: one pixel larger on every side, with opaque black
    /// markers for the stretchable centre (top and left, from the cap insets) and the content
    /// area (bottom and right, from `contentInsets`, or inside the caps), and opaque red ticks at
    /// the ends of the bottom and right lines for `opticalInsets`, the layout bounds Android reads
    /// (aapt stores them as the `npLb` chunk). Throws when the image has no cap insets, or when the
    /// optical insets reach into the content area's markers (both share those lines).
    ///
    /// ```swift
    /// let panel = try rasterizer.image(for: Panel(), size: Size(width: 300, height: 200), scale: 2)
    /// try panel.ninePatchPNGData().write(to: URL(fileURLWithPath: "res/drawable-xhdpi/panel.9.png"))
    /// ```
    public func ninePatchPNGData(contentInsets: EdgeInsets? = nil, opticalInsets: EdgeInsets? = nil) throws -> Data {
        guard let caps = capInsets else {
            throw RenderError.invalidCapInsets(.zero, reason: "a nine-patch needs an image with cap insets")
        }
        let width = pixelWidth, height = pixelHeight
        let marks = NinePatchExport.markers(caps: caps, content: contentInsets ?? caps, scale: scale,
                                            width: width, height: height)
        let optical = opticalInsets.map { NineSlice.pixelCaps($0, scale: scale, width: width, height: height) }
        if let optical, optical.left > marks.contentX.lowerBound || width - optical.right < marks.contentX.upperBound
            || optical.top > marks.contentY.lowerBound || height - optical.bottom < marks.contentY.upperBound {
            throw RenderError.invalidCapInsets(opticalInsets ?? .zero, reason: "optical insets reach into the content "
                                               + "area's markers, which share the bottom and right border lines")
        }
        let source = RGBABitmap(self)
        let outerWidth = width + 2
        let bitmap = RGBABitmap.make(width: outerWidth, height: height + 2) { output in
            source.withUnsafeBytes { pixels in
                for y in 0..<height {
                    let from = pixels.baseAddress! + y * width * 4
                    let to = output.baseAddress! + ((y + 1) * outerWidth + 1) * 4
                    to.update(from: from, count: width * 4)
                }
            }
            func mark(_ x: Int, _ y: Int, red: UInt8 = 0) {
                let offset = (y * outerWidth + x) * 4
                output[offset] = red
                output[offset + 1] = 0
                output[offset + 2] = 0
                output[offset + 3] = 255
            }
            for x in marks.stretchX { mark(x + 1, 0) }
            for y in marks.stretchY { mark(0, y + 1) }
            for x in marks.contentX { mark(x + 1, height + 1) }
            for y in marks.contentY { mark(outerWidth - 1, y + 1) }
            if let optical {
                for x in Array(0..<optical.left) + Array((width - optical.right)..<width) { mark(x + 1, height + 1, red: 255) }
                for y in Array(0..<optical.top) + Array((height - optical.bottom)..<height) { mark(outerWidth - 1, y + 1, red: 255) }
            }
        }
        return try bitmap.pngData()
    }
}
