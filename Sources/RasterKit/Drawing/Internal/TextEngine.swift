internal import CPangoLoader

internal import CCairo

/// Lays out text with Pango for one canvas, keeping each layout for the rest of the draw: a
/// layout measures a text and then draws it, so measuring (by a stack, or by shrinking text to
/// fit) costs no second layout. A left-aligned text wrapped at one width also serves any
/// narrower width its lines still fit: a stack measures a paragraph at the width it offers and
/// draws it at the width the paragraph took, and Pango would break its lines in the same places.
struct TextEngine {
    /// What decides a layout: the text, its style, the width it wraps at, and the linear part of
    /// the transform it is made under (glyphs are shaped for the size they are drawn at).
    private struct Request: Hashable {
        var run: TextRun
        var width: Double?
        var xx: Double, yx: Double, xy: Double, yy: Double
    }

    /// Layouts made during this draw. A draw lays out a bounded number of texts in practice; the
    /// bound keeps one that lays out many different ones from holding them all.
    private var layouts: [Request: Layout] = [:]
    /// The left-aligned wrapped layouts among them, by their request without its width.
    private var wrapped: [Request: [Layout]] = [:]
    private static let maximumKept = 256

    /// One laid-out piece of text; the layout is freed with it.
    final class Layout {
        /// The layout's own context (see ``ThreadFontMap/makeContext()``).
        let context: OpaquePointer
        let layout: OpaquePointer
        /// Whether the text's lines run right to left, as its style's direction resolved.
        let isRightToLeft: Bool
        /// The width lines wrap at, in Pango units; nil when they do not wrap.
        var wrapWidth: Int32?

        init(context: OpaquePointer, isRightToLeft: Bool) {
            self.context = context
            self.isRightToLeft = isRightToLeft
            layout = rk_pango_layout_new(context)
        }

        deinit {
            rk_g_object_unref(UnsafeMutableRawPointer(layout))
            rk_g_object_unref(UnsafeMutableRawPointer(context))
        }

        /// The logical extents in points: x, y, width, height.
        var logicalExtents: (x: Double, y: Double, width: Double, height: Double) {
            let logical = logicalRectangle
            let unit = Double(RK_PANGO_SCALE)
            return (Double(logical.x) / unit, Double(logical.y) / unit, Double(logical.width) / unit,
                    Double(logical.height) / unit)
        }

        /// The logical extents in Pango units.
        private var logicalRectangle: rk_pango_rectangle {
            var ink = rk_pango_rectangle(), logical = rk_pango_rectangle()
            rk_pango_layout_get_extents(layout, &ink, &logical)
            return logical
        }

        /// Whether this left-aligned wrapped layout breaks its lines where a layout wrapped at
        /// `units` would: Pango fills each line greedily, so a width still holding every line,
        /// but no wider than this one, makes the same breaks. Nothing may be ellipsized, since
        /// what is cut off depends on the width.
        func breaksLikeWidth(_ units: Int32) -> Bool {
            guard let wrapWidth, units <= wrapWidth, !isEllipsized else { return false }
            let logical = logicalRectangle
            return logical.x == 0 && logical.width <= units
        }

        var isEllipsized: Bool { rk_pango_layout_is_ellipsized(layout) != 0 }

        var metrics: TextMetrics {
            let extents = logicalExtents
            return TextMetrics(size: Size(width: extents.width, height: extents.height),
                               lineCount: Int(rk_pango_layout_get_line_count(layout)),
                               isTruncated: isEllipsized,
                               firstBaseline: Double(rk_pango_layout_get_baseline(layout)) / Double(RK_PANGO_SCALE))
        }
    }

