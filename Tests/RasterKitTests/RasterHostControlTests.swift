import Foundation
import Observation
import Testing
@testable import RasterKit

@Observable
private final class Watched: Rasterizable, @unchecked Sendable {
    var color: Color = .red
    @ObservationIgnored let draws = Counter()

    static var stateKeyPaths: [PartialKeyPath<Watched> & Sendable] { [\.color] }

    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        canvas.fillAll(with: .color(color))
    }
}

/// `RasterHost.observesChanges`, its `cacheKey`, and the threads its callbacks run on.
@Suite struct RasterHostControlTests {
    @Test func withoutObservingChangesOnlyRegenerateRegenerates() async throws {
        let draws = Counter()
        let host = RasterHost(component: Counted(label: "a", color: .red, draws: draws), size: Size(4), rasterizer: Rasterizer())
        await host.settle()
        #expect(host.observesChanges)
        host.observesChanges = false
        host.component = Counted(label: "a", color: .blue, draws: draws)
        host.size = Size(6)
        host.scale = 2
        await host.settle()
        try await Task.sleep(for: .milliseconds(50))
        #expect(draws.count == 1 && host.image?.pixel(x: 0, y: 0) == RGBA8(.red) && host.image?.pixelWidth == 4)
        // The key is the current state's, ahead of the image shown.
        #expect(try host.cacheKey == host.rasterizer.key(for: Counted(label: "a", color: .blue, draws: draws), size: Size(6), scale: 2))
        host.regenerate()
        await host.settle()
        #expect(draws.count == 2 && host.image?.pixel(x: 0, y: 0) == RGBA8(.blue) && host.image?.pixelWidth == 12)
        // Turning observation back on catches up with a change made meanwhile, once.
        host.component = Counted(label: "a", color: .green, draws: draws)
        await host.settle()
        #expect(draws.count == 2)
        host.observesChanges = true
        await host.settle()
        #expect(draws.count == 3 && host.image?.pixel(x: 0, y: 0) == RGBA8(.green))
        host.component = Counted(label: "a", color: .red, draws: draws)
        await host.settle()
        #expect(draws.count == 4)
    }

    @Test func anObservableComponentsChangesAreIgnoredWhileNotObserving() async throws {
        let model = Watched()
        let host = RasterHost(component: model, size: Size(4), rasterizer: Rasterizer())
        await host.settle()
        host.observesChanges = false
        model.color = .blue
        try await Task.sleep(for: .milliseconds(100))
        await host.settle()
        #expect(model.draws.count == 1 && host.image?.pixel(x: 0, y: 0) == RGBA8(.red))
        host.observesChanges = true
        await host.settle()
        #expect(model.draws.count == 2 && host.image?.pixel(x: 0, y: 0) == RGBA8(.blue))
        // (Observation resuming after this is RasterHostTests' business: an observed change is
        // reported before it lands, so a check here would race with the change itself.)
    }

    @Test func cacheKeyFollowsTheState() throws {
        let rasterizer = Rasterizer()
        let host = RasterHost(component: Counted(label: "k", draws: Counter()), size: Size(4), rasterizer: rasterizer,
                              drawsSynchronously: true)
        let key = try host.cacheKey
        #expect(rasterizer.cache.memory.contains(key))
        host.size = Size(5)
        #expect(try host.cacheKey != key && rasterizer.cache.memory.contains(try host.cacheKey))
    }

    @Test func callbacksRunOnTheThreadsTheDocumentationNames() async throws {
        // Synchronous drawing: both callbacks on the thread that made the change.
        let host = RasterHost(component: Counted(label: "t0", draws: Counter()), size: Size(4), rasterizer: Rasterizer(),
                              drawsSynchronously: true)
        let threads = Lock<[String: pthread_t]>([:])
        host.onWillRegenerate = { _ in threads.withLock { $0["will"] = pthread_self() } }
        host.onImageUpdated = { _ in threads.withLock { $0["updated"] = pthread_self() } }
        let changer = Thread {
            host.component = Counted(label: "t1", draws: Counter())
            threads.withLock { $0["changer"] = pthread_self() }
        }
        changer.start()
        #expect(await eventually { threads.withLock { $0.count == 3 } })
        let seen = threads.withLock { $0 }
        #expect(pthread_equal(seen["will"]!, seen["changer"]!) != 0 && pthread_equal(seen["updated"]!, seen["changer"]!) != 0)

        // Asynchronous drawing: the image arrives on a task of the global executor, not on
        // RasterKit's render threads.
        host.drawsSynchronously = false
        let name = Lock<String?>(nil)
        host.onImageUpdated = { _ in name.withLock { $0 = Thread.current.name ?? "" } }
        host.component = Counted(label: "t2", draws: Counter())
        #expect(await eventually { name.withLock { $0 } != nil })
        #expect(name.withLock { $0 }?.hasPrefix("RasterKit render") == false)
    }
}
