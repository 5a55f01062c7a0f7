import Foundation
import Testing
@testable import RasterKit

/// Measurements kept across canvases (`TextMeasurements`) and wrapped layouts reused at a
/// narrower width: each must give what a fresh layout gives. One at a time: the tests empty,
/// fill past its bound and read the process's one store of measurements.
@Suite(.serialized) struct TextMeasurementTests {
    private let paragraph = "Everything that changed this week, in one place for the whole team and its reviewers"

    /// The pixels of `body` drawn on a white canvas.
    private func pixels(_ size: Size, scale: Double = 2, _ body: (Canvas) throws -> Void) throws -> Data {
        let image = try RasterImage(size: size, scale: scale) { canvas in
            canvas.fill(Path(rect: Rect(size: size)), with: .color(.white))
            try body(canvas)
        }
        return try image.pngData()
    }

    @Test(arguments: [TextStyle.Alignment.natural, .left, .center, .right, .justified])
    func aParagraphMeasuredWideAndDrawnAtTheWidthItTookIsDrawnAsAtThatWidthAlone(_ alignment: TextStyle.Alignment) throws {
        let style = TextStyle(font: "DejaVu Sans 12", alignment: alignment)
        let size = Size(width: 240, height: 80)
        var taken = 0.0
        let measuredFirst = try pixels(size) { canvas in
            // Wrapped at 230, it takes less: the width a stack then draws it at.
            taken = canvas.measure(text: paragraph, style: style, width: 230).size.width
            canvas.draw(text: paragraph, in: Rect(x: 4, y: 4, width: taken, height: 70), style: style)
        }
        #expect(taken < 230 || alignment == .justified, "justified lines fill the width")
        let drawnAlone = try pixels(size) { canvas in
            canvas.draw(text: paragraph, in: Rect(x: 4, y: 4, width: taken, height: 70), style: style)
        }
        #expect(measuredFirst == drawnAlone)
    }

    /// Each thread parses a font description once and keeps a bounded number: drawing with more
    /// fonts than it keeps, and with span fonts, draws as a thread that parsed each afresh does.
    @Test func fontsParsedOnceDrawAsFontsParsedAfresh() throws {
        let size = Size(width: 200, height: 40)
        let spans = [TextSpan("Bold "), TextSpan("serif", font: "DejaVu Serif Italic 11")]
        @Sendable func drawn() throws -> Data {
            try pixels(size) { canvas in
                canvas.draw(spans, in: Rect(x: 2, y: 2, width: 196, height: 18), style: TextStyle(font: "DejaVu Sans Bold 12"))
                canvas.draw(text: "Mono", in: Rect(x: 2, y: 20, width: 196, height: 18), style: TextStyle(font: "DejaVu Sans Mono 10"))
            }
        }
        let first = try drawn()
        // More sizes than a thread keeps descriptions of, on this thread: the kept ones are freed
        // and parsed again, and layouts made from them still draw.
        _ = try pixels(size) { canvas in
            for points in 1...300 {
                canvas.draw(text: "\(points)", in: Rect(size: size), style: TextStyle(font: "DejaVu Sans \(Double(points) / 10)"))
            }
        }
        #expect(try drawn() == first)
        // On a thread of its own, which parses every font for the first time.
        final class Outcome: @unchecked Sendable { var pixels: Result<Data, any Error>? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            outcome.pixels = Result { try drawn() }
            done.signal()
        }.start()
        done.wait()
        #expect(try outcome.pixels?.get() == first)
    }

    @Test func aLayoutWrappedWideIsNotReusedWhereItsLinesWouldBreakDifferently() throws {
        let style = TextStyle(font: "DejaVu Sans 12")
        let size = Size(width: 240, height: 120)
        let narrow = 120.0
        let measuredFirst = try pixels(size) { canvas in
            _ = canvas.measure(text: paragraph, style: style, width: 230)
            canvas.draw(text: paragraph, in: Rect(x: 4, y: 4, width: narrow, height: 110), style: style)
        }
        let drawnAlone = try pixels(size) { canvas in
            canvas.draw(text: paragraph, in: Rect(x: 4, y: 4, width: narrow, height: 110), style: style)
        }
        #expect(measuredFirst == drawnAlone)
    }

    /// A stack measures its text without a width, then at the length it gave it; the walk serves
    /// the second from the first when the text fits that width unwrapped. That must be what the
    /// canvas measures at the width, for widths at, just over, well over and under the text's own.
    @Test(arguments: ["Waiting for review", "Two lines\nof text", "Everything that changed this week, in one place"])
    func textGivenAtLeastItsOwnWidthMeasuresAsWithoutOne(_ text: String) throws {
        let style = TextStyle(font: "DejaVu Sans 12", alignment: .center)
        _ = try RasterImage(size: Size(width: 400, height: 100), scale: 2) { canvas in
            let element = Text(text, style: style).element
            let engine = LayoutEngine(canvas: canvas)
            let context = LayoutEngine.Context(direction: .ltr)
            let unwrapped = try engine.measure(element, .unspecified, context).size
            for width in [unwrapped.width, unwrapped.width + 0.1, unwrapped.width + 50, unwrapped.width - 1, unwrapped.width / 2] {
                let walked = try engine.measure(element, ProposedSize(width: width, height: nil), context).size
                let metrics = canvas.measure(TextRun([TextSpan(text)], style: style), width: width, height: nil)
                #expect(walked == Size(width: min(metrics.size.width, width), height: metrics.size.height), "\(width)")
            }
        }
    }

