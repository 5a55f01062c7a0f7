import Foundation
import Synchronization
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// A component that counts its draws; the counter is not part of the state.
struct Counted: Rasterizable {
    var label: String
    var color: Color = .red
    var unrelated = 0
    let draws: Counter
    var gate: Gate?
    var failures: Counter?

    static let stateKeyPaths: [PartialKeyPath<Counted> & Sendable] = [\.label, \.color]

    struct Failure: Error {}

    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        gate?.pass()
        if let failures, failures.increment() == 1 { throw Failure() }
        canvas.fill(Path(rect: Rect(size: size)), with: .color(color))
    }
}

@Suite struct RasterizerTests {
    @Test func drawsOncePerUniqueState() throws {
        let rasterizer = Rasterizer()
        let draws = Counter()
        let a = Counted(label: "a", draws: draws)
        for _ in 0..<5 { _ = try rasterizer.image(for: a, size: Size(10)) }
        var changedOutsideState = a
        changedOutsideState.unrelated = 42
        _ = try rasterizer.image(for: changedOutsideState, size: Size(10))
        #expect(draws.count == 1)
        var b = a
        b.label = "b"
        _ = try rasterizer.image(for: b, size: Size(10))
        _ = try rasterizer.image(for: a, size: Size(10), scale: 2)
        #expect(draws.count == 3)
        let statistics = rasterizer.statistics
        #expect(statistics.draws == 3 && statistics.memoryHits == 5 && statistics.misses == 3)
    }

    @Test func imagesHaveTheRequestedPixelsAndScale() throws {
        let image = try Rasterizer().image(for: Counted(label: "x", draws: Counter()), size: Size(width: 30, height: 20), scale: 3)
        #expect(image.pixelWidth == 90 && image.pixelHeight == 60 && image.scale == 3)
        #expect(image.pixel(x: 45, y: 30) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test func aFailedDrawIsNotCachedAndNamesTheComponent() throws {
        let rasterizer = Rasterizer()
        let component = Counted(label: "f", draws: Counter(), failures: Counter())
        let error = #expect(throws: RenderError.self) { _ = try rasterizer.image(for: component, size: Size(10)) }
        guard case let .drawFailed(typeName, key, underlying) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(typeName.hasSuffix("Counted"))
        #expect(key.stateDescription.contains("label: f"))
        #expect(underlying is Counted.Failure)
        #expect(String(describing: error!).contains("Counted"))
        // The next request draws again, and succeeds.
        _ = try rasterizer.image(for: component, size: Size(10))
        #expect(component.draws.count == 2)
        #expect(rasterizer.statistics.failures == 1)
    }

    @Test func invalidRequestsAreTypedErrors() {
        let rasterizer = Rasterizer()
        let component = Counted(label: "x", draws: Counter())
        #expect(throws: RenderError.self) { _ = try rasterizer.image(for: component, size: Size(width: 0, height: 1)) }
        #expect(throws: RenderError.self) { _ = try rasterizer.image(for: component, size: Size(10), scale: .nan) }
        #expect(throws: RenderError.self) { _ = try rasterizer.image(for: component, size: Size(width: 1e9, height: 1)) }
        #expect(component.draws.count == 0)
    }

    @Test func keysAreComputedAtRequestTime() throws {
        let rasterizer = Rasterizer()
        var component = Counted(label: "before", draws: Counter())
        let first = try rasterizer.image(for: component, size: Size(4))
        component.color = .blue
        let second = try rasterizer.image(for: component, size: Size(4))
        #expect(first.pixel(x: 1, y: 1) != second.pixel(x: 1, y: 1))
        #expect(rasterizer.key(for: component, size: Size(4)).stateDescription.contains("#0000FF"))
    }

    @Test func manyThreadsAskingForOneKeyGetOneDraw() throws {
        let rasterizer = Rasterizer()
        let gate = Gate()
        let component = Counted(label: "shared", draws: Counter(), gate: gate)
        let threads = 12
        let done = DispatchGroup()
        let images = Lock<[RasterImage]>([])
        for _ in 0..<threads {
            done.enter()
            Thread {
                if let image = try? rasterizer.image(for: component, size: Size(8)) { images.withLock { $0.append(image) } }
                done.leave()
            }.start()
        }
        // Hold the one draw open until every other thread is waiting on it.
        #expect(Gate.wait { rasterizer.statistics.coalesced + rasterizer.statistics.memoryHits == threads - 1 })
        gate.open()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(component.draws.count == 1)
        #expect(images.withLock { $0.count } == threads)
    }
}
