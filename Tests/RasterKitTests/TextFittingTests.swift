import Foundation
import Testing
@testable import RasterKit

/// Draws with `body` on a white canvas of `size` at scale 1.
private func drawn(_ size: Size, _ body: (Canvas) throws -> Void) throws -> RasterImage {
    try RasterImage(size: size) { canvas in
        canvas.fill(Path(rect: Rect(size: size)), with: .color(.white))
        try body(canvas)
    }
}

/// The pixels (x, y) darker than mid grey, or redder than they are green.
private func pixels(_ image: RasterImage, where test: (RGBA8) -> Bool) -> [(x: Int, y: Int)] {
    var found: [(Int, Int)] = []
    for y in 0..<image.pixelHeight { for x in 0..<image.pixelWidth where test(image.pixel(x: x, y: y)) { found.append((x, y)) } }
    return found
}

private func isInk(_ pixel: RGBA8) -> Bool { Int(pixel.red) + Int(pixel.green) + Int(pixel.blue) < 3 * 200 }

@Suite struct TextFittingTests {
    @Test func textIsClippedToItsRectangle() throws {
        let image = try drawn(Size(width: 60, height: 60)) { canvas in
            canvas.draw(text: "WWWWWW WWWW", in: Rect(x: 20, y: 20, width: 20, height: 10),
                        style: TextStyle(font: "DejaVu Sans Bold 30"))
        }
        let ink = pixels(image, where: isInk)
        #expect(!ink.isEmpty)
        #expect(ink.allSatisfy { (20..<40).contains($0.x) && (20..<30).contains($0.y) })
    }

    @Test func shrinkingTextScalesItDownUntilItFitsWhole() throws {
        let style = TextStyle(font: "DejaVu Sans Bold 20", wrapping: .none, fit: .shrink(minimumScale: 0.25))
        var metrics: [TextMetrics] = []
        _ = try drawn(Size(width: 1, height: 1)) { canvas in
            let spans = [TextSpan("Shrinks to fit the box")]
            metrics = [canvas.measure(spans, style: style, width: 1_000),
                       canvas.measure(spans, style: style, width: 150),
                       canvas.measure(spans, style: style, width: 20)]
        }
        #expect(metrics[0].scale == 1)
        #expect(metrics[1].scale < 1 && metrics[1].scale >= 0.25)
        #expect(metrics[1].size.width <= 150.25 && !metrics[1].isTruncated)
        #expect(metrics[1].size.width > 150 * 0.9)                  // the largest scale that fits
        #expect(metrics[2].scale == 0.25 && metrics[2].isTruncated)  // past the minimum, it is cut
        // Heights count too: wrapped text shrinks until its lines fit the box's height.
        var tall = TextMetrics(size: .zero, lineCount: 0, isTruncated: false, firstBaseline: 0)
        _ = try drawn(Size(width: 1, height: 1)) { canvas in
            tall = canvas.measure([TextSpan("one two three four five six")],
                                  style: TextStyle(font: "DejaVu Sans 20", fit: .shrink(minimumScale: 0.1)),
                                  width: 100, height: 30)
        }
        #expect(tall.size.height <= 30.25 && tall.scale < 1)
    }

    @Test func aMinimumScaleOutsideZeroToOneIsAnError() throws {
        for bad in [0, -1, 1.5, .nan] {
            #expect(throws: RenderError.self) {
                _ = try drawn(Size(width: 10, height: 10)) { canvas in
                    canvas.draw(text: "a", in: Rect(x: 0, y: 0, width: 10, height: 10),
                                style: TextStyle(fit: .shrink(minimumScale: bad)))
                }
            }
        }
    }

    @Test func spansHaveTheirOwnColourAndLines() throws {
        let red = Color(red: 1, green: 0, blue: 0)
        let style = TextStyle(font: "DejaVu Sans 20")
        let rect = Rect(x: 0, y: 0, width: 200, height: 30)
        let plain = try drawn(rect.size) { $0.draw([TextSpan("Save "), TextSpan("now")], in: rect, style: style) }
        let styled = try drawn(rect.size) {
            $0.draw([TextSpan("Save "), TextSpan("now", weight: .bold, color: red, underline: true)], in: rect, style: style)
        }
        func isRed(_ pixel: RGBA8) -> Bool { pixel.red > 200 && pixel.green < 60 }
        let redPixels = pixels(styled, where: isRed)
        #expect(pixels(plain, where: isRed).isEmpty)
        #expect(redPixels.count > 40)
        // Red only right of the plain "Save ", and one red row as long as the word: its underline.
        let saveWidth = try #require(pixels(plain, where: isInk).map(\.x).max())
        #expect(redPixels.allSatisfy { $0.x > saveWidth / 2 })
        let longestRow = Dictionary(grouping: redPixels, by: \.y).values.map(\.count).max() ?? 0
        #expect(longestRow > 30)
    }

    @Test func rightToLeftTextStartsAtTheRightEdge() throws {
        let rect = Rect(x: 0, y: 0, width: 300, height: 30)
        func inkSpan(_ text: String, _ style: TextStyle) throws -> ClosedRange<Int> {
            let xs = pixels(try drawn(rect.size) { $0.draw(text: text, in: rect, style: style) }, where: isInk).map(\.x)
            return try #require(xs.min())...(try #require(xs.max()))
        }
        let hebrew = "שלום עולם"
        #expect(try inkSpan(hebrew, TextStyle(font: "DejaVu Sans 16")).upperBound > 280)          // natural: right
        #expect(try inkSpan(hebrew, TextStyle(font: "DejaVu Sans 16", alignment: .left)).lowerBound < 20)
        #expect(try inkSpan(hebrew, TextStyle(font: "DejaVu Sans 16", direction: .ltr)).lowerBound < 20)
        #expect(try inkSpan("Hello", TextStyle(font: "DejaVu Sans 16", direction: .rtl)).upperBound > 280)
        // Mixed text keeps its Latin word whole inside right-to-left text.
        let mixed = try inkSpan("שלום Ada עולם", TextStyle(font: "DejaVu Sans 16"))
        #expect(mixed.upperBound > 280)
    }
}