    @Test func aMeasurementKeptIsTheMeasurementMadeAfresh() throws {
        let style = TextStyle(font: "DejaVu Sans Bold 13", maxLines: 2)
        let paragraph = self.paragraph
        func measure() throws -> TextMetrics {
            try Canvas.measuring(limits: .default) { canvas in canvas.measure(text: paragraph, style: style, width: 150) }
        }
        TextMeasurements.removeAll()
        let fresh = try measure()
        #expect(TextMeasurements.contains { $0.run.text == paragraph })
        let kept = try measure()
        #expect(fresh == kept)
        #expect(fresh.lineCount == 2 && fresh.isTruncated)
    }

    @Test func aMeasurementKeptUnderLooserLimitsIsNotServedUnderTighterOnes() throws {
        let style = TextStyle(font: "DejaVu Sans 300")
        try Canvas.measuring(limits: .default) { canvas in
            #expect(canvas.measure(text: "Big", style: style).size.width > 300)
        }
        let tight = ResourceLimits(pixels: PixelLimits(maximumSide: 200, maximumPixelCount: 1 << 20))
        #expect(throws: RenderError.self) {
            try Canvas.measuring(limits: tight) { canvas in _ = canvas.measure(text: "Big", style: style) }
        }
    }

    /// Only a measuring canvas keeps what it measures: a canvas that draws lays out what it shows
    /// anyway, and measures under its own transform.
    @Test func onlyMeasuringCanvasesKeepTheirMeasurements() throws {
        let style = TextStyle(font: "DejaVu Sans 12")
        let drawn = "Drawn \(UUID().uuidString)", measured = "Measured \(UUID().uuidString)"
        _ = try RasterImage(size: Size(width: 200, height: 20), scale: 2) { canvas in
            _ = canvas.measure(text: drawn, style: style)
        }
        try Canvas.measuring(limits: .default) { canvas in _ = canvas.measure(text: measured, style: style) }
        #expect(!TextMeasurements.contains { $0.run.text == drawn })
        #expect(TextMeasurements.contains { $0.run.text == measured })
        // And a component's ideal size is measured on one.
        let sized = "Sized \(UUID().uuidString)"
        _ = try Text(sized, style: style).sizeThatFits()
        #expect(TextMeasurements.contains { $0.run.text == sized })
    }

    @Test func aMeasurementAtOneScaleIsNotServedAtAnother() throws {
        // The same text at scales 1 and 2 is checked against the limits at each scale.
        let style = TextStyle(font: "DejaVu Sans 150")
        let limits = ResourceLimits(pixels: PixelLimits(maximumSide: 200, maximumPixelCount: 1 << 20))
        _ = try RasterImage(size: Size(width: 1, height: 1), scale: 1, limits: limits) { canvas in
            _ = canvas.measure(text: "Scaled", style: style)
        }
        #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(width: 1, height: 1), scale: 2, limits: limits) { canvas in
                _ = canvas.measure(text: "Scaled", style: style)
            }
        }
    }

    @Test func manyTasksMeasuringOneTextAgree() async throws {
        let style = TextStyle(font: "DejaVu Sans 12")
        let text = "Raced \(UUID().uuidString)"
        let widths = try await withThrowingTaskGroup(of: Double.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try Canvas.measuring(limits: .default) { canvas in canvas.measure(text: text, style: style, width: 80).size.width }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths.count == 32)
        #expect(Set(widths).count == 1)
    }

    @Test func theMeasurementsKeptAreBounded() throws {
        let style = TextStyle(font: "DejaVu Sans 8")
        try Canvas.measuring(limits: .default) { canvas in
            for index in 0..<(2 * TextMeasurements.generationCapacity + 10) {
                _ = canvas.measure(text: "\(index)", style: style)
            }
        }
        #expect(TextMeasurements.count <= 2 * TextMeasurements.generationCapacity)
        #expect(TextMeasurements.contains { $0.run.text == "\(2 * TextMeasurements.generationCapacity + 9)" })
        // A text longer than the bound is measured but not kept.
        let long = String(repeating: "long text ", count: TextMeasurements.maximumKeptBytes / 10 + 1)
        try Canvas.measuring(limits: .default) { canvas in _ = canvas.measure(text: long, style: style) }
        #expect(!TextMeasurements.contains { $0.run.spans.first?.text == long })
    }
}
