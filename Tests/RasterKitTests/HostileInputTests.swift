import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Issue 24's findings, replayed with small generated inputs: each must end in a typed error
/// for that input alone, quickly and within bounded memory — never a trap or an exhausted process.
@Suite struct HostileSVGTests {
    /// An SVG declaring one entity of `entityBytes` characters and using it `uses` times in `<text>`.
    static func entityBomb(entityBytes: Int, uses: Int) -> Data {
        let value = String(repeating: "A", count: entityBytes)
        let references = String(repeating: "&big;", count: uses)
        return Data("""
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY big "\(value)"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><text x="0" y="15">\(references)</text></svg>
            """.utf8)
    }

    @Test func anEntityRepeatedInsideTextIsRefusedBeforeLibrsvgSeesIt() {
        let bomb = Self.entityBomb(entityBytes: 10_000, uses: 20_000)   // 70 KB that would expand to 200 MB
        #expect(bomb.count < 200_000)
        let error = #expect(throws: SVGError.self) { _ = try SVGDocument(data: bomb) }
        guard case .overLimit = error else { Issue.record("\(String(describing: error))"); return }
    }

    /// Found by replaying the attack: an entity whose replacement is itself markup makes
    /// `<text>` elements the scan never sees as tags, written plainly or as character references.
    @Test(arguments: ["<text>", "&#60;text&#62;", "&#x3C;text&#x3E;"])
    func textMadeByAnEntityOfMarkupCountsAgainstTheLimit(open: String) {
        let close = open.replacingOccurrences(of: "text", with: "/text")
        let value = open + String(repeating: "W", count: 1_000) + close
        let svg = Data("""
            <?xml version="1.0"?>
            <!DOCTYPE svg [<!ENTITY t "\(value)">]>
            <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><g>\(String(repeating: "&t;", count: 200))</g></svg>
            """.utf8)
        #expect(svg.count < 10_000)
        let error = #expect(throws: SVGError.self) { _ = try SVGDocument(data: svg) }
        guard case .overLimit = error else { Issue.record("\(String(describing: error))"); return }
        // A few such uses stay within the limit and load.
        let small = Data("""
            <!DOCTYPE svg [<!ENTITY t "\(open)Hi\(close)">]>
            <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><g>&t;&t;</g></svg>
            """.utf8)
        #expect(throws: Never.self) { _ = try SVGDocument(data: small) }
    }

