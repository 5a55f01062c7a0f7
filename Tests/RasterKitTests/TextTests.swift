import Foundation
import Testing
@testable import RasterKit

/// DejaVu Sans Mono advances 1233/2048 em, so at 10 points every character is 6.02 points wide:
/// line breaks are predictable.
private let mono = TextStyle(font: "DejaVu Sans Mono 10")

private func metrics(_ text: String, style: TextStyle = mono, width: Double?) throws -> TextMetrics {
    var result: TextMetrics?
    _ = try RasterImage(size: Size(width: 1, height: 1)) { canvas in
        result = canvas.measure(text: text, style: style, width: width)
    }
    return try #require(result)
}

/// The columns that hold any ink.
private func inkColumns(_ image: RasterImage) -> ClosedRange<Int>? {
    let columns = (0..<image.pixelWidth).filter { x in (0..<image.pixelHeight).contains { image.pixel(x: x, y: $0).alpha > 0 } }
    guard let first = columns.first, let last = columns.last else { return nil }
    return first...last
}

@Suite struct TextTests {
    @Test func wrapsToTheExpectedNumberOfLines() throws {
        let text = "aaaa bbbb cccc dddd"
        #expect(try metrics(text, width: nil).lineCount == 1)
        #expect(try metrics(text, width: 60).lineCount == 2)   // "aaaa bbbb" fits in 9 × 6.02
        #expect(try metrics(text, width: 30).lineCount == 4)
        #expect(try metrics("a\nb\nc", width: nil).lineCount == 3)
    }

    @Test func characterWrappingBreaksInsideWords() throws {
        var style = mono
        style.wrapping = .character
        #expect(try metrics("abcdefghij", style: style, width: 31).lineCount == 2)
        #expect(try metrics("abcdefghij", style: mono, width: 31).lineCount == 1)  // word wrap cannot break it
    }

    @Test func maxLinesEndsInAnEllipsis() throws {
        var style = mono
        style.maxLines = 2
        let limited = try metrics("one two three four five six seven eight nine ten", style: style, width: 40)
        #expect(limited.lineCount == 2)
        #expect(limited.isTruncated)
        #expect(try !metrics("short", style: style, width: 200).isTruncated)
    }

    @Test func measuredWidthMatchesTheFontAdvance() throws {
        let single = try metrics("abcdefghij", width: nil)
        #expect(abs(single.size.width - 60.2) < 0.1)
        #expect(single.size.height > 10 && single.size.height < 14)
        #expect(single.firstBaseline > 7 && single.firstBaseline < single.size.height)
    }

    @Test func lineSpacingAddsSpaceBetweenLines() throws {
        var spaced = mono
        spaced.lineSpacing = 10
        let tight = try metrics("a\nb", width: nil), loose = try metrics("a\nb", style: spaced, width: nil)
        #expect(abs(loose.size.height - tight.size.height - 10) < 0.01)
    }

    @Test func alignmentPlacesTheInk() throws {
        func draw(_ alignment: TextStyle.Alignment) throws -> ClosedRange<Int>? {
            let style = TextStyle(font: "DejaVu Sans 12", alignment: alignment, wrapping: .none)
            return inkColumns(try RasterImage(size: Size(width: 100, height: 20)) { canvas in
                canvas.draw(text: "Hi", in: Rect(x: 0, y: 0, width: 100, height: 20), style: style)
            })
        }
        let left = try #require(try draw(.left)), center = try #require(try draw(.center)), right = try #require(try draw(.right))
        #expect(left.lowerBound < 5)
        #expect(right.upperBound > 94)
        #expect(abs((center.lowerBound + center.upperBound) / 2 - 50) <= 2)
    }

    @Test func verticalCentringPlacesTheLineInTheMiddle() throws {
        let style = TextStyle(font: "DejaVu Sans Mono 10", verticalAlignment: .center)
        let image = try RasterImage(size: Size(width: 40, height: 40)) { canvas in
            canvas.draw(text: "HH", in: Rect(x: 0, y: 0, width: 40, height: 40), style: style)
        }
        let rows = (0..<40).filter { y in (0..<40).contains { image.pixel(x: $0, y: y).alpha > 0 } }
        #expect(rows.first! > 12 && rows.last! < 28)
    }