    /// `run` laid out for drawing on `cairoContext` (whose transform is taken into account),
    /// made once per draw, after `check` (which a layout kept from before has passed).
    /// `width` nil lays out without a width: no wrapping and no alignment box.
    mutating func layout(_ run: TextRun, width: Double?, for cairoContext: OpaquePointer,
                         check: () throws -> Void) throws -> Layout {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairoContext, &matrix)
        let request = Request(run: run, width: width, xx: matrix.xx, yx: matrix.yx, xy: matrix.xy, yy: matrix.yy)
        if let kept = layouts[request] { return kept }
        var anyWidth = request
        anyWidth.width = nil
        if let units = width.flatMap(Self.wrapUnits),
           let kept = wrapped[anyWidth]?.first(where: { $0.breaksLikeWidth(units) }) {
            return kept
        }
        try check()
        let made = try Self.makeLayout(run, width: width, for: cairoContext)
        if layouts.count >= Self.maximumKept {
            layouts.removeAll(keepingCapacity: true)
            wrapped.removeAll(keepingCapacity: true)
        }
        layouts[request] = made
        if made.wrapWidth != nil, run.style.alignment != .justified,
           Self.physicalAlignment(run.style.alignment, isRightToLeft: made.isRightToLeft) == .left {
            wrapped[anyWidth, default: []].append(made)
        }
        return made
    }

    /// A width to wrap at in Pango units, or nil for none. Rounded to the nearest millionth of a
    /// unit first, so a width that arithmetic left a hair under a whole unit wraps at that unit.
    private static func wrapUnits(_ width: Double) -> Int32? {
        guard width.isFinite, width > 0 else { return nil }
        return Int32(min((width * Double(RK_PANGO_SCALE) + 1e-6).rounded(.down), Double(Int32.max)))
    }

    private static func makeLayout(_ run: TextRun, width: Double?, for cairoContext: OpaquePointer) throws -> Layout {
        let (spans, style) = (run.spans, run.style)
        let fonts = try ThreadFontMap.current()
        let text = run.text
        let isRightToLeft = Self.isRightToLeft(text, style.direction)
        let context = fonts.makeContext()
        rk_pango_cairo_update_context(cairoContext, context)
        rk_pango_context_set_base_dir(context, isRightToLeft ? RK_PANGO_DIRECTION_RTL : RK_PANGO_DIRECTION_LTR)
        let layout = Layout(context: context, isRightToLeft: isRightToLeft)
        let pango = layout.layout
        // One base direction for the whole text, so `left` and `right` mean those edges.
        rk_pango_layout_set_auto_dir(pango, 0)
        text.withCString { rk_pango_layout_set_text(pango, $0, -1) }
        rk_pango_layout_set_font_description(pango, fonts.description(of: style.font))

        let attributes = rk_pango_attr_list_new()
        defer { rk_pango_attr_list_unref(attributes) }
        var hasAttributes = addSpanAttributes(spans, to: attributes, fonts: fonts)
        let scale = Double(RK_PANGO_SCALE)
        if let units = width.flatMap(wrapUnits) {
            rk_pango_layout_set_width(pango, units)
            layout.wrapWidth = units
            switch style.wrapping {
            case .word: rk_pango_layout_set_wrap(pango, RK_PANGO_WRAP_WORD)
            case .character:
                rk_pango_layout_set_wrap(pango, RK_PANGO_WRAP_CHAR)
                // Pango hyphenates words it breaks; breaking "anywhere" means no hyphens.
                rk_pango_attr_list_insert(attributes, rk_pango_attr_insert_hyphens_new(0))
                hasAttributes = true
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
        if hasAttributes { rk_pango_layout_set_attributes(pango, attributes) }
        switch physicalAlignment(style.alignment, isRightToLeft: isRightToLeft) {
        case .left: rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_LEFT)
        case .center: rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_CENTER)
        default: rk_pango_layout_set_alignment(pango, RK_PANGO_ALIGN_RIGHT)
        }
        if style.alignment == .justified { rk_pango_layout_set_justify(pango, 1) }
        if style.lineSpacing.isFinite, style.lineSpacing != 0 {
            // Canvases check the spacing against `TextLimits` first; clamped here all the same.
            rk_pango_layout_set_spacing(pango, Int32(min(max(style.lineSpacing * scale, -1e9), 1e9)))
        }
        if style.lineHeightMultiple.isFinite, style.lineHeightMultiple > 0, style.lineHeightMultiple != 1 {
            rk_pango_layout_set_line_spacing(pango, Float(style.lineHeightMultiple))
        }
        return layout
    }

    /// Whether `text` set in `direction` runs right to left: `auto` follows its first strongly
    /// directional character.
    static func isRightToLeft(_ text: String, _ direction: TextStyle.Direction) -> Bool {
        switch direction {
        case .ltr: false
        case .rtl: true
        case .auto: text.withCString { rk_pango_find_base_dir($0, -1) } == RK_PANGO_DIRECTION_RTL
        }
    }

    /// `left`, `center` or `right`: where lines go for `alignment` in text of that direction
    /// (justified text's last line sits at its start).
    static func physicalAlignment(_ alignment: TextStyle.Alignment, isRightToLeft: Bool) -> TextStyle.Alignment {
        switch alignment {
        case .natural, .justified: isRightToLeft ? .right : .left
        case .left, .center, .right: alignment
        }
    }

    /// Adds each styled span's overrides over its byte range; false when every span is plain.
    private static func addSpanAttributes(_ spans: [TextSpan], to list: OpaquePointer?, fonts: ThreadFontMap) -> Bool {
        var start: UInt32 = 0
        var added = false
        for span in spans {
            let end = start + UInt32(span.text.utf8.count)
            defer { start = end }
            guard !span.isPlain, end > start else { continue }
            func insert(_ attribute: UnsafeMutablePointer<rk_pango_attribute>?) {
                guard let attribute else { return }
                attribute.pointee.start_index = start
                attribute.pointee.end_index = end
                rk_pango_attr_list_insert(list, attribute)
                added = true
            }
            // The attribute copies the description.
            if let font = span.font { insert(rk_pango_attr_font_desc_new(fonts.description(of: font))) }
            if let weight = span.weight { insert(rk_pango_attr_weight_new(Int32(weight.rawValue))) }
            if let color = span.color {
                func channel(_ value: Double) -> UInt16 { UInt16((min(max(value, 0), 1) * 65535).rounded()) }
                insert(rk_pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)))
                insert(rk_pango_attr_foreground_alpha_new(channel(color.alpha)))
            }
            if span.underline { insert(rk_pango_attr_underline_new(Int32(RK_PANGO_UNDERLINE_SINGLE))) }
            if span.strikethrough { insert(rk_pango_attr_strikethrough_new(1)) }
        }
        return added
    }
}
