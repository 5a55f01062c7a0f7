import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Issue 46: text metrics, combining marks and vector documents are bounded like every other
/// input — a typed error, never a trap, an unbounded wait or unbounded memory; and JSON
/// manifests are read as JSON.
@Suite struct HostileDrawingTests {
    private func draw(_ text: String, style: TextStyle, limits: ResourceLimits = .default) throws -> RasterImage {
        let rasterizer = Rasterizer(limits: limits)
        struct Label: Rasterizable {
            var text: String
            var style: TextStyle
            func draw(in canvas: Canvas, size: Size) throws { canvas.draw(text: text, in: Rect(size: size), style: style) }
        }
        return try rasterizer.image(for: Label(text: text, style: style), size: Size(width: 200, height: 40), scale: 2)
    }

    private func isLimit(_ error: any Error) -> Bool {
        var underlying = error
        while case .drawFailed(_, _, let inner)? = underlying as? RenderError { underlying = inner }
        if case .limitExceeded? = underlying as? RenderError { return true }
        return false
    }

    @Test func textMetricsOutsideTheirBoundsAreErrorsNotTraps() throws {
        for spacing in [2.2e6, 3e6, 1e9, -1e9, .infinity] {
            var style = TextStyle(font: "DejaVu Sans 12", color: .black)
            style.lineSpacing = spacing
            #expect(throws: (any Error).self, "line spacing \(spacing)") { _ = try draw("one\ntwo", style: style) }
            do { _ = try draw("one\ntwo", style: style) } catch { #expect(isLimit(error), "\(error)") }
        }
        var tall = TextStyle(font: "DejaVu Sans 12", color: .black)
        tall.lineHeightMultiple = 1e7
        #expect(throws: (any Error).self) { _ = try draw("a\nb", style: tall) }
        for font in ["DejaVu Sans 1e9", "Sans 99999999px", "DejaVu Sans Bold 100000"] {
            #expect(throws: (any Error).self, "\(font)") { _ = try draw("big", style: TextStyle(font: font, color: .black)) }
        }
        // In bounds, drawn as before.
        var fine = TextStyle(font: "DejaVu Sans 12", color: .black)
        fine.lineSpacing = 4
        _ = try draw("one\ntwo", style: fine)
        #expect(TextLimits.fontSize(in: "DejaVu Sans Bold 15") == 15)
        #expect(TextLimits.fontSize(in: "Sans 12px") == 12)
        #expect(TextLimits.fontSize(in: "Noto Sans 12 @wght=300") == 12)
        #expect(TextLimits.fontSize(in: "DejaVu Sans") == nil)
    }

    @Test func aCharacterOfThousandsOfCombiningMarksIsRefusedAtOnce() throws {
        let marks = "e" + String(repeating: "\u{0301}", count: 40_000)
        let enclosing = "a" + String(repeating: "\u{20DD}", count: 40_000)
        for text in [marks, enclosing] {
            let start = ContinuousClock.now
            #expect(throws: (any Error).self) { _ = try draw(text, style: TextStyle(font: "DejaVu Sans 12", color: .black)) }
            // Not a timing claim: a refusal takes no layout at all, where laying it out took seconds.
            #expect(ContinuousClock.now - start < .seconds(5))
        }
        // A letter with a few marks, and emoji sequences, are text like any other.
        _ = try draw("Ễ́ 👩‍👩‍👧‍👦 🇫🇷", style: TextStyle(font: "DejaVu Sans 12", color: .black))
    }

    @Test func vectorDocumentsDrawABoundedNumberOfNestedComponents() throws {
        struct Doubling: Rasterizable {
            var depth: Int
            func draw(in canvas: Canvas, size: Size) throws {
                guard depth > 0 else { return canvas.fillAll(with: .color(.black)) }
                let half = Size(width: size.width / 2, height: size.height)
                try canvas.draw(Doubling(depth: depth - 1), in: Rect(origin: .zero, size: half))
                try canvas.draw(Doubling(depth: depth - 1), in: Rect(origin: Point(x: half.width, y: 0), size: half))
            }
        }
        for format in [VectorFormat.pdf, .svg] {
            let start = ContinuousClock.now
            #expect(throws: (any Error).self) {
                _ = try Rasterizer().vectorDocument(of: Doubling(depth: 30), size: Size(width: 400, height: 20), format: format)
            }
            #expect(ContinuousClock.now - start < .seconds(30))
        }
        // A document with a few nested components is drawn.
        #expect(try Rasterizer().vectorDocument(of: Doubling(depth: 3), size: Size(width: 40, height: 20), format: .pdf).count > 100)
    }

    @Test func manifestTextMetricsAreBoundedWithTheirPosition() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        for value in ["2.2e6", "-1e9", "1e400"] {
            let problems = try fixture.problems("""
                components:
                  label:
                    sizes: ["100x20"]
                    layers:
                      - text: {text: "x", lineSpacing: \(value)}
                """)
            #expect(problems.contains { $0.message.contains("lineSpacing") && $0.line == 5 }, "\(value): \(problems)")
        }
    }

    @Test func jsonManifestsAreReadAsJSON() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            {
            \t"components": {
            \t\t"reaction": {
            \t\t\t"sizes": ["40x20"],
            \t\t\t"layers": [{"text": {"text": "\\ud83d\\ude00 \\u00e9 \\"q\\" \\\\ \\/ \\ud83c\\uddeb\\ud83c\\uddf7"}}]
            \t\t}
            \t}
            }
            """, as: "reaction.json")
        guard case .text(let layer)? = manifest.layers("reaction").first else {
            Issue.record("no text layer")
            return
        }
        #expect(layer.text == "😀 é \"q\" \\ / 🇫🇷")
        // A lone surrogate is not JSON text: refused, with its place.
        let problems = try fixture.problems(#"{"components": {"x": {"sizes": ["4x4"], "layers": [{"text": {"text": "\ud83d"}}]}}}"#,
                                            as: "lone.json")
        #expect(!problems.isEmpty)
        // Tabs and escapes inside strings of a YAML file are left alone.
        #expect(ManifestParser.readingJSON("a: \"\\ud83d\\ude00\"", file: "m.yaml") == "a: \"\\ud83d\\ude00\"")
    }
}