    /// Found by replaying the attack: `<use>` elements referring to groups of two `<use>`
    /// elements, level upon level, make 2ⁿ copies from a kilobyte — drawn in one librsvg call no
    /// time limit can stop. Counted before librsvg sees the document.
    @Test func useElementsThatDoubleLevelByLevelAreRefused() throws {
        func document(levels: Int) -> Data {
            var groups = "<g id=\"g0\"><path d=\"M0 0 L10 10\" stroke=\"red\"/></g>"
            for level in 1...levels {
                groups += "<g id=\"g\(level)\"><use href=\"#g\(level - 1)\"/><use xlink:href=\"#g\(level - 1)\" x=\"1\"/></g>"
            }
            return Data(("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                + "width=\"100\" height=\"100\"><defs>\(groups)</defs><use href=\"#g\(levels)\"/></svg>").utf8)
        }
        let bomb = document(levels: 14)   // 16,384 copies from about 1 KB
        #expect(bomb.count < 2_000)
        let error = #expect(throws: SVGError.self) { _ = try SVGDocument(data: bomb) }
        guard case .overLimit(let what, _, _, _) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(what.contains("<use>"))
        // A few levels are an ordinary document.
        #expect(throws: Never.self) { _ = try SVGDocument(data: document(levels: 5)) }
        // References in a cycle are counted as too many, not followed for ever.
        let cycle = Data(##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>"##.utf8)
        #expect(throws: SVGError.self) { _ = try SVGDocument(data: cycle) }
    }

    /// The count itself must stay cheap and shallow: groups with ids nested a hundred thousand
    /// deep around one `<use>`, and a chain of thousands of `<use>` references, are measured
    /// without a record per level of nesting or a walk as deep as the chain.
    @Test func deepNestingAndLongChainsAreMeasuredWithoutDeepWalks() {
        let depth = 100_000
        var nested = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><path id=\"p\" d=\"M0 0h1\"/>"
        for level in 0..<depth { nested += "<g id=\"n\(level)\">" }
        nested += "<use href=\"#p\"/>" + String(repeating: "</g>", count: depth) + "</svg>"
        #expect(throws: SVGError.self) { _ = try SVGDocument(data: Data(nested.utf8)) }
        var chain = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><defs><path id=\"c0\" d=\"M0 0h1\"/>"
        for link in 1...5_000 { chain += "<use id=\"c\(link)\" href=\"#c\(link - 1)\"/>" }
        chain += "</defs><use href=\"#c5000\"/></svg>"
        #expect(throws: SVGError.self) { _ = try SVGDocument(data: Data(chain.utf8)) }
    }

    @Test func entitiesNestedInEachOtherAreMeasuredExpanded() {
        // Each level ten of the one before: ten levels would be 10^10 bytes.
        var declarations = "<!ENTITY e0 \"AAAAAAAAAA\">"
        for level in 1...9 {
            declarations += "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 10) + "\">"
        }
        let svg = Data("""
            <!DOCTYPE svg [ \(declarations) ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><desc>&e9;</desc></svg>
            """.utf8)
        let error = #expect(throws: SVGError.self) { _ = try SVGDocument(data: svg) }
        guard case .overLimit = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func plainTextOverTheLimitIsRefused() {
        let text = String(repeating: "lorem ipsum ", count: 20_000)
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>\#(text)</text></svg>"#.utf8)
        #expect(throws: SVGError.self) { _ = try SVGDocument(data: svg) }
        var limits = ResourceLimits.default
        limits.maximumSVGTextCharacters = 1_000_000
        #expect(throws: Never.self) { _ = try SVGDocument(data: svg, limits: limits) }
    }

    @Test func ordinarySVGsWithTextAndEntitiesStillLoad() throws {
        // Editors write namespaces as entities, and text is ordinary.
        let svg = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
              <!ENTITY ns_svg "http://www.w3.org/2000/svg">
              <!ENTITY label "Résumé &amp; more">
            ]>
            <!-- a comment with <text> inside it -->
            <svg xmlns="&ns_svg;" width="120" height="30"><text x="2" y="20">&label; <tspan>and a tspan</tspan></text>
            <![CDATA[ ignored ]]></svg>
            """.utf8)
        let document = try SVGDocument(data: svg)
        #expect(document.intrinsicSize == Size(width: 120, height: 30))
        var inspection = SVGInspection(limit: 1 << 20)
        let scanned = inspection.scan([UInt8](svg))
        #expect(scanned)
        #expect(inspection.textCharacters == "Résumé & more and a tspan".count)
    }

    @Test func entitiesThatReferToThemselvesAreRefused() {
        let svg = Data("""
            <!DOCTYPE svg [ <!ENTITY a "&b;"> <!ENTITY b "&a;"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a;</text></svg>
            """.utf8)
        #expect(throws: SVGError.self) { _ = try SVGDocument(data: svg) }
    }

    @Test func aCompressedSVGThatInflatesPastTheLimitIsRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        let plain = directory.appendingPathComponent("bomb.svg")
        // 64 MiB of spaces inside an SVG: a few tens of kilobytes once compressed.
        var bytes = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#.utf8)
        bytes.append(Data(repeating: 0x20, count: 64 << 20))
        bytes.append(Data("</svg>".utf8))
        try bytes.write(to: plain)
        try #require(try ChildProcess("/bin/gzip", ["-9", plain.path]).waitUntilExit() == .success)
        let compressed = try Data(contentsOf: directory.appendingPathComponent("bomb.svg.gz"))
        #expect(compressed.count < 1 << 20)
        let error = #expect(throws: SVGError.self) { _ = try SVGDocument(data: compressed) }
        guard case .overLimit = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func aBatchDocumentOverTheLimitFailsItsRenderOnly() throws {
        let bomb = SVGDocument(unvalidatedData: Self.entityBomb(entityBytes: 5_000, uses: 5_000), externalReferences: .blocked,
                               source: "bomb.svg")
        let fine = SVGDocument(unvalidatedData: SVGSamples.redSquare, externalReferences: .blocked, source: "star.svg")
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 1 << 20))
        #expect(throws: RenderError.self) { _ = try rasterizer.image(for: SVGImage(bomb), size: Size(24), scale: 1) }
        #expect(throws: Never.self) { _ = try rasterizer.image(for: SVGImage(fine), size: Size(24), scale: 1) }
    }
}

@Suite struct HostileShadowTests {
    static let unit = Rect(x: 2, y: 2, width: 10, height: 10)

    @Test(arguments: [1e300, .infinity, .nan, -1, 100_000, 20_000])
    func shadowBlursOverTheLimitAreTypedErrors(blur: Double) {
        let started = ContinuousClock.now
        let error = #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(20)) { canvas in
                canvas.withShadow(Shadow(color: .black, offset: Point(x: 0, y: 1), blur: blur)) {
                    canvas.fill(Path(rect: Self.unit), with: .color(.white))
                }
            }
        }
        guard case .limitExceeded = error else { Issue.record("\(String(describing: error))"); return }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test(arguments: [Point(x: 1e300, y: 0), Point(x: 0, y: -.infinity), Point(x: .nan, y: 0), Point(x: 20_000, y: 0)])
    func shadowOffsetsOverTheLimitAreTypedErrors(offset: Point) {
        #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(20)) { canvas in
                canvas.withShadow(Shadow(color: .black, offset: offset, blur: 2)) {
                    canvas.fill(Path(rect: Self.unit), with: .color(.white))
                }
            }
        }
        #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(20)) { canvas in
                canvas.drawInnerShadow(Shadow(color: .black, offset: offset, blur: 2), in: Path(rect: Self.unit))
            }
        }
    }

    @Test func aShadowWhoseLayerWouldBeOverThePixelLimitIsRefusedBeforeAllocating() {
        // Within the blur limit, but at this scale its margin alone is wider than any surface.
        var limits = ResourceLimits.default
        limits.pixels = PixelLimits(maximumSide: 2_000, maximumPixelCount: 4_000_000)
        let error = #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(100), scale: 10, limits: limits) { canvas in
                canvas.withShadow(Shadow(color: .black, blur: 900)) { canvas.fill(Path(rect: Self.unit), with: .color(.white)) }
            }
        }
        guard case .limitExceeded = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func shadowsWithinTheLimitsStillDraw() throws {
        let image = try RasterImage(size: Size(40)) { canvas in
            canvas.withShadow(Shadow(color: .black, offset: Point(x: 0, y: 2), blur: 6)) {
                canvas.fill(Path(rect: Rect(x: 10, y: 10, width: 20, height: 20)), with: .color(.white))
            }
        }
        #expect(image.pixel(x: 20, y: 34).alpha > 0)   // the shadow below the square
    }
}

@Suite(.serialized) struct MemoryBudgetTests {
    @Test func aSurfaceLargerThanTheBudgetFailsItsRender() {
        var limits = ResourceLimits.default
        limits.memoryBudget = 1 << 20
        let error = #expect(throws: RenderError.self) { _ = try RasterImage(size: Size(1_000), limits: limits) { _ in } }
        guard case .memoryBudgetExceeded = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func intermediateSurfacesCountAgainstTheBudget() {
        var limits = ResourceLimits.default
        limits.memoryBudget = 1_500_000   // a 500² surface (1 MB) fits; its shadow layer does not
        let error = #expect(throws: RenderError.self) {
            _ = try RasterImage(size: Size(500), limits: limits) { canvas in
                canvas.withShadow(Shadow(color: .black, blur: 4)) { canvas.fill(Path(rect: Rect(x: 0, y: 0, width: 500, height: 500)), with: .color(.white)) }
            }
        }
        guard case .memoryBudgetExceeded = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func concurrentRendersTakeTurnsWithinTheBudget() async throws {
        struct Large: Rasterizable {
            var index: Int
            func draw(in canvas: Canvas, size: Size) throws {
                canvas.fill(Path(rect: Rect(size: size)), with: .color(Color(white: Double(index) / 10)))
                Thread.sleep(forTimeInterval: 0.02)
                HighWaterMark.sample()
            }
        }
        var limits = ResourceLimits.default
        let surface = 400 * 400 * 4
        limits.memoryBudget = surface * 3   // room for one at a time, with headroom
        let rasterizer = Rasterizer(cache: RasterCache(memoryLimit: 0), limits: limits, maxConcurrentDraws: 4)
        HighWaterMark.watch(rasterizer.memory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask { _ = try await rasterizer.image(for: Large(index: index), size: Size(400), scale: 1, priority: .urgent) }
            }
            try await group.waitForAll()
        }
        #expect(HighWaterMark.value >= surface)
        #expect(HighWaterMark.value <= limits.memoryBudget ?? 0)
        #expect(rasterizer.memory.bytesInUse == 0)
    }

    @Test func finishedImagesDoNotHoldTheBudget() throws {
        var limits = ResourceLimits.default
        limits.memoryBudget = 1_500_000
        let rasterizer = Rasterizer(cache: RasterCache(), limits: limits)
        // Each 500² image (1 MB) stays in the cache, yet the next render still finds room.
        for index in 0..<4 {
            _ = try rasterizer.image(for: Solid(index: index), size: Size(500))
        }
        #expect(rasterizer.cache.memory.statistics.count == 4)
        #expect(rasterizer.memory.bytesInUse == 0)
    }

    struct Solid: Rasterizable {
        var index: Int
        func draw(in canvas: Canvas, size: Size) throws {
            canvas.fill(Path(rect: Rect(size: size)), with: .color(Color(white: Double(index) / 4)))
        }
    }
}

/// The most pixel memory seen reserved in one budget while a test's draws ran.
enum HighWaterMark {
    nonisolated(unsafe) private static var highest = 0
    nonisolated(unsafe) private static var watched: MemoryBudget?
    private static let lock = NSLock()
    static func watch(_ budget: MemoryBudget) { lock.withLock { highest = 0; watched = budget } }
    static func sample() { lock.withLock { highest = max(highest, watched?.bytesInUse ?? 0) } }
    static var value: Int { lock.withLock { highest } }
}

@Suite struct TimeLimitTests {
    struct Slow: Rasterizable {
        var steps: Int
        func draw(in canvas: Canvas, size: Size) throws {
            for step in 0..<steps {
                if canvas.isCancelled { return }
                Thread.sleep(forTimeInterval: 0.01)
                canvas.fill(Path(rect: Rect(x: Double(step % 10), y: 0, width: 1, height: 1)), with: .color(.black))
            }
        }
    }

    @Test func aRenderPastItsTimeLimitFailsAndIsNotCached() {
        var limits = ResourceLimits.default
        limits.timeLimit = 0.05
        let rasterizer = Rasterizer(cache: RasterCache(), limits: limits)
        let error = #expect(throws: RenderError.self) { _ = try rasterizer.image(for: Slow(steps: 500), size: Size(10)) }
        guard case .timeLimitExceeded = error else { Issue.record("\(String(describing: error))"); return }
        #expect(rasterizer.cache.memory.statistics.count == 0)
        #expect(throws: Never.self) { _ = try rasterizer.image(for: Slow(steps: 1), size: Size(10)) }
    }
}

@Suite struct HostileManifestTests {
    func load(_ text: String, limits: ResourceLimits = .default) throws(ManifestError) -> Manifest {
        try Manifest(data: Data(text.utf8), file: "manifest.yaml", directory: URL(fileURLWithPath: "/nonexistent"), limits: limits)
    }

    @Test func variablesThatRepeatEachOtherAreStoppedAtTheLengthLimit() {
        // Seven levels of ten copies of the one before: 10⁸ characters from 500 bytes.
        var variables = "v0: \"0123456789\"\n"
        for level in 1...7 {
            variables += "  v\(level): \"" + String(repeating: "${v\(level - 1)}", count: 10) + "\"\n"
        }
        let text = """
            variables:
              \(variables)
            components:
              label:
                sizes: [20]
                layers:
                  - text: {text: "${v7}"}
            """
        #expect(text.utf8.count < 600)
        let error = #expect(throws: ManifestError.self) { _ = try load(text) }
        #expect(error?.problems.contains { $0.message.contains("longer than") } == true)
        // No problem echoes the megabytes it was given.
        #expect(error.map { $0.description.utf8.count < 10_000 } == true)
    }

    /// Found by replaying the attack: components that each use the one before twice made keying
    /// (and comparing) a parent walk its children's layers 2ⁿ times. A child is keyed by its
    /// digest, worked out once.
    @Test func componentsUsingEachOtherTwiceAtEveryLevelPlanInLinearTime() throws {
        var components = "components:\n  c0:\n    sizes: [\"10x10\"]\n    layers:\n      - rect: {fill: red}\n"
        for level in 1...40 {
            components += "  c\(level):\n    sizes: [\"10x10\"]\n    layers:\n"
            components += "      - use: {component: c\(level - 1), frame: [0, 0, 10, 10]}\n"
            components += "      - use: {component: c\(level - 1), frame: [0, 0, 5, 5]}\n"
        }
        let manifest = try load(components)
        let plan = try manifest.plan()
        #expect(plan.outputs.count == 41)
        // Different children still give different keys.
        var keys = Set<String>()
        for output in plan.outputs {
            let fingerprint = try #require(output.fingerprint)
            keys.insert(try fingerprint())
        }
        #expect(keys.count == 41)
    }

    /// Found by replaying the attack: each expanded string under the limit, a hundred of them
    /// over it in sum.
    @Test func variablesExpandingPastTheTotalInAllAreAProblem() {
        var limits = ResourceLimits.default
        limits.maximumInterpolatedLength = 10_000
        var text = "variables:\n  p0: \"" + String(repeating: "L1 1 ", count: 900) + "\"\n  p1: \"${p0} ${p0}\"\n"
        text += "components:\n  fan:\n    sizes: [20]\n    layers:\n"
        for _ in 0..<30 { text += "      - path: {data: \"M0 0 ${p1}\", fill: black}\n" }
        let error = #expect(throws: ManifestError.self) { _ = try load(text, limits: limits) }
        #expect(error?.problems.first?.message.contains("in all") == true, "\(String(describing: error))")
        #expect(error?.problems.filter { $0.message.contains("in all") }.count == 1)
        // Ten of them fit.
        let fewer = text.components(separatedBy: "\n").prefix(8 + 10).joined(separator: "\n") + "\n"
        #expect(throws: Never.self) { _ = try load(fewer, limits: limits) }
        // A whole-value reference is counted as well: each use is drawn.
        var whole = "variables:\n  t: \"" + String(repeating: "x", count: 9_000) + "\"\n"
        whole += "components:\n  fan:\n    sizes: [20]\n    layers:\n"
        for _ in 0..<30 { whole += "      - text: {text: $t}\n" }
        let wholeError = #expect(throws: ManifestError.self) { _ = try load(whole, limits: limits) }
        #expect(wholeError?.problems.contains { $0.message.contains("in all") } == true, "\(String(describing: wholeError))")
    }

    /// Found by replaying the attack: an `image:` file was decoded under the default limits
    /// whatever the rasterizer's were, so a small PNG that really is 16000² cost a gigabyte for a
    /// 20-point output. It is decoded under the render's own limits and budget.
    @Test func anImageLayerIsDecodedUnderTheRendersLimits() throws {
        let folder = TestScratch.path("rasterkit-image-limits")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = try RasterImage(size: Size(1_200), scale: 1) { $0.fillAll(with: .color(.white)) }
        try large.pngData().write(to: folder.appendingPathComponent("large.png"))
        let text = "components:\n  card:\n    sizes: [20]\n    layers:\n      - image: {file: large.png}\n"
        let manifest = try Manifest(data: Data(text.utf8), file: "m.yaml", directory: folder)
        let output = try #require(try manifest.plan().outputs.first)
        var limits = ResourceLimits.default
        limits.pixels.maximumSide = 1_000
        let strict = Rasterizer(cache: RasterCache(memoryLimit: 0), limits: limits)
        let error = #expect(throws: (any Error).self) { _ = try output.render(strict) }
        #expect("\(String(describing: error))".contains("1200"), "\(String(describing: error))")
        limits.pixels.maximumSide = 16_384
        limits.memoryBudget = 2_000_000   // the 5.76 MB of decoded pixels do not fit
        let tight = Rasterizer(cache: RasterCache(memoryLimit: 0), limits: limits)
        let budget = #expect(throws: (any Error).self) { _ = try output.render(tight) }
        #expect("\(String(describing: budget))".contains("budget") || "\(String(describing: budget))".contains("memory"),
                "\(String(describing: budget))")
        // Under the defaults it draws.
        #expect(throws: Never.self) { _ = try output.render(Rasterizer(cache: RasterCache(memoryLimit: 0))) }
    }

    /// A text layer's own text is held to the same bound: Pango lays out every character.
    @Test func aTextLongerThanTheLimitIsAProblemAndAShorterOneLoads() throws {
        func manifest(_ characters: Int) -> String {
            "components:\n  label:\n    sizes: [20]\n    layers:\n      - text: {text: \""
                + String(repeating: "ab ", count: characters / 3) + "\"}\n"
        }
        var limits = ResourceLimits.default
        limits.maximumInterpolatedLength = 30_000
        let error = #expect(throws: ManifestError.self) { _ = try load(manifest(60_000), limits: limits) }
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.contains("the limit is 30000") == true, "\(String(describing: error))")
        #expect(throws: Never.self) { _ = try load(manifest(3_000), limits: limits) }
    }

    @Test func aHugeValueQuotedInAProblemIsShortened() {
        let huge = String(repeating: "x", count: 200_000)
        let text = """
            components:
              chip:
                sizes: [20]
                layers:
                  - rect: {fill: "\(huge)"}
            """
        let error = #expect(throws: ManifestError.self) { _ = try load(text) }
        #expect(error?.problems.count == 1)
        #expect((error?.problems.first?.message.count ?? .max) < 500)
    }

    @Test(arguments: ["{blur: 1e300}", "{blur: 100000}", "{offset: [1e300, 0]}", "{offset: [0, -20000]}"])
    func shadowValuesOverTheLimitsAreManifestProblems(shadow: String) {
        let text = """
            components:
              card:
                sizes: [40]
                layers:
                  - rect: {fill: white, shadow: \(shadow)}
                  - rect: {fill: white, innerShadow: \(shadow)}
                  - group: {shadow: \(shadow), layers: [{rect: {fill: red}}]}
                  - text: {text: Hi, shadow: \(shadow)}
            """
        let error = #expect(throws: ManifestError.self) { _ = try load(text) }
        #expect(error?.problems.count == 4)
        #expect(error?.problems.allSatisfy { $0.line >= 5 } == true)
    }

    @Test func aManifestCanLowerItsLimitsButNotRaiseThem() throws {
        let lowered = try load("""
            limits: {timeLimit: 5, memoryBudget: 64MB, maxSide: 1024, maxShadowBlur: 10}
            components:
              chip: {sizes: [20], layers: [{rect: {fill: red}}]}
            """)
        #expect(lowered.limits.timeLimit == 5 && lowered.limits.memoryBudget == 64 << 20)
        #expect(lowered.limits.pixels.maximumSide == 1024 && lowered.limits.maximumShadowBlur == 10)

        var strict = ResourceLimits.untrusted
        strict.memoryBudget = 32 << 20
        let error = #expect(throws: ManifestError.self) {
            _ = try load("""
                limits: {timeLimit: 60, memoryBudget: 1GB, maxSide: 100000}
                components:
                  chip: {sizes: [20], layers: [{rect: {fill: red, shadow: {blur: 50}}}]}
                """, limits: strict)
        }
        #expect(error?.problems.filter { $0.message.contains("can only lower") }.count == 3)
    }

    @Test func aManifestLargerThanTheInputLimitIsRefused() {
        var limits = ResourceLimits.default
        limits.maximumInputBytes = 1_000
        let text = "components: {}\n" + String(repeating: "# padding\n", count: 200)
        let error = #expect(throws: ManifestError.self) { _ = try load(text, limits: limits) }
        #expect(error?.problems.first?.message.contains("larger than") == true)
    }
}