    @Test func sameTextGivesSamePixelsOnAnyThread() async throws {
        func draw() throws -> RasterImage {
            try RasterImage(size: Size(width: 120, height: 30), scale: 2) { canvas in
                canvas.draw(text: "Déjà vu — 123", in: Rect(x: 0, y: 0, width: 120, height: 30),
                            style: TextStyle(font: "DejaVu Sans Bold 14", color: .black, alignment: .center))
            }
        }
        let reference = try draw()
        let others = try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<4 { group.addTask { try draw() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for other in others { #expect(other == reference) }
        #expect(try reference.pngData() == others[0].pngData())
    }

    @Test func unknownFamiliesFallBackToDejaVuSans() throws {
        func draw(_ font: String) throws -> RasterImage {
            try RasterImage(size: Size(width: 60, height: 20)) { canvas in
                canvas.draw(text: "Fallback", at: .zero, style: TextStyle(font: font))
            }
        }
        #expect(try draw("No Such Family 12") == draw("DejaVu Sans 12"))
        #expect(try draw("sans-serif 12") == draw("DejaVu Sans 12"))
        #expect(try draw("monospace 12") == draw("DejaVu Sans Mono 12"))
    }
}

@Suite struct FontLibraryTests {
    /// The machine's other fonts stay out: Noto Sans is installed here (`make deps`) and no test
    /// registers it. (Other tests do register fonts of their own, for the rest of the process,
    /// so "only DejaVu" is checked through a font the machine has and RasterKit must not see.)
    @Test func onlyTheDejaVuFamiliesAreVisibleByDefault() throws {
        let families = try FontLibrary.families()
        #expect(families.contains("DejaVu Sans") && families.contains("DejaVu Serif") && families.contains("DejaVu Sans Mono"))
        #expect(FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"))
        #expect(!families.contains("Noto Sans"))
    }

    @Test func registeringAMissingDirectoryThrows() {
        #expect(throws: FontError.notFound(path: "/no/such/fonts")) {
            try FontLibrary.register(directory: URL(fileURLWithPath: "/no/such/fonts"))
        }
    }

    @Test func registeringADirectoryWithoutFontsThrows() throws {
        let directory = try TestSupport.temporaryDirectory()
        try Data("not a font".utf8).write(to: directory.appendingPathComponent("readme.txt"))
        #expect(throws: FontError.self) { try FontLibrary.register(directory: directory) }
    }

    @Test func registeringAFontDirectoryWorks() throws {
        let directory = try TestSupport.temporaryDirectory()
        let source = try #require(FontLibrary.defaultFontDirectories.lazy
            .map { URL(fileURLWithPath: $0).appendingPathComponent("DejaVuSansMono.ttf") }
            .first { FileManager.default.fileExists(atPath: $0.path) })
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("Copy.ttf"))
        try FontLibrary.register(directory: directory)
        #expect(try FontLibrary.families().contains("DejaVu Sans Mono"))
    }

    /// "Hig" in two fonts at 2x, on whichever thread runs it; a thread drawing text for the first
    /// time makes its font map while other preloads may still run.
    private static func drawText() throws -> RasterImage {
        try RasterImage(size: Size(width: 60, height: 40), scale: 2) { canvas in
            canvas.draw(text: "Hig", in: Rect(x: 2, y: 2, width: 56, height: 18), style: TextStyle(font: "DejaVu Sans 14"))
            canvas.draw(text: "Hig", in: Rect(x: 2, y: 20, width: 56, height: 18), style: TextStyle(font: "DejaVu Serif Bold 11"))
        }
    }

    @Test func textDrawnWhilePreloadsRunIsTheTextDrawnWithout() async throws {
        let reference = try await Task.detached { try Self.drawText() }.value
        #expect(reference.allPixels.contains { $0.alpha > 128 })
        let drawn = try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    FontLibrary.preload()
                    return try Self.drawText()
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(drawn.count == 8)
        #expect(drawn.allSatisfy { $0 == reference })
        #expect(try FontLibrary.families().contains("DejaVu Sans"))
    }
}

