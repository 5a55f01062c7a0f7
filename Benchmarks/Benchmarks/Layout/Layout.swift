// Issue 43: what laying out costs. A card of 20 children (a title, a wrapping subtitle, rows of
// icon, label, spacer and value) drawn through stacks against the same card drawn at the frames
// the stacks gave it, placed by hand; memory-cache hits of each; and measuring a chip that hugs
// its label against drawing it.
import Benchmark
import Foundation
import RasterKit

let ink = Color(red: 0.06, green: 0.09, blue: 0.16)
let slate = Color(red: 0.28, green: 0.33, blue: 0.41)
let blue = Color(red: 0.18, green: 0.44, blue: 0.92)
let titleStyle = TextStyle(font: "DejaVu Sans Bold 15", color: ink)
let bodyStyle = TextStyle(font: "DejaVu Sans 12", color: slate)
let valueStyle = TextStyle(font: "DejaVu Sans Bold 12", color: ink, maxLines: 1)

func dot(_ canvas: Canvas, _ rect: Rect) { canvas.fill(Path(ellipseIn: rect), with: .color(blue)) }
func background(_ canvas: Canvas, _ rect: Rect) {
    canvas.fill(Path(roundedRect: rect.insetBy(dx: 1, dy: 1), cornerRadius: 12), with: .color(.white))
}

/// The card laid out by stacks: a background, then a column of a title, a subtitle and six rows
/// of three children and a spacer (20 children in all, with the nested stacks).
struct StackCard: LayoutComponent {
    var title: String
    var rows: [String]
    static let stateKeyPaths: [PartialKeyPath<StackCard> & Sendable] = [\.title, \.rows]

    var body: some LayoutContent {
        Stack(.depth) {
            Drawing(background)
            Stack(.vertical, spacing: 6, padding: EdgeInsets(all: 16), alignment: .start) {
                Text(title, style: titleStyle)
                Text("Everything that changed this week, in one place for the whole team", style: bodyStyle)
                for (index, row) in rows.enumerated() {
                    Stack(.horizontal, spacing: 8) {
                        Drawing(dot).frame(width: 8, height: 8)
                        Text(row, style: bodyStyle)
                        Spacer()
                        Text("\(index * 7 + 3)", style: valueStyle)
                    }
                }
            }
        }
    }
}

/// The same card drawn at fixed frames: those the stacks gave each piece, recorded once.
struct PlacedCard: Rasterizable {
    enum Piece: Sendable { case background, dot, text(String, TextStyle) }
    var title: String
    var rows: [String]
    var frames: [Rect]
    static let stateKeyPaths: [PartialKeyPath<PlacedCard> & Sendable] = [\.title, \.rows]

    var pieces: [Piece] {
        var pieces: [Piece] = [.background, .text(title, titleStyle),
                               .text("Everything that changed this week, in one place for the whole team", bodyStyle)]
        for (index, row) in rows.enumerated() {
            pieces += [.dot, .text(row, bodyStyle), .text("\(index * 7 + 3)", valueStyle)]
        }
        return pieces
    }

    func draw(in canvas: Canvas, size: Size) throws {
        for (piece, frame) in zip(pieces, frames) {
            switch piece {
            case .background: background(canvas, frame)
            case .dot: dot(canvas, frame)
            case let .text(text, style): canvas.draw(text: text, in: frame, style: style)
            }
        }
    }
}

/// The frames the stacks give the card's leaves, in drawing order, through elements that
/// record where they were drawn.
func recordedFrames(_ card: StackCard, size: Size) throws -> [Rect] {
    final class Recorder: @unchecked Sendable { var frames: [Rect] = [] }
    let recorder = Recorder()
    let recording = Stack(.depth) {
        Drawing { _, rect in recorder.frames.append(rect) }
        Stack(.vertical, spacing: 6, padding: EdgeInsets(all: 16), alignment: .start) {
            Text(card.title, style: titleStyle).effect { _, rect, _ in recorder.frames.append(rect) }
            Text("Everything that changed this week, in one place for the whole team", style: bodyStyle)
                .effect { _, rect, _ in recorder.frames.append(rect) }
            for (index, row) in card.rows.enumerated() {
                Stack(.horizontal, spacing: 8) {
                    Drawing { _, rect in recorder.frames.append(rect) }.frame(width: 8, height: 8)
                    Text(row, style: bodyStyle).effect { _, rect, _ in recorder.frames.append(rect) }
                    Spacer()
                    Text("\(index * 7 + 3)", style: valueStyle).effect { _, rect, _ in recorder.frames.append(rect) }
                }
            }
        }
    }
    _ = try RasterImage(size: size) { canvas in try canvas.draw(recording, in: Rect(size: size)) }
    return recorder.frames
}

/// A chip that hugs its label.
struct Chip: LayoutComponent {
    var label: String
    static let stateKeyPaths: [PartialKeyPath<Chip> & Sendable] = [\.label]

    var body: some LayoutContent {
        Stack(.depth) {
            Drawing { canvas, rect in canvas.fill(Path(roundedRect: rect, cornerRadius: rect.height / 2), with: .color(blue)) }
            Stack(.horizontal, spacing: 6, padding: EdgeInsets(top: 4, left: 10, bottom: 4, right: 10)) {
                Drawing(dot).frame(width: 8, height: 8)
                Text(label, style: TextStyle(font: "DejaVu Sans Bold 13", color: .white, maxLines: 1))
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(3))
    let fast = Benchmark.Configuration(metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(2))
    let rows = ["Design review", "Release notes", "Accessibility audit", "Icon refresh", "Dark mode", "Localisation"]
    let card = StackCard(title: "Weekly summary", rows: rows)
    let cardSize = (try? card.idealSize(width: 320)) ?? Size(width: 320, height: 260)
    let placed = PlacedCard(title: card.title, rows: rows, frames: (try? recordedFrames(card, size: cardSize)) ?? [])

    Benchmark("layout: 20-child card drawn through stacks", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try RasterImage(size: cardSize, scale: 2) { canvas in try card.draw(in: canvas, size: cardSize) })
        }
    }
    Benchmark("layout: 20-child card drawn at fixed frames (baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try RasterImage(size: cardSize, scale: 2) { canvas in try placed.draw(in: canvas, size: cardSize) })
        }
    }

    let rasterizer = Rasterizer()
    Benchmark("layout: memory-cache hit of the laid-out card", configuration: fast) { benchmark in
        _ = try rasterizer.image(for: card, size: cardSize, scale: 2)
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.image(for: card, size: cardSize, scale: 2)) }
    }
    Benchmark("layout: memory-cache hit of the hand-placed card (baseline)", configuration: fast) { benchmark in
        _ = try rasterizer.image(for: placed, size: cardSize, scale: 2)
        for _ in benchmark.scaledIterations { blackHole(try rasterizer.image(for: placed, size: cardSize, scale: 2)) }
    }

    let chip = Chip(label: "Waiting for review")
    let chipSize = (try? chip.idealSize(height: 28)) ?? Size(width: 150, height: 28)
    Benchmark("layout: measure an auto-width chip", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try chip.idealSize(height: 28)) }
    }
    Benchmark("layout: draw the chip at its measured size (baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try RasterImage(size: chipSize, scale: 2) { canvas in try chip.draw(in: canvas, size: chipSize) })
        }
    }
}
