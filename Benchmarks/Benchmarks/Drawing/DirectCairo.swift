import CBaselines
import Foundation
import RasterKit

/// The baselines: the composite drawn with cairo and Pango called directly (the same
/// operations Canvas performs, including its shadow algorithm), and cairo's PNG writer.
final class DirectCairo {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer

    init() {
        // The same isolated fontconfig setup as RasterKit's: no hinting, grey antialiasing.
        let config = FcConfigCreate()
        _ = DirectCairo.fontRules.withCString {
            FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1)
        }
        for file in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"] {
            _ = "/usr/share/fonts/truetype/dejavu/\(file)".withCString {
                FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
            }
        }
        fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        pango_fc_font_map_set_config(baseline_fc_font_map(fontMap), config)
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_cairo_context_set_resolution(context, 72)
    }

    static let fontRules = """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <match target="font">
            <edit name="antialias" mode="assign"><bool>true</bool></edit>
            <edit name="hinting" mode="assign"><bool>false</bool></edit>
            <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
            <edit name="autohint" mode="assign"><bool>false</bool></edit>
            <edit name="rgba" mode="assign"><const>none</const></edit>
          </match>
        </fontconfig>
        """

    deinit {
        baseline_unref(UnsafeMutableRawPointer(context))
        baseline_unref(UnsafeMutableRawPointer(fontMap))
    }

    private func roundedRect(_ cr: OpaquePointer, _ r: Rect, _ radius: Double) {
        cairo_new_path(cr)
        cairo_move_to(cr, r.minX + radius, r.minY)
        cairo_arc(cr, r.maxX - radius, r.minY + radius, radius, -.pi / 2, 0)
        cairo_arc(cr, r.maxX - radius, r.maxY - radius, radius, 0, .pi / 2)
        cairo_arc(cr, r.minX + radius, r.maxY - radius, radius, .pi / 2, .pi)
        cairo_arc(cr, r.minX + radius, r.minY + radius, radius, .pi, 1.5 * .pi)
        cairo_close_path(cr)
    }

    private func fillCard(_ cr: OpaquePointer) {
        let card = Composite.card
        roundedRect(cr, card, Composite.radius)
        let pattern = cairo_pattern_create_linear(0, card.minY, 0, card.maxY)
        cairo_pattern_add_color_stop_rgba(pattern, 0, Composite.top.red, Composite.top.green, Composite.top.blue, 1)
        cairo_pattern_add_color_stop_rgba(pattern, 1, Composite.bottom.red, Composite.bottom.green, Composite.bottom.blue, 1)
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
        cairo_fill(cr)
    }

    /// Draws the composite and returns the surface's first pixel, so nothing is optimised away.
    func drawComposite() -> UInt32 {
        let scale = Composite.scale
        let width = Int32(Composite.size.width * scale), height = Int32(Composite.size.height * scale)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
        let cr = cairo_create(surface)!
        cairo_scale(cr, scale, scale)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_paint(cr)

        // Shadow: draw the card into a layer covering the card plus the blur margin, blur its
        // alpha with three box passes, mask the shadow colour, then paint the layer.
        let sigma = Composite.shadow.blur / 2 * scale
        let pad = Int((3 * sigma).rounded(.up)) + 1
        let offsetY = Composite.shadow.offset.y * scale
        let originX = Int(Composite.card.minX * scale) - pad, originY = Int(Composite.card.minY * scale) - pad
        let layerWidth = Int(Composite.card.width * scale) + 2 * pad, layerHeight = Int(Composite.card.height * scale) + 2 * pad
        let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(layerWidth), Int32(layerHeight))
        let layerContext = cairo_create(layer)!
        cairo_translate(layerContext, Double(-originX), Double(-originY))
        cairo_scale(layerContext, scale, scale)
        fillCard(layerContext)
        cairo_destroy(layerContext)
        cairo_surface_flush(layer)
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(layerWidth), Int32(layerHeight))
        cairo_surface_flush(mask)
        let maskStride = Int(cairo_image_surface_get_stride(mask))
        let maskData = cairo_image_surface_get_data(mask)!
        let layerPixels = UnsafeRawPointer(cairo_image_surface_get_data(layer)!).assumingMemoryBound(to: UInt32.self)
        for y in 0..<layerHeight {
            for x in 0..<layerWidth { maskData[y * maskStride + x] = UInt8(truncatingIfNeeded: layerPixels[y * layerWidth + x] >> 24) }
        }
        BoxBlur.blur(maskData, width: layerWidth, height: layerHeight, stride: maskStride, sigma: sigma)
        cairo_surface_mark_dirty(mask)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        let color = Composite.shadow.color
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(cr, mask, Double(originX), Double(originY) + offsetY)
        cairo_set_source_surface(cr, layer, Double(originX), Double(originY))
        cairo_paint(cr)
        cairo_restore(cr)
        cairo_surface_destroy(mask)
        cairo_surface_destroy(layer)

        // Text, centred in the card.
        pango_cairo_update_context(cr, context)
        let layout = pango_layout_new(context)!
        pango_layout_set_text(layout, Composite.text, -1)
        let description = pango_font_description_from_string(Composite.font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let unit = Double(PANGO_SCALE)
        let card = Composite.card
        cairo_move_to(cr, card.minX + (card.width - Double(logical.width) / unit) / 2 - Double(logical.x) / unit,
                      card.minY + (card.height - Double(logical.height) / unit) / 2 - Double(logical.y) / unit)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        pango_cairo_show_layout(cr, layout)
        baseline_unref(UnsafeMutableRawPointer(layout))

        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let first = UnsafeRawPointer(cairo_image_surface_get_data(surface)!).load(as: UInt32.self)
        cairo_surface_destroy(surface)
        return first
    }

    /// Encodes `image` with `cairo_surface_write_to_png_stream` into memory; returns the size.
    static func writePNG(_ image: RasterImage) -> Int {
        image.withUnsafePremultipliedPixels { pixels in
            let surface = cairo_image_surface_create_for_data(
                UnsafeMutableRawPointer(mutating: pixels.baseAddress!).assumingMemoryBound(to: UInt8.self),
                CAIRO_FORMAT_ARGB32, Int32(image.pixelWidth), Int32(image.pixelHeight), Int32(image.pixelWidth * 4))
            final class Sink { var bytes: [UInt8] = [] }
            let sink = Sink()
            sink.bytes.reserveCapacity(image.pixelWidth * image.pixelHeight)
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
            cairo_surface_destroy(surface)
            return sink.bytes.count
        }
    }
}

