import Testing
@testable import RasterKit

@Suite struct PathDataTests {
    private func point(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test func absoluteAndRelativeMoveLineClose() throws {
        let path = try Path(svgPathData: "M10 20 L30 40 l5 5 Z m1 1 l2 0 z")
        #expect(path.elements == [
            .move(to: point(10, 20)), .line(to: point(30, 40)), .line(to: point(35, 45)), .closeSubpath,
            // After Z the current point is the subpath start, so m is relative to (10, 20).
            .move(to: point(11, 21)), .line(to: point(13, 21)), .closeSubpath,
        ])
    }

    @Test func implicitLinetoAfterMoveto() throws {
        #expect(try Path(svgPathData: "M0 0 10 0 10 10").elements
            == [.move(to: point(0, 0)), .line(to: point(10, 0)), .line(to: point(10, 10))])
        #expect(try Path(svgPathData: "m1 1 2 2").elements == [.move(to: point(1, 1)), .line(to: point(3, 3))])
    }

    @Test func horizontalAndVertical() throws {
        #expect(try Path(svgPathData: "M1 2H10V20h-5v-3").elements == [
            .move(to: point(1, 2)), .line(to: point(10, 2)), .line(to: point(10, 20)),
            .line(to: point(5, 20)), .line(to: point(5, 17)),
        ])
    }

    @Test func cubicWithSmoothReflection() throws {
        let path = try Path(svgPathData: "M0 0 C10 0 20 10 20 20 S30 40 40 40 s10 0 10 10")
        #expect(path.elements == [
            .move(to: point(0, 0)),
            .curve(to: point(20, 20), control1: point(10, 0), control2: point(20, 10)),
            .curve(to: point(40, 40), control1: point(20, 30), control2: point(30, 40)),
            .curve(to: point(50, 50), control1: point(50, 40), control2: point(50, 40)),
        ])
        // S without a preceding curve uses the current point as its first control.
        #expect(try Path(svgPathData: "M5 5 S10 10 20 20").elements[1]
            == .curve(to: point(20, 20), control1: point(5, 5), control2: point(10, 10)))
    }

    @Test func quadraticWithSmoothReflection() throws {
        let path = try Path(svgPathData: "M0 0 Q10 0 10 10 T10 30 t0 10 q1 1 2 2")
        #expect(path.elements == [
            .move(to: point(0, 0)),
            .quadCurve(to: point(10, 10), control: point(10, 0)),
            .quadCurve(to: point(10, 30), control: point(10, 20)),
            .quadCurve(to: point(10, 40), control: point(10, 40)),
            .quadCurve(to: point(12, 42), control: point(11, 41)),
        ])
    }

    @Test func arcsEndExactlyAtTheirEndpoint() throws {
        for data in ["M0 0 A10 10 0 0 1 20 0", "M0 0 a10 10 0 1 0 20 0", "M5 5 A3 8 30 1 1 9 12"] {
            let path = try Path(svgPathData: data)
            guard case .curve(let end, _, _) = path.elements.last else { Issue.record("no curve for \(data)"); continue }
            let expected = data.hasSuffix("20 0") ? point(20, 0) : point(9, 12)
            #expect(abs(end.x - expected.x) < 1e-9 && abs(end.y - expected.y) < 1e-9, "\(data)")
        }
    }

    @Test func halfCircleArcPassesThroughTheTop() throws {
        // A sweep-flag-1 arc from (0,0) to (20,0) with radius 10 bulges toward negative y.
        let path = try Path(svgPathData: "M0 0 A10 10 0 0 1 20 0")
        let ends = path.elements.compactMap { element -> Point? in
            if case .curve(let to, _, _) = element { return to }
            return nil
        }
        #expect(ends.contains { abs($0.x - 10) < 1e-9 && abs($0.y + 10) < 1e-9 })
    }

    @Test func tooSmallRadiiAreScaledUpAndZeroRadiiDrawLines() throws {
        let scaled = try Path(svgPathData: "M0 0 A1 1 0 0 1 20 0")
        #expect(scaled.elements.count > 2)
        #expect(try Path(svgPathData: "M0 0 A0 5 0 0 1 20 0").elements == [.move(to: point(0, 0)), .line(to: point(20, 0))])
    }

    @Test func compactNumberSyntax() throws {
        // Signs and second decimal points start new numbers; exponents are part of a number.
        let path = try Path(svgPathData: "M10-5.5.5.5L1e1,2E-1")
        #expect(path.elements == [.move(to: point(10, -5.5)), .line(to: point(0.5, 0.5)), .line(to: point(10, 0.2))])
    }

    @Test func compactArcFlags() throws {
        // Flags may be written without separators: "a1 1 0 00 1 1" reads large-arc 0, sweep 0.
        let compact = try Path(svgPathData: "M0 0a1 1 0 001 1")
        let spaced = try Path(svgPathData: "M0 0a1 1 0 0 0 1 1")
        #expect(compact == spaced)
    }

    @Test func emptyDataIsAnEmptyPath() throws {
        #expect(try Path(svgPathData: "").isEmpty)
        #expect(try Path(svgPathData: "  \n ").isEmpty)
    }

    @Test(arguments: [
        ("L10 10", 0, "moveto"),
        ("M10", 3, "expected a number"),
        ("M10 10 X 5", 7, "unknown command letter 'X'"),
        ("M1 2 A1 1 0 2 1 3 3", 12, "arc flag"),
        ("M1e 2", 2, "exponent"),
        ("M1 2 Z 3", 7, "after closepath"),
        ("M1 2 L", 6, "expected a number"),
        ("M1 2 L 3 .", 9, "expected a number"),
        ("M 1e999 0", 2, "out of range"),
    ])
    func malformedDataReportsWhere(data: String, offset: Int, message: String) {
        let error = #expect(throws: SVGError.self) { try Path(svgPathData: data) }
        guard case let .invalidPathData(found, why, input)? = error else { Issue.record("\(data): \(String(describing: error))"); return }
        #expect(found == offset && input == data, "\(data): \(String(describing: error))")
        #expect(why.contains(message), "\(data): \(String(describing: error))")
    }

    @Test func offsetsCountCharactersNotBytes() {
        let error = #expect(throws: SVGError.self) { try Path(svgPathData: "M1 2 é") }
        guard case let .invalidPathData(offset, _, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(offset == 5)
    }

    @Test func parsedPathFillsTheExpectedPixels() throws {
        let image = try RasterImage(size: Size(width: 10, height: 10)) { canvas in
            canvas.fill(try Path(svgPathData: "M2 2h4v4H2z"), with: .color(.black))
        }
        #expect(image.pixel(x: 3, y: 3) == RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 6, y: 3).alpha == 0)
        #expect(image.pixel(x: 1, y: 1).alpha == 0)
    }
}
