// Issue 43: what laying out costs. A card of 20 children (a title, a wrapping subtitle, rows of
// icon, label, spacer and value) drawn through stacks against the same card drawn at the frames
// the stacks gave it, placed by hand, with the same texts each draw and with new ones; memory-
// cache hits of each; and measuring a chip that hugs its label against drawing it.
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
    // At the scale the card is drawn at, since text is measured at the scale it is shown at.
    _ = try RasterImage(size: size, scale: 2) { canvas in try canvas.draw(recording, in: Rect(size: size)) }
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

/// A subject and its baseline timed in one benchmark, alternately, each iteration recording
/// both times as custom metrics: on a machine whose speed drifts (two shared cores), a ratio of
/// two benchmarks run seconds apart swings by half; of times taken side by side, it does not.
func paired(_ name: String, repetitions: Int = 1, subject: @escaping () throws -> Void, baseline: @escaping () throws -> Void) {
    let metrics: [BenchmarkMetric] = [.throughput, .custom("subject ns", useScalingFactor: false), .custom("baseline ns", useScalingFactor: false)]
    Benchmark(name, configuration: Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(4), maxIterations: 2_000)) { benchmark in
        try subject()
        try baseline()
        for iteration in benchmark.scaledIterations {
            func time(_ body: () throws -> Void) rethrows -> Int {
                let start = ContinuousClock.now
                for _ in 0..<repetitions { try body() }
                let elapsed = ContinuousClock.now - start
                return Int(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            }
            // Alternating which goes first, so neither always runs on a warmer cache.
            let (first, second) = iteration % 2 == 0 ? (subject, baseline) : (baseline, subject)
            let firstTime = try time(first), secondTime = try time(second)
            let (subjectTime, baselineTime) = iteration % 2 == 0 ? (firstTime, secondTime) : (secondTime, firstTime)
            benchmark.measurement(.custom("subject ns", useScalingFactor: false), subjectTime)
            benchmark.measurement(.custom("baseline ns", useScalingFactor: false), baselineTime)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let rows = ["Design review", "Release notes", "Accessibility audit", "Icon refresh", "Dark mode", "Localisation"]
    let card = StackCard(title: "Weekly summary", rows: rows)
    let cardSize = (try? card.idealSize(width: 320)) ?? Size(width: 320, height: 260)
    let placed = PlacedCard(title: card.title, rows: rows, frames: (try? recordedFrames(card, size: cardSize)) ?? [])

    paired("layout: 20-child card, through stacks vs at fixed frames", subject: {
        blackHole(try RasterImage(size: cardSize, scale: 2) { canvas in try card.draw(in: canvas, size: cardSize) })
    }, baseline: {
        blackHole(try RasterImage(size: cardSize, scale: 2) { canvas in try placed.draw(in: canvas, size: cardSize) })
    })

    // Distinct states, as a server draws them: every text is new to the process each draw, so
    // both cards lay each one out with Pango, and the stacks measure with the layouts they then
    // draw. Six-digit tags keep every card's frames those recorded once (DejaVu's digits share
    // one advance), so the hand-placed card is the same card.
    func tagged(_ index: Int) -> (title: String, rows: [String]) {
        let tag = String(100_000 + index % 900_000)
        return ("Weekly summary \(tag)", rows.map { "\($0) \(tag)" })
    }
    let taggedCard = StackCard(title: tagged(0).title, rows: tagged(0).rows)
    let taggedFrames = (try? recordedFrames(taggedCard, size: cardSize)) ?? []
    var drawn = 0
    paired("layout: 20-child card with new texts each draw, through stacks vs at fixed frames", subject: {
        drawn += 1
        let card = StackCard(title: tagged(drawn).title, rows: tagged(drawn).rows)
        blackHole(try RasterImage(size: cardSize, scale: 2) { canvas in try card.draw(in: canvas, size: cardSize) })
    }, baseline: {
        drawn += 1
        let card = PlacedCard(title: tagged(drawn).title, rows: tagged(drawn).rows, frames: taggedFrames)
        blackHole(try RasterImage(size: cardSize, scale: 2) { canvas in try card.draw(in: canvas, size: cardSize) })
    })

    let rasterizer = Rasterizer()
    paired("layout: memory-cache hits ×1000, laid-out card vs hand-placed card", repetitions: 1_000, subject: {
        blackHole(try rasterizer.image(for: card, size: cardSize, scale: 2))
    }, baseline: {
        blackHole(try rasterizer.image(for: placed, size: cardSize, scale: 2))
    })

    // Measuring a state measured before (a server learning the size of a state it serves, a
    // state measured at load and again when drawn) is a lookup of its text's measurement.
    let chip = Chip(label: "Waiting for review")
    let chipSize = (try? chip.idealSize(height: 28)) ?? Size(width: 150, height: 28)
    paired("layout: auto-width chip, measuring vs drawing it at its size", subject: {
        blackHole(try chip.idealSize(height: 28))
    }, baseline: {
        blackHole(try RasterImage(size: chipSize, scale: 2) { canvas in try chip.draw(in: canvas, size: chipSize) })
    })

    // A state never measured before: a label new to the process each time, so measuring it
    // costs its Pango layout, and drawing it costs its own (at scale 2) and the pixels.
    var labels = 0
    func newChip() -> Chip {
        labels += 1
        return Chip(label: "Waiting for review \(labels)")
    }
    paired("layout: auto-width chip with a new label, measuring vs drawing it at its size", subject: {
        blackHole(try newChip().idealSize(height: 28))
    }, baseline: {
        let chip = newChip()
        blackHole(try RasterImage(size: chipSize, scale: 2) { canvas in try chip.draw(in: canvas, size: chipSize) })
    })
}