/// The same three-box-pass Gaussian approximation RasterKit's shadows use (SVG 1.1 §15.17),
/// written as tightly as RasterKit's: unsafe pointers, no per-pass allocation.
enum BoxBlur {
    static func blur(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        guard d > 1 else { return }
        let passes: [(Int, Int)] = d % 2 == 1 ? Array(repeating: ((d - 1) / 2, (d - 1) / 2), count: 3)
            : [(d / 2, d / 2 - 1), (d / 2 - 1, d / 2), (d / 2, d / 2)]
        let longest = max(width, height)
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: longest)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: longest)
        defer { line.deallocate(); scratch.deallocate() }
        func run(_ count: Int) {
            for (left, right) in passes {
                let size = left + right + 1
                var sum = 0
                for index in 0..<min(right, count) { sum += Int(line[index]) }
                for index in 0..<count {
                    if index + right < count { sum += Int(line[index + right]) }
                    if index - left - 1 >= 0 { sum -= Int(line[index - left - 1]) }
                    scratch[index] = UInt8((sum + size / 2) / size)
                }
                line.update(from: scratch, count: count)
            }
        }
        for y in 0..<height {
            line.update(from: plane + y * stride, count: width)
            run(width)
            (plane + y * stride).update(from: line, count: width)
        }
        for x in 0..<width {
            for y in 0..<height { line[y] = plane[y * stride + x] }
            run(height)
            for y in 0..<height { plane[y * stride + x] = line[y] }
        }
    }
}
