internal import CCairo
import Foundation

extension Canvas {
    /// Draws an SVG document into `rect`, placed by `contentMode` and clipped to `rect`. With a
    /// `tint`, every painted pixel takes the tint colour and keeps its alpha (times the
    /// tint's alpha), as template icons do.
    ///
    /// Errors (an SVG librsvg cannot read or draw) do not stop the drawing; the draw throws the
    /// first one when it finishes.
    ///
    /// ```swift
    /// canvas.draw(svg: icon, in: Rect(x: 8, y: 8, width: 24, height: 24), tint: .white)
    /// ```
    public func draw(svg document: SVGDocument, in rect: Rect, contentMode: ContentMode = .aspectFit,
                     tint: Color? = nil) {
        ensureOpen()
        do { try drawSVG(document, in: rect, contentMode: contentMode, tint: tint) } catch { record(error) }
    }

    /// `draw(svg:in:contentMode:tint:)`, throwing at once.
    package func drawSVG(_ document: SVGDocument, in rect: Rect, contentMode: ContentMode, tint: Color?) throws {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite, rect.height.isFinite else {
            throw RenderError.invalidSize(rect.size)
        }
        guard !rect.isEmpty else { return }
        let handles = SVGHandleCache.current()
        if document.mayContainText { SVGTextFonts.useRasterKitFonts(cache: handles) }
        let handle: LibrsvgHandle
        do { handle = try SVGHandleCache.handle(for: document, limits: environment.limits) } catch { throw named(error, document) }
        let natural = handle.naturalSize
        let frame = contentMode.frame(forContentOfSize: natural, in: rect)

        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(context)
        if tint != nil { cairo_push_group(context) }
        var rendered: Result<Void, SVGError> = .success(())
        // The document's own transform is undone before the group is popped, so the group
        // lines up with the canvas when it is used as a mask.
        cairo_save(context)
        cairo_translate(context, frame.minX, frame.minY)
        cairo_scale(context, frame.width / natural.width, frame.height / natural.height)
        do { try handle.render(into: context, viewport: Rect(size: natural)) } catch { rendered = .failure(error) }
        cairo_restore(context)
        if let tint {
            let group = cairo_pop_group(context)
            if case .success = rendered {
                cairo_set_source_rgba(context, tint.red, tint.green, tint.blue, tint.alpha)
                cairo_mask(context, group)
            }
            cairo_pattern_destroy(group)
        }
        if case .failure(let error) = rendered { throw named(error, document) }
        checkStatus("drawing an SVG")
    }

    private func named(_ error: SVGError, _ document: SVGDocument) -> SVGError {
        document.source.map { error.naming(source: $0) } ?? error
    }
}
