import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport
@testable import RasterKitBatch

/// A manifest's `post:` and `fallback:`, and `--post` strings: rendering, and positioned errors.
@Suite struct ManifestPostTests {
    @Test func postStepsAreReadWithVariablesAndRendered() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            variables: {accent: "#2F6FEB"}
            components:
              chip:
                sizes: [20]
                scales: [2]
                states: {plain: {radius: 4}, round: {radius: 10}}
                layers: [rect: {fill: red}]
                post:
                  - roundedCorners: $radius
                  - tint: $accent
                  - opacity: 0.5
                  - padding: [1, 2]
                  - resize: {size: [24, 14], mode: stretch}
                  - crop: [0, 0, 24, 12]
                  - gaussianBlur: {radius: 0.5, edges: extend}
                  - dropShadow: {color: "#00000040", offset: [0, 1], blur: 2}
                  - circle
            """)
        let chip = try #require(manifest.component(named: "chip"))
        #expect(chip.states[0].post == [
            .roundedCorners(4), .tint(try Color(hex: "#2F6FEB")), .opacity(0.5), .padding(EdgeInsets(horizontal: 2, vertical: 1)),
            .resize(Size(width: 24, height: 14), .stretch), .crop(Rect(x: 0, y: 0, width: 24, height: 12)),
            .gaussianBlur(0.5, .extend), .dropShadow(Shadow(color: try Color(hex: "#00000040"), offset: Point(x: 0, y: 1), blur: 2)),
            .circle,
        ])
        #expect(chip.states[1].post.first == .roundedCorners(10))
        let rasterizer = Rasterizer()
        let component = chip.renderable(chip.states[0], at: chip.sizes[0])
        let image = try rasterizer.image(for: component, size: Size(20), scale: 2)
        #expect(image.pixelWidth == 48 && image.pixelHeight == 24)
        #expect(image.pixel(x: 0, y: 0).alpha == 0)                       // outside the circle
        #expect(image.pixel(x: 24, y: 12).blue > 200)                     // tinted
        // The states differ in their steps only: two keys.
        #expect(rasterizer.key(for: component, size: Size(20), scale: 2)
                != rasterizer.key(for: chip.renderable(chip.states[1], at: chip.sizes[0]), size: Size(20), scale: 2))
    }

    @Test func aManifestWithPostAndFallbackRendersToFiles() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        // A PNG whose header reads but whose pixels do not: it fails when drawn, not when loaded.
        var broken = try TestSupport.solidImage(.red, width: 8, height: 8).pngData()
        broken.replaceSubrange(broken.count - 20..<broken.count - 12, with: Data(repeating: 0x55, count: 8))
        try fixture.write(broken, to: "broken.png")
        try fixture.writeSVG("icon.svg")
        let manifest = try fixture.load("""
            components:
              initials:
                layers: [rect: {fill: blue}]
              avatar:
                sizes: [16]
                scales: [1, 2]
                layers: [image: {file: broken.png}]
                fallback: initials
                post: [circle]
            svgs:
              - input: icon.svg
                sizes: [12]
                post: [padding: 2, {tint: red}]
            """)
        let output = fixture.folder.appendingPathComponent("out")
        let summary = BatchRenderer(rasterizer: Rasterizer()).run(try manifest.plan(), into: output)
        #expect(summary.failed == 0, "\(summary.failures)")
        // The avatar's two scales were written with their fallback, counted as such.
        #expect(summary.fellBack == 2 && summary.drawn == 1 && summary.written == summary.total)
        #expect(summary.countsDescription == "1 rendered, 0 from cache, 2 with their fallback, 0 failed")
        let decoded = try JSONDecoder().decode(BatchSummary.self, from: JSONEncoder().encode(summary))
        #expect(decoded.fellBack == 2)
        let avatar = try RasterImage(pngData: Data(contentsOf: output.appendingPathComponent("avatar-default@2x.png")))
        #expect(avatar.pixelWidth == 32)
        #expect(avatar.pixel(x: 16, y: 16).blue == 255 && avatar.pixel(x: 0, y: 0).alpha == 0)
        let icon = try RasterImage(pngData: Data(contentsOf: output.appendingPathComponent("icon-12.png")))
        #expect(icon.pixelWidth == 16 && icon.pixelHeight == 16)
        #expect(icon.pixel(x: 0, y: 0).alpha == 0 && icon.pixel(x: 8, y: 8) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test func badStepsAreReportedWhereTheyAre() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              chip:
                sizes: [20]
                layers: [rect: {fill: red}]
                post:
                  - roundCorners: 4
                  - opacity: 2
                  - roundedCorners: -1
                  - tint: "#zz"
                  - circle: 3
                  - padding: [1, 2, 3]
                  - resize: {size: 0}
                  - crop: [0, 0, 0, 4]
                  - gaussianBlur: {radius: 2, edges: wrap}
                  - gaussianBlur: 5000
                  - {tint: red, opacity: 1}
                  - tint
                  - padding: 1e9
            """)
        let messages = problems.map { "\($0.line):\($0.column) \($0.message)" }
        let expected: [(Int, String)] = [
            (6, "unknown step \"roundCorners\""), (7, "must be at most 1"), (8, "must be at least 0"), (9, "bad colour"),
            (10, "takes no parameters"), (11, "[top, left, bottom, right]"), (12, "greater than 0"), (13, "width and height greater than 0"),
            (14, "unknown value \"wrap\""), (15, "must be at most 1000"), (16, "one name with its parameters"), (17, "needs a value"),
            (18, "at most 16384 points"),
        ]
        for (line, text) in expected {
            #expect(messages.contains { $0.hasPrefix("\(line):") && $0.contains(text) }, "line \(line): \(text) in \(messages)")
        }
        #expect(messages.contains { $0.contains("did you mean \"roundedCorners\"") })
    }

    @Test func badFallbacksAreReportedWhereTheyAre() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              a:
                sizes: [20]
                layers: [rect: {fill: red}]
                fallback: b
              b:
                layers: [rect: {fill: blue}]
                fallback: a
              c:
                sizes: [20]
                layers: [rect: {fill: red}]
                fallback: initals
              initials:
                layers: [rect: {fill: blue}]
              d:
                sizes: [20]
                layers: [rect: {fill: red}]
                fallback: [a]
              e:
                sizes: [20]
                layers: [rect: {fill: red}]
                fallback: e
              f:
                sizes: [20]
                layers: [rect: {fill: red}]
                post: roundedCorners
            """)
        let messages = problems.map { "\($0.line):\($0.column) \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("8:15") && $0.contains("cyclic fallback: a → b → a") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("12:15") && $0.contains("unknown component \"initals\"") && $0.contains("did you mean \"initials\"") })
        #expect(messages.contains { $0.hasPrefix("18:15") && $0.contains("must be text") })
        #expect(messages.contains { $0.hasPrefix("22:15") && $0.contains("cyclic fallback: e → e") })
        #expect(messages.contains { $0.hasPrefix("26:11") && $0.contains("roundedCorners in post of component \"f\" needs a value") })
    }

    @Test func unknownKeysNameTheNewOnes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              a:
                sizes: [20]
                layers: [rect: {fill: red}]
                posts: [circle]
            """)
        #expect(problems.contains { $0.line == 5 && $0.message.contains("did you mean \"post\"") })
    }

    @Test func commandLineStepsParseLikeManifests() throws {
        #expect(try PostStep.parse("roundedCorners: 4") == .roundedCorners(4))
        #expect(try PostStep.parse("tint: #2F6FEB") == .tint(try Color(hex: "#2F6FEB")))
        #expect(try PostStep.parse("tint: \"#2F6FEB\"") == .tint(try Color(hex: "#2F6FEB")))
        #expect(try PostStep.parse("circle") == .circle)
        #expect(try PostStep.parse("padding: [2, 4]") == .padding(EdgeInsets(horizontal: 4, vertical: 2)))
        #expect(try PostStep.parse("gaussianBlur: {radius: 3, edges: extend}") == .gaussianBlur(3, .extend))
        #expect(try PostStep.parse("resize: 24") == .resize(Size(24), .aspectFit))
        for bad in ["", "roundedCorners", "roundedCorners: x", "opacity: -1", "tint: #12345", "blur: 3", "[circle]",
                    "padding: 1e300", "{a: 1, b: 2}", "resize: [1, 2, 3]", "crop: [0, 0, 5]", String(repeating: "x", count: 5_000),
                    "gaussianBlur: .nan", "roundedCorners: .inf", "tint: [", "dropShadow: {blur: 1e9}"] {
            #expect(throws: ManifestError.self, "\(bad.prefix(40))") { try PostStep.parse(bad) }
        }
        // The limits in effect bound the values.
        var strict = ResourceLimits.default
        strict.maximumShadowBlur = 10
        #expect(throws: ManifestError.self) { try PostStep.parse("gaussianBlur: 20", limits: strict) }
        do {
            _ = try PostStep.parse("opacity: 3")
        } catch {
            #expect(error.problems.first?.file == "--post")
            #expect(error.problems.first?.column == 10)
        }
    }
}
