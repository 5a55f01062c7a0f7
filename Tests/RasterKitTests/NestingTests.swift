import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

struct Icon: Rasterizable {
    var symbol: String
    let draws: Counter
    static let stateKeyPaths: [PartialKeyPath<Icon> & Sendable] = [\.symbol]
    func draw(in canvas: Canvas, size: Size) throws {
        draws.increment()
        canvas.fill(Path(ellipseIn: Rect(size: size)), with: .color(.blue))
    }
}

struct Toolbar: Rasterizable {
    var count: Int
    let icons: Counter
    static let stateKeyPaths: [PartialKeyPath<Toolbar> & Sendable] = [\.count]
    func draw(in canvas: Canvas, size: Size) throws {
        for index in 0..<count {
            try canvas.draw(Icon(symbol: "star", draws: icons), in: Rect(x: Double(index) * 24, y: 0, width: 24, height: 24))
        }
    }
}

/// Draws itself inside itself, forever.
struct Recursive: Rasterizable {
    var level = 0
    func draw(in canvas: Canvas, size: Size) throws {
        try canvas.draw(Recursive(level: level + 1), in: Rect(size: size).insetBy(dx: 0.01, dy: 0.01))
    }
}

@Suite struct NestingTests {
    @Test func eachChildIsDrawnOnceHoweverManyParentsUseIt() throws {
        let rasterizer = Rasterizer()
        let icons = Counter()
        _ = try rasterizer.image(for: Toolbar(count: 4, icons: icons), size: Size(width: 96, height: 24), scale: 2)
        _ = try rasterizer.image(for: Toolbar(count: 3, icons: icons), size: Size(width: 96, height: 24), scale: 2)
        #expect(icons.count == 1)
        // The child is cached under its own key at the size and scale it occupies.
        let childKey = rasterizer.key(for: Icon(symbol: "star", draws: icons), size: Size(24), scale: 2)
        #expect(rasterizer.cache.memory.contains(childKey))
    }

    @Test func nestedChildrenArePixelExact() throws {
        let rasterizer = Rasterizer()
        let icons = Counter()
        let bar = try rasterizer.image(for: Toolbar(count: 2, icons: icons), size: Size(width: 48, height: 24), scale: 2)
        let icon = try rasterizer.image(for: Icon(symbol: "star", draws: icons), size: Size(24), scale: 2)
        for y in 0..<48 { for x in 0..<48 { #expect(bar.pixel(x: x + 48, y: y) == icon.pixel(x: x, y: y)) } }
    }

    @Test func nestingToAnyDepthWorks() throws {
        struct Doll: Rasterizable {
            var depth: Int
            func draw(in canvas: Canvas, size: Size) throws {
                canvas.stroke(Path(rect: Rect(size: size)), with: .color(.black))
                if depth > 0 { try canvas.draw(Doll(depth: depth - 1), in: Rect(size: size).insetBy(dx: 1, dy: 1)) }
            }
        }
        let image = try Rasterizer().image(for: Doll(depth: Rasterizer.nestingLimit - 1), size: Size(80))
        #expect(image.pixel(x: 0, y: 0).alpha > 0)
    }

    @Test func endlessNestingStopsWithATypedError() {
        let error = #expect(throws: RenderError.self) { _ = try Rasterizer().image(for: Recursive(), size: Size(10)) }
        guard case let .nestingTooDeep(typeName, depth) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(typeName.hasSuffix("Recursive") && depth == Rasterizer.nestingLimit)
    }

    @Test func nestingWorksWithoutARasterizer() throws {
        let icons = Counter()
        let image = try RasterImage(size: Size(24)) { canvas in
            try canvas.draw(Icon(symbol: "star", draws: icons), in: Rect(size: Size(24)))
        }
        #expect(image.pixel(x: 12, y: 12).alpha == 255 && icons.count == 1)
    }

    /// The parent's stored list of nested components decides when a change to one of them
    /// (its `renderVersion`) makes the parent stale, so it must hold the whole tree even when
    /// the child was drawn by another thread.
    @Test func aParentThatJoinsAChildInFlightRecordsTheChildsOwnNestedComponents() throws {
        struct Leaf: Rasterizable {
            static let stateKeyPaths: [PartialKeyPath<Leaf> & Sendable] = []
            static var renderVersion: Int { 7 }
            func draw(in canvas: Canvas, size: Size) throws { canvas.fill(Path(rect: Rect(size: size)), with: .color(.blue)) }
        }
        struct Middle: Rasterizable {
            let gate: Gate
            static let stateKeyPaths: [PartialKeyPath<Middle> & Sendable] = []
            func draw(in canvas: Canvas, size: Size) throws {
                gate.pass()
                try canvas.draw(Leaf(), in: Rect(size: size))
            }
        }
        struct Top: Rasterizable {
            let gate: Gate
            static let stateKeyPaths: [PartialKeyPath<Top> & Sendable] = []
            func draw(in canvas: Canvas, size: Size) throws { try canvas.draw(Middle(gate: gate), in: Rect(size: size)) }
        }
        let rasterizer = Rasterizer()
        let gate = Gate()
        let done = DispatchGroup()
        for component in [Middle(gate: gate) as any Rasterizable, Top(gate: gate)] {
            done.enter()
            Thread {
                _ = try? rasterizer.image(for: component, size: Size(10))
                done.leave()
            }.start()
            // Middle's draw holds its key before Top starts, so Top joins it.
            if component is Middle { #expect(Gate.wait { gate.arrivals == 1 }) }
        }
        #expect(Gate.wait { rasterizer.statistics.coalesced == 1 })
        gate.open()
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(gate.arrivals == 1)

        let stored = try #require(rasterizer.cache.memory.entry(for: rasterizer.key(for: Top(gate: gate), size: Size(10)).value))
        #expect(Set(stored.children) == [
            ComponentVersion(typeName: ComponentKeyPlan.shared(Middle.self).takeUnretainedValue().typeName, renderVersion: 0),
            ComponentVersion(typeName: ComponentKeyPlan.shared(Leaf.self).takeUnretainedValue().typeName, renderVersion: 7),
        ])
    }

    @Test func componentsNestingEachOtherAcrossThreadsFailInsteadOfDeadlocking() throws {
        struct Ping: Rasterizable {
            let started: Counter
            func draw(in canvas: Canvas, size: Size) throws {
                started.increment()
                Gate.wait { started.count >= 2 }
                try canvas.draw(Pong(started: started), in: Rect(size: size))
            }
        }
        struct Pong: Rasterizable {
            let started: Counter
            func draw(in canvas: Canvas, size: Size) throws {
                started.increment()
                Gate.wait { started.count >= 2 }
                try canvas.draw(Ping(started: started), in: Rect(size: size))
            }
        }
        let rasterizer = Rasterizer()
        let started = Counter(), failures = Counter()
        let done = DispatchGroup()
        for start in 0..<2 {
            done.enter()
            Thread {
                do {
                    if start == 0 { _ = try rasterizer.image(for: Ping(started: started), size: Size(10)) }
                    else { _ = try rasterizer.image(for: Pong(started: started), size: Size(10)) }
                } catch {
                    failures.increment()
                }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(failures.count == 2)
    }
}
