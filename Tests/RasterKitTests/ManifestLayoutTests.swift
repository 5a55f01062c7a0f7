import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

private let chipManifest = """
    components:
      chip:
        scales: [2]
        sizes: [{height: 28, width: auto, minWidth: 28, maxWidth: 200}]
        states:
          short: {label: "OK"}
          medium: {label: "Beta feature"}
          long: {label: "A much longer label than anyone expected"}
        layers:
          - stack:
              axis: depth
              children:
                - roundedRect: {radius: 14, fill: "#2F6FEB"}
                - stack:
                    axis: horizontal
                    spacing: 6
                    padding: [4, 10, 4, 10]
                    children:
                      - ellipse: {fill: white, width: 10, height: 10}
                      - text: {text: "$label", font: DejaVu Sans Bold 13, color: white, maxLines: 1}
    """

@Suite struct ManifestLayoutTests {
    @Test func autoWidthsFollowEachStatesLabelWithinTheirBounds() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(chipManifest)
        let chip = try #require(manifest.component(named: "chip"))
        let widths = chip.states.map { $0.measuredSizes?.first?.size.width ?? 0 }
        #expect(widths[0] > 28 && widths[0] < widths[1])
        #expect(widths[2] == 200)                                  // held at its maximum
        #expect(chip.states.allSatisfy { $0.measuredSizes?.first?.size.height == 28 })
        #expect(widths.allSatisfy { $0 == $0.rounded() })          // whole points
        // Each state's outputs are drawn at its measured size.
        let out = fixture.folder.appendingPathComponent("out")
        let summary = BatchRenderer(rasterizer: Rasterizer()).run(try manifest.plan(), into: out)
        #expect(summary.failed == 0)
        for (state, width) in zip(["short", "medium", "long"], widths) {
            let image = try RasterImage(pngData: Data(contentsOf: out.appendingPathComponent("chip-\(state)@2x.png")))
            #expect(image.pixelWidth == Int(width * 2) && image.pixelHeight == 56)
        }
    }

    @Test func aUsedComponentOfAutoSizeTakesItsMeasuredSizeInAStack() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(chipManifest.replacingOccurrences(of: "components:\n", with: """
            components:
              bar:
                scales: [1]
                sizes: [{height: 28, width: auto, maxWidth: 800}]
                states:
                  two: {first: short, second: medium}
                  one: {first: short, second: short}
                layers:
                  - stack:
                      axis: horizontal
                      spacing: 4
                      children:
                        - use: {component: chip, state: "$first"}
                        - use: {component: chip, state: "$second"}
                        - rect: {fill: black, width: 3}

            """))
        let chip = try #require(manifest.component(named: "chip"))
        let chipWidths = Dictionary(uniqueKeysWithValues: chip.states.map { ($0.name, $0.measuredSizes?.first?.size.width ?? 0) })
        let bar = try #require(manifest.component(named: "bar"))
        let barWidths = Dictionary(uniqueKeysWithValues: bar.states.map { ($0.name, $0.measuredSizes?.first?.size.width ?? 0) })
        let short = try #require(chipWidths["short"]), medium = try #require(chipWidths["medium"])
        // The row hugs its chips: each at its own measured width, with the spacing and the rule.
        #expect(barWidths["two"] == short + 4 + medium + 4 + 3)
        #expect(barWidths["one"] == short + 4 + short + 4 + 3)
        // Drawn, the black rule sits right after the second chip.
        let state = try #require(bar.states.first { $0.name == "two" })
        let size = try #require(state.measuredSizes?.first)
        let image = try Rasterizer().image(for: bar.component(state, at: size), size: size.size, scale: 1)
        let ruleStart = Int(short + 4 + medium + 4)
        #expect(image.pixel(x: ruleStart + 1, y: 14).alpha > 200 && image.pixel(x: ruleStart + 1, y: 14).blue < 40)
        #expect(image.pixel(x: Int(short) + 2, y: 14).alpha < 40)   // the gap between the chips
    }

    @Test func aStackLaysOutLikeRasterKitsStack() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              row:
                sizes: ["100x10"]
                layers:
                  - stack:
                      axis: horizontal
                      children:
                        - rect: {fill: black, width: 10}
                        - spacer: {}
                        - rect: {fill: black, width: 10, grow: 0}
                        - spacer: {grow: 3}
                        - rect: {fill: black, width: 10}
            """)
        let component = try #require(manifest.component(named: "row"))
        let image = try Rasterizer().image(for: component.component(component.states[0], at: component.sizes[0]),
                                           size: Size(width: 100, height: 10), scale: 1)
        let inked = (0..<100).filter { image.pixel(x: $0, y: 5).alpha > 200 }
        #expect(inked == Array(0..<10) + Array(28..<37) + Array(90..<100))  // 70 over: 17.5 and 52.5, so 27.5…37.5
    }

    @Test func layoutValuesChangeTheKey() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        func key(_ grow: String) throws -> StableDigest {
            let manifest = try fixture.load("""
                components:
                  row:
                    sizes: ["100x10"]
                    layers:
                      - stack: {axis: horizontal, children: [rect: {fill: black, grow: \(grow)}]}
                """)
            let component = try #require(manifest.component(named: "row"))
            return Rasterizer().key(for: component.component(component.states[0], at: component.sizes[0]),
                                    size: Size(width: 100, height: 10), scale: 1).value
        }
        #expect(try key("1") != key("2"))
        #expect(try key("1") == key("1"))
    }

    @Test func badLayoutValuesAreReportedWhereTheyAre() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              c:
                sizes: ["100x20"]
                layers:
                  - stack:
                      axis: sideways
                      spacing: -4
                      children:
                        - text: {text: a, minWidth: 30, maxWidth: 10}
                        - rect: {fill: black, frame: [0, 0, 4, 4]}
                        - spacer: {minLength: -1}
                        - text: {text: b, grow: -2, align: middle}
                  - rect: {fill: black, width: 10}
                  - spacer: {}
                  - stack: {children: []}
            """)
        #expect(problems.contains(6, 17, #"unknown value "sideways" for axis in stack"#))
        #expect(problems.contains(7, 20, "spacing in stack"))
        #expect(problems.contains(9, 41, "minWidth 30 is above maxWidth 10 in text"))
        #expect(problems.contains(10, 42, "rect is in a stack, which places it"))
        #expect(problems.contains(11, 35, "minLength in spacer"))
        #expect(problems.contains(12, 37, "grow in text must be at least 0"))
        #expect(problems.contains(12, 48, #"unknown value "middle" for align in text"#))
        #expect(problems.contains(13, 36, "width sizes a layer in a stack, and this rect is not in one"))
        #expect(problems.contains(14, 9, "a spacer takes space in a stack"))
        #expect(problems.contains(15, 16, #"stack needs "axis""#))
    }

    @Test func tenThousandChildrenAreRefusedBeforeAnythingIsLaidOut() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let children = Array(repeating: "rect: {fill: black}", count: 10_000).joined(separator: ", ")
        let problems = try fixture.problems("""
            components:
              c:
                sizes: ["100x20"]
                layers:
                  - stack: {axis: vertical, children: [\(children)]}
            """)
        #expect(problems.count == 1)
        #expect(problems[0].message.contains("lists 10000 layers; a stack holds at most 1000"))
    }

    @Test func stacksNestedTooDeeplyAreRefused() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        var layer = "rect: {fill: black}"
        for _ in 0..<70 { layer = "stack: {axis: vertical, children: [\(layer)]}" }
        let problems = try fixture.problems("""
            components:
              c:
                sizes: ["100x20"]
                layers: [\(layer)]
            """)
        #expect(problems.contains { $0.message.contains("stacks are nested more than 64 deep") })
    }

    @Test func badMeasuredSizesAndTextValuesAreReported() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              a:
                sizes: [{width: auto, height: 20, minWidth: 50, maxWidth: 10}]
                layers: [stack: {axis: horizontal, children: [text: {text: a}]}]
              b:
                sizes: [{width: auto, height: 20}]
                layers: [text: {text: b}]
              c:
                sizes: [{width: auto, height: 20, caps: 4}]
                layers: [stack: {axis: horizontal, children: [text: {text: c}]}]
              d:
                sizes: [{width: 30, height: 20, minWidth: 4}]
                layers:
                  - text: {text: d, spans: [{text: x}]}
                  - text: {spans: [{text: x, weight: chunky}, {text: y, underline: maybe}, {txt: z}]}
                  - text: {text: d, minimumScale: 0.5}
                  - text: {text: d, fit: squeeze}
                  - text: {text: d, fit: shrink, minimumScale: 2}
                  - text: {text: d, direction: upward}
            """)
        #expect(problems.contains(3, 49, "minWidth 50 is above maxWidth 10"))
        #expect(problems.contains(6, 13, "a measured (auto) length needs a stack layer"))
        #expect(problems.contains(9, 45, "has caps and a length measured from its layers"))
        #expect(problems.contains(12, 47, "minWidth bounds a length measured from the layers"))
        #expect(problems.contains(14, 22, #"text has both "text" and "spans""#))
        #expect(problems.contains(15, 42, #"unknown weight "chunky""#))
        #expect(problems.contains(15, 72, "underline in a span"))
        #expect(problems.contains(15, 81, #"unknown key "txt""#))
        #expect(problems.contains(16, 39, "minimumScale is how far text shrinks with fit: shrink"))
        #expect(problems.contains(17, 30, #"unknown value "squeeze" for fit in text"#))
        #expect(problems.contains(18, 52, "minimumScale in text must be at most 1"))
        #expect(problems.contains(19, 36, #"unknown value "upward" for direction in text"#))
    }

    @Test func spansFitAndDirectionReachTheTextStyle() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              c:
                sizes: ["100x20"]
                layers:
                  - text:
                      spans: [{text: "Save "}, {text: "$$20", weight: bold, color: "#D00000", font: Serif},
                              {text: " $$25", strikethrough: true, underline: true, weight: 300}]
                      fit: shrink
                      minimumScale: 0.25
                      direction: rtl
                      alignment: natural
            """)
        guard case .text(let text) = manifest.layers("c").first else {
            Issue.record("not a text layer")
            return
        }
        #expect(text.text == "Save $20 $25")
        #expect(text.spans[1] == TextSpan("$20", font: "Serif", weight: .bold, color: try Color(hex: "#D00000")))
        #expect(text.spans[2] == TextSpan(" $25", weight: .light, underline: true, strikethrough: true))
        #expect(text.style.fit == .shrink(minimumScale: 0.25))
        #expect(text.style.direction == .rtl && text.style.alignment == .natural)
    }
}
