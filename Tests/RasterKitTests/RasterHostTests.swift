import Foundation
import Observation
import Synchronization
import Testing
@testable import RasterKit


/// A component whose draw can be held open per label.
private struct Slow: Rasterizable {
    var label: String
    var color: Color
    let gates: [String: Gate]
    static let stateKeyPaths: [PartialKeyPath<Slow> & Sendable] = [\.label, \.color]
    func draw(in canvas: Canvas, size: Size) throws {
        gates[label]?.pass()
        canvas.fillAll(with: .color(color))
    }
}

@Observable
private final class Model: Rasterizable, @unchecked Sendable {
    var color: Color = .red
    var width: Double = 1
    @ObservationIgnored let draws = Counter()

    static var stateKeyPaths: [PartialKeyPath<Model> & Sendable] { [\.color, \.width] }

    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        canvas.fillAll(with: .color(color))
    }
}

@Suite struct RasterHostTests {
    @Test func showsThePlaceholderThenTheImage() async throws {
        let placeholder = try TestSupport.solidImage(.black)
        let gate = Gate()
        let host = RasterHost(component: Slow(label: "a", color: .red, gates: ["a": gate]), size: Size(4),
                              rasterizer: Rasterizer(), placeholder: placeholder)
        #expect(host.image == placeholder)
        gate.open()
        await host.settle()
        #expect(host.image?.pixel(x: 0, y: 0) == RGBA8(.red))
    }

    @Test func aStaleResultIsDropped() async throws {
        let slowGate = Gate()
        let gates = ["old": slowGate]
        let updates = Counter()
        let host = RasterHost(component: Slow(label: "old", color: .red, gates: gates), size: Size(4), rasterizer: Rasterizer())
        host.onImageUpdated = { _ in updates.increment() }
        #expect(await eventually { slowGate.arrivals == 1 })
        host.component = Slow(label: "new", color: .blue, gates: gates)
        await host.settle()
        #expect(host.image?.pixel(x: 0, y: 0) == RGBA8(.blue))
        slowGate.open()   // the old draw finishes now, after the new one
        try await Task.sleep(for: .milliseconds(50))
        #expect(host.image?.pixel(x: 0, y: 0) == RGBA8(.blue))
        #expect(updates.count == 1)
    }

    @Test func sameStateDoesNotRegenerateAndCachedStatesDoNotWarn() async throws {
        let rasterizer = Rasterizer()
        let warnings = Counter(), updates = Counter()
        let host = RasterHost(component: Counted(label: "x", draws: Counter()), size: Size(4), rasterizer: rasterizer,
                              drawsSynchronously: true)
        host.onWillRegenerate = { _ in warnings.increment() }
        host.onImageUpdated = { _ in updates.increment() }
        var same = host.component
        same.unrelated = 9
        host.component = same                                         // same key: nothing happens
        #expect(updates.count == 0)
        host.component = Counted(label: "y", draws: Counter())        // drawn: warns
        host.component = Counted(label: "x", draws: Counter())        // cached: no warning
        #expect(warnings.count == 1 && updates.count == 2)
    }

    @Test func synchronousHostsHaveTheImageAtOnce() throws {
        let host = RasterHost(component: Counted(label: "now", color: .green, draws: Counter()), size: Size(4),
                              rasterizer: Rasterizer(), drawsSynchronously: true)
        #expect(host.image?.pixel(x: 1, y: 1) == RGBA8(.green))
        host.size = Size(6)
        #expect(host.image?.pixelWidth == 6)
    }

    @Test func unrasterizedHostsDrawEveryTime() throws {
        let draws = Counter()
        let rasterizer = Rasterizer()
        let host = RasterHost(component: Counted(label: "live", draws: draws), size: Size(4), rasterizer: rasterizer,
                              drawsSynchronously: true, isRasterized: false)
        host.regenerate()
        host.component = host.component
        #expect(draws.count == 3)
        #expect(rasterizer.cache.memory.statistics.count == 0)
    }

    @Test func imagesArriveOnTheStream() async throws {
        let host = RasterHost(component: Counted(label: "s1", draws: Counter()), size: Size(4), rasterizer: Rasterizer())
        await host.settle()
        var iterator = host.images().makeAsyncIterator()
        #expect(await iterator.next() != nil)  // the current image first
        host.component = Counted(label: "s2", color: .blue, draws: Counter())
        let next = await iterator.next()
        #expect(next?.pixel(x: 0, y: 0) == RGBA8(.blue))
    }

    @Test func failuresAreReportedAndRetried() async throws {
        let host = RasterHost(component: Counted(label: "bad", draws: Counter(), failures: Counter()), size: Size(4),
                              rasterizer: Rasterizer(), drawsSynchronously: true)
        #expect(host.lastError is RenderError && host.image == nil)
        host.regenerate()
        #expect(host.lastError == nil && host.image != nil)
    }

    @Test func observableComponentsRegenerateOnceForChangesInOneTurn() async throws {
        let model = Model()
        let rasterizer = Rasterizer()
        let host = RasterHost(component: model, size: Size(4), rasterizer: rasterizer)
        await host.settle()
        #expect(model.draws.count == 1)
        model.color = .blue
        model.width = 2
        model.color = .green
        #expect(await eventually { host.image?.pixel(x: 0, y: 0) == RGBA8(.green) })
        await host.settle()
        #expect(model.draws.count == 2)  // three changes, one regeneration, with the final state
    }
}
