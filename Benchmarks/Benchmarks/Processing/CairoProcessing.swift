import CBaselines
import Foundation
import RasterKit

/// The baselines: each built-in processor's operation written directly on cairo, from a cairo
/// image surface holding the same pixels to a new surface, as a program without RasterKit would.
final class CairoProcessing: @unchecked Sendable {
    private let pixels: UnsafeMutablePointer<UInt32>
    private let source: OpaquePointer
    let width: Int32, height: Int32

    init(_ image: RasterImage) {
        let width = Int32(image.pixelWidth), height = Int32(image.pixelHeight)
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: image.pixelWidth * image.pixelHeight)
        image.withUnsafePremultipliedPixels { pixels.update(from: $0.baseAddress!, count: $0.count) }
        source = pixels.withMemoryRebound(to: UInt8.self, capacity: image.pixelWidth * image.pixelHeight * 4) {
            cairo_image_surface_create_for_data($0, CAIRO_FORMAT_ARGB32, width, height, width * 4)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    deinit {
        cairo_surface_destroy(source)
        pixels.deallocate()
    }

    /// Draws into a new `width` × `height` surface and returns its first pixel, so nothing is
    /// optimised away.
    private func output(width: Int32, height: Int32, _ body: (OpaquePointer) -> Void) -> UInt32 {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)!
        let cr = cairo_create(surface)!
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let first = cairo_image_surface_get_data(surface)!.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        cairo_surface_destroy(surface)
        return first
    }

    func roundedCorners(radius r: Double) -> UInt32 {
        output(width: width, height: height) { cr in
            let w = Double(width), h = Double(height)
            cairo_new_path(cr)
            cairo_arc(cr, w - r, r, r, -.pi / 2, 0)
            cairo_arc(cr, w - r, h - r, r, 0, .pi / 2)
            cairo_arc(cr, r, h - r, r, .pi / 2, .pi)
            cairo_arc(cr, r, r, r, .pi, 1.5 * .pi)
            cairo_close_path(cr)
            cairo_clip(cr)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_paint(cr)
        }
    }

    func circle() -> UInt32 {
        output(width: width, height: height) { cr in
            let radius = Double(min(width, height)) / 2
            cairo_arc(cr, Double(width) / 2, Double(height) / 2, radius, 0, 2 * .pi)
            cairo_clip(cr)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_paint(cr)
        }
    }

    func tint(red: Double, green: Double, blue: Double) -> UInt32 {
        output(width: width, height: height) { cr in
            cairo_set_source_rgba(cr, red, green, blue, 1)
            cairo_mask_surface(cr, source, 0, 0)
        }
    }

    func opacity(_ alpha: Double) -> UInt32 {
        output(width: width, height: height) { cr in
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_paint_with_alpha(cr, alpha)
        }
    }

    func resize(toPixelWidth newWidth: Int32, height newHeight: Int32) -> UInt32 {
        output(width: newWidth, height: newHeight) { cr in
            cairo_scale(cr, Double(newWidth) / Double(width), Double(newHeight) / Double(height))
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        }
    }

    func crop(x: Int32, y: Int32, width cropWidth: Int32, height cropHeight: Int32) -> UInt32 {
        output(width: cropWidth, height: cropHeight) { cr in
            cairo_set_source_surface(cr, source, Double(-x), Double(-y))
            cairo_paint(cr)
        }
    }

    func padding(_ inset: Int32) -> UInt32 {
        output(width: width + 2 * inset, height: height + 2 * inset) { cr in
            cairo_set_source_surface(cr, source, Double(inset), Double(inset))
            cairo_paint(cr)
        }
    }

    /// The image's alpha into an A8 surface, blurred by three box passes each way (SVG 1.1's
    /// approximation, which is what any cairo program has to write itself), painted as the
    /// shadow colour at the offset, with the image over it.
    func dropShadow(alpha: Double, offsetY: Double, sigma: Double) -> UInt32 {
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height)!
        let maskContext = cairo_create(mask)!
        cairo_set_source_surface(maskContext, source, 0, 0)
        cairo_paint(maskContext)
        cairo_destroy(maskContext)
        cairo_surface_flush(mask)
        boxBlur(cairo_image_surface_get_data(mask)!, width: Int(width), height: Int(height),
                stride: Int(cairo_image_surface_get_stride(mask)), sigma: sigma)
        cairo_surface_mark_dirty(mask)
        defer { cairo_surface_destroy(mask) }
        return output(width: width, height: height) { cr in
            cairo_set_source_rgba(cr, 0, 0, 0, alpha)
            cairo_mask_surface(cr, mask, 0, offsetY)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_paint(cr)
        }
    }

    private func boxBlur(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        let half = d / 2
        var line = [Int](repeating: 0, count: max(width, height))
        func pass(_ count: Int, _ read: (Int) -> Int, _ write: (Int, Int) -> Void) {
            for index in 0..<count { line[index] = read(index) }
            var sum = 0
            for index in -half...half where index >= 0 && index < count { sum += line[index] }
            for index in 0..<count {
                write(index, sum / d)
                if index - half >= 0 { sum -= line[index - half] }
                if index + half + 1 < count { sum += line[index + half + 1] }
            }
        }
        for _ in 0..<3 {
            for y in 0..<height { pass(width, { Int(plane[y * stride + $0]) }, { plane[y * stride + $0] = UInt8(min(255, $1)) }) }
            for x in 0..<width { pass(height, { Int(plane[$0 * stride + x]) }, { plane[$0 * stride + x] = UInt8(min(255, $1)) }) }
        }
    }
}
