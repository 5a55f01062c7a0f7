import Foundation
import Synchronization
import Testing
import RasterKitTesting
@testable import RasterKit
import RasterKitTestSupport

@Suite struct SVGImageTests {
    typealias S = SVGSamples

    // MARK: Content modes (redBlue is 20×10: red left half, blue right half)

    @Test func stretchFillsTheWholeSizeOnEachAxis() throws {
        let image = try S.render(try S.document(S.redBlue), size: Size(40), contentMode: .stretch)
        for y in [0, 20, 39] {
            #expect(image.pixel(x: 0, y: y) == S.red && image.pixel(x: 19, y: y) == S.red)
            #expect(image.pixel(x: 20, y: y) == S.blue && image.pixel(x: 39, y: y) == S.blue)
        }
    }

    @Test func aspectFitScalesUniformlyAndCentres() throws {
        // 20×10 into 40×40: scaled by 2 to 40×20, at y 10..<30.
        let image = try S.render(try S.document(S.redBlue), size: Size(40), contentMode: .aspectFit)
        #expect(image.pixel(x: 5, y: 9) == S.transparent && image.pixel(x: 35, y: 30) == S.transparent)
        #expect(image.pixel(x: 0, y: 10) == S.red && image.pixel(x: 19, y: 29) == S.red)
        #expect(image.pixel(x: 20, y: 10) == S.blue && image.pixel(x: 39, y: 29) == S.blue)
    }

    @Test func aspectFillCoversCentredAndClips() throws {
        // 20×10 into 40×40: scaled by 4 to 80×40 at x −20..<60; the red half shows at 0..<20.
        let image = try S.render(try S.document(S.redBlue), size: Size(40), contentMode: .aspectFill)
        #expect(image.allPixels.allSatisfy { $0.alpha == 255 })
        #expect(image.pixel(x: 0, y: 0) == S.red && image.pixel(x: 19, y: 39) == S.red)
        #expect(image.pixel(x: 20, y: 0) == S.blue && image.pixel(x: 39, y: 39) == S.blue)
    }

    @Test func centerKeepsTheIntrinsicSize() throws {
        // 20×10 at its own size in 40×40: x 10..<30, y 15..<25.
        let image = try S.render(try S.document(S.redBlue), size: Size(40), contentMode: .center)
        #expect(image.pixel(x: 9, y: 20) == S.transparent && image.pixel(x: 30, y: 20) == S.transparent)
        #expect(image.pixel(x: 15, y: 14) == S.transparent && image.pixel(x: 15, y: 25) == S.transparent)
        #expect(image.pixel(x: 10, y: 15) == S.red && image.pixel(x: 19, y: 24) == S.red)
        #expect(image.pixel(x: 20, y: 15) == S.blue && image.pixel(x: 29, y: 24) == S.blue)
        // Larger than the rect: clipped to it, not spilling over the canvas.
        let clipped = try RasterImage(size: Size(40)) { canvas in
            canvas.draw(svg: try S.document(S.redBlue), in: Rect(x: 10, y: 10, width: 10, height: 10), contentMode: .center)
        }
        #expect(clipped.pixel(x: 9, y: 15) == S.transparent && clipped.pixel(x: 20, y: 15) == S.transparent)
        #expect(clipped.pixel(x: 10, y: 15) == S.red && clipped.pixel(x: 19, y: 15) == S.blue)
    }

    @Test(arguments: ContentMode.allCases)
    func eachModeScalesWithTheCanvasScale(mode: ContentMode) throws {
        let document = try S.document(S.redBlue)
        let oneX = try S.render(document, size: Size(20), contentMode: mode)
        let twoX = try S.render(document, size: Size(20), scale: 2, contentMode: mode)
        #expect(twoX.pixelWidth == 40)
        for y in stride(from: 0, to: 20, by: 3) {
            for x in stride(from: 0, to: 20, by: 3) {
                #expect(twoX.pixel(x: 2 * x, y: 2 * y).isClose(to: oneX.pixel(x: x, y: y), tolerance: 2), "\(mode) \(x),\(y)")
            }
        }
    }

