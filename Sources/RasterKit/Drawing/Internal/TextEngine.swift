internal import CPangoLoader

/// Lays out text with Pango for one canvas.
struct TextEngine {
    /// One laid-out piece of text; the layout is freed with it.
    final class Layout {
        let layout: OpaquePointer
        init(_ layout: OpaquePointer) { self.layout = layout }
        deinit { rk_g_object_unref(UnsafeMutableRawPointer(layout)) }

        /// The logical extents in points: x, y, width, height.
        var logicalExtents: (x: Double, y: Double, width: Double, height: Double) {
            var ink = rk_pango_rectangle(), logical = rk_pango_rectangle()
            rk_pango_layout_get_extents(layout, &ink, &logical)
            let unit = Double(RK_PANGO_SCALE)
            return (Double(logical.x) / unit, Double(logical.y) / unit, Double(logical.width) / unit,
                    Double(logical.height) / unit)
        }

        var metrics: TextMetrics {
            let extents = logicalExtents
            return TextMetrics(size: Size(width: extents.width, height: extents.height),
                               lineCount: Int(rk_pango_layout_get_line_count(layout)),
                               isTruncated: rk_pango_layout_is_ellipsized(layout) != 0,
                               firstBaseline: Double(rk_pango_layout_get_baseline(layout)) / Double(RK_PANGO_SCALE))
        }
    }

    /// Lays out `text` for drawing on `cairoContext` (whose transform is taken into account).
    /// `width` nil lays out without a width: no wrapping and no alignment box.
    func layout(_ text: String, style: TextStyle, width: Double?, for cairoContext: OpaquePointer) throws -> Layout {
        let fonts = try ThreadFontMap.current()
        rk_pango_cairo_update_context(cairoContext, fonts.context)
        let layout = Layout(rk_pango_layout_new(fonts.context))
        let pango = layout.layout
        text.withCString { rk_pango_layout_set_text(pango, $0, -1) }
        let description = rk_pango_font_description_from_string(style.font)
        rk_pango_layout_set_font_description(pango, description)
        rk_pango_font_description_free(description)

        let scale = Double(RK_PANGO_SCALE)
        if let width, width.isFinite, width > 0 {
            rk_pango_layout_set_width(pango, Int32(min(width * scale, Double(Int32.max))))
            switch style.wrapping {
            case .word: rk_pango_layout_set_wrap(pango, RK_PANGO_WRAP_WORD)
            case .character:
                rk_pango_layout_set_wrap(pango, RK_PANGO_WRAP_CHAR)
                // Pango hyphenates words it breaks; breaking "anywhere" means no hyphens.
                let attributes = rk_pango_attr_list_new()
                rk_pango_attr_list_insert(attributes, rk_pango_attr_insert_hyphens_new(0))
                rk_pango_layout_set_attributes(pango, attributes)
                rk_pango_attr_list_unref(attributes)
            case .wordOrCharacter, .none: rk_pango_layout_set_wrap(pango, RK_PANGO_WRAP_WORD_CHAR)
            }
            if let maxLines = style.maxLines, maxLines > 0 {
                rk_pango_layout_set_ellipsize(pango, RK_PANGO_ELLIPSIZE_END)
                rk_pango_layout_set_height(pango, -Int32(min(maxLines, 10_000)))
            } else if style.wrapping == .none {
                // Ellipsizing without a height keeps each paragraph to one line.
                rk_pango_layout_set_ellipsize(pango, RK_PANGO_ELLIPSIZE_END)
            }
        }
        switch style.alignment {
        case .left: rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_LEFT)
        case .center: rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_CENTER)
        case .right: rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_RIGHT)
        case .justified:
            rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_LEFT)
            rk_pango_layout_set_justify(pango, 1)
        }
        if style.lineSpacing.isFinite, style.lineSpacing != 0 {
            // Canvases check the spacing against `TextLimits` first; clamped here all the same.
            rk_pango_layout_set_spacing(pango, Int32(min(max(style.lineSpacing * scale, -1e9), 1e9)))
        }
        if style.lineHeightMultiple.isFinite, style.lineHeightMultiple > 0, style.lineHeightMultiple != 1 {
            rk_pango_layout_set_line_spacing(pango, Float(style.lineHeightMultiple))
        }
        return layout
    }
}