    @Test func frameMath() {
        let rect = Rect(x: 0, y: 0, width: 40, height: 40), content = Size(width: 20, height: 10)
        #expect(ContentMode.stretch.frame(forContentOfSize: content, in: rect) == rect)
        #expect(ContentMode.aspectFit.frame(forContentOfSize: content, in: rect) == Rect(x: 0, y: 10, width: 40, height: 20))
        #expect(ContentMode.aspectFill.frame(forContentOfSize: content, in: rect) == Rect(x: -20, y: 0, width: 80, height: 40))
        #expect(ContentMode.center.frame(forContentOfSize: content, in: rect) == Rect(x: 10, y: 15, width: 20, height: 10))
    }

    // MARK: Tint

    @Test func tintRecoloursEveryPaintedPixelKeepingItsAlpha() throws {
        let document = try S.document(S.svg(#"width="10" height="10""#, """
            <rect width="5" height="10" fill="red"/>
            <rect x="5" width="5" height="10" fill="#00FF00" fill-opacity="0.5"/>
            <circle cx="5" cy="5" r="2" fill="#FFFFFF"/>
            """))
        let tint = try Color(hex: "#1C71D8")
        let plain = try S.render(document, size: Size(20))
        let tinted = try S.render(document, size: Size(20), tint: tint)
        for (original, recoloured) in zip(plain.allPixels, tinted.allPixels) {
            #expect(recoloured.alpha == original.alpha)
            if original.alpha > 64 {
                #expect(recoloured.isClose(to: RGBA8(tint).withAlpha(original.alpha), tolerance: 3))
            }
        }
        #expect(tinted.pixel(x: 2, y: 2) == RGBA8(tint))
        #expect(tinted.pixel(x: 17, y: 2).alpha == 128)
    }

    @Test func tintAlphaScalesCoverage() throws {
        let image = try S.render(try S.document(S.redSquare), size: Size(4), tint: Color.blue.withAlpha(0.5))
        #expect(image.pixel(x: 1, y: 1).isClose(to: RGBA8(red: 0, green: 0, blue: 255, alpha: 128), tolerance: 1))
    }

    // MARK: State and cache

    @Test func keyIsDigestPlusModeAndTint() throws {
        let rasterizer = Rasterizer()
        let a = try SVGDocument(data: S.redBlue, source: "a.svg")
        let sameBytesElsewhere = try SVGDocument(data: S.redBlue, source: "other/path.svg")
        func key(_ image: SVGImage) -> CacheKey { rasterizer.key(for: image, size: Size(24), scale: 2) }
        #expect(key(SVGImage(a)) == key(SVGImage(sameBytesElsewhere)))
        #expect(key(SVGImage(a)) != key(SVGImage(try S.document(S.redSquare))))
        #expect(key(SVGImage(a)) != key(SVGImage(a, contentMode: .stretch)))
        #expect(key(SVGImage(a, tint: .red)) != key(SVGImage(a)))
        #expect(key(SVGImage(a, tint: .red)) != key(SVGImage(a, tint: .blue)))
        #expect(key(SVGImage(a, tint: .red)) == key(SVGImage(a, tint: Color(red: 1, green: 0, blue: 0))))
        let described = key(SVGImage(a, tint: .red)).description
        #expect(described.contains("a.svg") && described.contains("aspectFit") && described.contains("#FF0000"))
    }

    @Test func anUnchangedFileIsServedFromCacheAndAChangedFileIsRedrawn() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("icon.svg")
        try S.redSquare.write(to: file)
        let rasterizer = Rasterizer()

        let first = try rasterizer.render(RenderRequest(SVGImage(try SVGDocument(contentsOf: file)), size: Size(8)))
        #expect(first.origin == .drawn)
        // Read again from disk: a new document value, the same bytes.
        let again = try rasterizer.render(RenderRequest(SVGImage(try SVGDocument(contentsOf: file)), size: Size(8)))
        #expect(again.origin == .memory)
        #expect(again.key == first.key)

        try Data(String(decoding: S.redSquare, as: UTF8.self).replacingOccurrences(of: "fill=\"red\"", with: "fill=\"blue\"").utf8)
            .write(to: file)
        let changed = try rasterizer.render(RenderRequest(SVGImage(try SVGDocument(contentsOf: file)), size: Size(8)))
        #expect(changed.origin == .drawn)
        #expect(changed.key != first.key)
        #expect(changed.image.pixel(x: 4, y: 4) == S.blue)
        #expect(rasterizer.statistics.draws == 2)
    }

    @Test func malformedDocumentsFailTheDrawWithTheirError() throws {
        // Batches make unparsed documents; drawing reports what parsing would have.
        let broken = SVGDocument(unvalidatedData: Data("<svg".utf8), externalReferences: .blocked, source: "broken.svg")
        #expect(broken.intrinsicSize == .zero)
        let rasterizer = Rasterizer()
        do {
            _ = try rasterizer.image(for: SVGImage(broken), size: Size(8))
            Issue.record("drawing a malformed SVG succeeded")
        } catch let RenderError.drawFailed(_, _, underlying) {
            guard case .malformed(_, "broken.svg")? = underlying as? SVGError else {
                Issue.record("unexpected underlying error \(underlying)")
                return
            }
        }
        #expect(rasterizer.cache.memory.statistics.count == 0)
    }

    // MARK: Canvas.draw(svg:in:)

    struct Card: Rasterizable {
        var icon: SVGDocument
        func draw(in canvas: Canvas, size: Size) throws {
            canvas.fill(Path(rect: Rect(size: size)), with: .color(.white))
            canvas.draw(svg: icon, in: Rect(x: 4, y: 4, width: 8, height: 8), contentMode: .stretch, tint: .blue)
        }
    }

    @Test func drawsInsideAnotherComponent() throws {
        let image = try Rasterizer().image(for: Card(icon: try S.document(S.redSquare)), size: Size(16))
        #expect(image.pixel(x: 2, y: 2) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(image.pixel(x: 4, y: 4) == S.blue && image.pixel(x: 11, y: 11) == S.blue)
        #expect(image.pixel(x: 12, y: 12) == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func canvasRecordsSVGErrorsAndThrowsThemAtTheEnd() throws {
        let broken = SVGDocument(unvalidatedData: Data("nope".utf8), externalReferences: .blocked, source: "nope.svg")
        var drewAfterwards = false
        #expect(throws: SVGError.self) {
            _ = try RasterImage(size: Size(8)) { canvas in
                canvas.draw(svg: broken, in: Rect(size: Size(8)))
                canvas.fillAll(with: .color(.red))
                drewAfterwards = true
            }
        }
        #expect(drewAfterwards)
    }

    // MARK: Limits and threads

    @Test func aHugeDeclaredSizeDrawsAtTheRequestedSizeOnly() throws {
        let document = try S.document(S.svg(#"width="1000000" height="1000000" viewBox="0 0 10 10""#,
                                            #"<rect width="10" height="10" fill="red"/>"#))
        #expect(document.intrinsicSize == Size(1_000_000))
        let rasterizer = Rasterizer()
        for mode in ContentMode.allCases {
            let image = try rasterizer.image(for: SVGImage(document, contentMode: mode), size: Size(16))
            #expect(image.pixelWidth == 16 && image.pixelHeight == 16)
        }
        #expect(throws: RenderError.self) {
            try rasterizer.image(for: SVGImage(document), size: document.intrinsicSize)
        }
    }

    @Test func manyThreadsDrawOneDocumentWithTheirOwnHandles() async throws {
        let document = try S.document(S.redBlue)
        let expected = try S.render(document, size: Size(40), contentMode: .stretch)
        try await withThrowingTaskGroup(of: RasterImage.self) { group in
            for _ in 0..<16 {
                group.addTask { try S.render(document, size: Size(40), contentMode: .stretch) }
            }
            for try await image in group { #expect(image == expected) }
        }
    }

    @Test func exampleIconsMatchRsvgConvert() throws {
        let icons = FidelityIcons.packageRoot.appendingPathComponent("Examples/icons")
        let files = try FileManager.default.contentsOfDirectory(atPath: icons.path).filter { $0.hasSuffix(".svg") }
        #expect(files.count >= 12)
        let scratch = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for file in files.sorted() {
            let url = icons.appendingPathComponent(file)
            let document = try SVGDocument(contentsOf: url)
            #expect(document.intrinsicSize == Size(24), "\(file)")
            let image = try Rasterizer().image(for: SVGImage(document, contentMode: .stretch), size: Size(48))
            #expect(image.allPixels.contains { $0.alpha == 255 }, "\(file) draws nothing opaque")
            guard let rsvgConvert = FidelityIcons.rsvgConvert else { continue }
            let expected = scratch.appendingPathComponent(file + ".png")
            try #require(try ChildProcess(rsvgConvert.path, ["-w", "48", "-h", "48", url.path, "-o", expected.path],
                                          output: .null, error: .null).waitUntilExit() == .success, "\(file)")
            let diff = try ImageDiff.compare(RGBABitmap(pngData: Data(contentsOf: expected)), RGBABitmap(image),
                                             makeDiffImage: false)
            #expect(diff.differentPixels == 0, "\(file): \(diff.differentPixels) pixels differ from rsvg-convert")
        }
    }
}

extension RGBA8 {
    /// The same colour with another alpha.
    fileprivate func withAlpha(_ alpha: UInt8) -> RGBA8 { RGBA8(red: red, green: green, blue: blue, alpha: alpha) }
}

@Suite struct SVGTextTests {
    /// SVG text is drawn with RasterKit's own fonts (DejaVu), the same on every thread.
    @Test func textIsDrawnTheSameOnEveryThread() async throws {
        let document = try SVGDocument(data: SVGSamples.svg(#"width="60" height="20""#,
            #"<text x="2" y="15" font-family="DejaVu Sans" font-size="14" fill="black">Hig</text>"#))
        #expect(document.mayContainText)
        let here = try SVGSamples.render(document, size: Size(width: 60, height: 20))
        #expect(here.allPixels.filter { $0.alpha > 128 }.count > 30)
        let elsewhere = try await Task.detached { try SVGSamples.render(document, size: Size(width: 60, height: 20)) }.value
        #expect(elsewhere == here)
    }

    /// Whether fonts are set up before drawing: `<text`, or `:text` as in `<svg:text`, anywhere,
    /// including at the very end; gzip-compressed bytes always count.
    @Test(arguments: [("<svg><text>a</text></svg>", true), ("<svg:svg><svg:text>a</svg:text></svg:svg>", true),
                      ("<svg><path d='M0 0'/></svg>", false), ("<svg class='context texture'/>", false),
                      ("<svg/><text", true), ("<svg/>:text", true), ("<svg/><tex", false), ("text", false), ("", false)])
    func textIsFoundInTheBytes(svg: String, hasText: Bool) {
        let document = SVGDocument(unvalidatedData: Data(svg.utf8), externalReferences: .blocked, source: nil)
        #expect(document.mayContainText == hasText)
    }

    @Test func compressedDocumentsCountAsHavingText() {
        let document = SVGDocument(unvalidatedData: Data([0x1F, 0x8B, 0x08, 0x00]), externalReferences: .blocked, source: nil)
        #expect(document.mayContainText)
    }
}
