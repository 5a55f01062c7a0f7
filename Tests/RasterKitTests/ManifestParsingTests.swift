import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Every layer kind and property a manifest can hold, read into resolved layers.
@Suite struct ManifestParsingTests {
    private func hex(_ text: String) -> Color { (try? Color(hex: text)) ?? .clear }

    @Test func shapesWithFillsStrokesAndShadows() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              shapes:
                sizes: ["100x50"]
                layers:
                  - rect: {fill: "#FF0000"}
                  - roundedRect:
                      frame: [1, 2, 30, 20]
                      radius: [1, 2, 3, 4]
                      fill: {linear: {colors: ["#000", "#FFF"], stops: [0.2, 0.8], from: [0, 0], to: [1, 0], extend: reflect}}
                      stroke: {color: "#00FF0080", width: 2, cap: round, join: bevel, dash: [4, 2], dashPhase: 1, miterLimit: 4}
                      shadow: {color: "#0000004D", offset: [0, 2], blur: 4}
                      innerShadow: {color: white, offset: [0, 1], blur: 0}
                      opacity: 0.5
                      blendMode: multiply
                  - roundedRect: {inset: [1, 2], radius: {topLeft: 5, bottomRight: 7}, stroke: "#123"}
                  - ellipse: {inset: [1, 2, 3, 4], fill: {radial: {colors: [white, black], center: [0.25, 0.75], radius: 0.4}}}
                  - path: {data: "M0 0 L10 10 Z", viewBox: [0, 0, 20, 20], fill: black, fillRule: evenOdd, inset: 5}
                  - path: {data: "M1 1 H5", viewBox: [10, 10], stroke: clear}
            """)
        let layers = manifest.layers("shapes")
        #expect(layers.count == 6)
        #expect(layers[0] == .shape(ShapeLayer(shape: .rect, fill: .color(hex("#FF0000")))))

        var dashed = StrokeStyle(width: 2, cap: .round, join: .bevel, miterLimit: 4, dash: [4, 2], dashPhase: 1)
        dashed.miterLimit = 4
        let expectedRounded = ShapeLayer(
            shape: .roundedRect(CornerRadii(topLeft: 1, topRight: 2, bottomRight: 3, bottomLeft: 4)),
            common: LayerCommon(frame: .rect(Rect(x: 1, y: 2, width: 30, height: 20)), opacity: 0.5, blendMode: .multiply),
            fill: .linear(Gradient(stops: [.init(color: .black, location: 0.2), .init(color: .white, location: 0.8)],
                                   extend: .reflect), start: Point(x: 0, y: 0), end: Point(x: 1, y: 0)),
            stroke: LayerStroke(paint: .color(hex("#00FF0080")), style: dashed),
            shadow: Shadow(color: hex("#0000004D"), offset: Point(x: 0, y: 2), blur: 4),
            innerShadow: Shadow(color: .white, offset: Point(x: 0, y: 1), blur: 0))
        #expect(layers[1] == .shape(expectedRounded))

        #expect(layers[2] == .shape(ShapeLayer(
            shape: .roundedRect(CornerRadii(topLeft: 5, topRight: 0, bottomRight: 7, bottomLeft: 0)),
            common: LayerCommon(frame: .inset(EdgeInsets(horizontal: 2, vertical: 1))),
            stroke: LayerStroke(paint: .color(hex("#123"))))))
        #expect(layers[3] == .shape(ShapeLayer(
            shape: .ellipse, common: LayerCommon(frame: .inset(EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))),
            fill: .radial(Gradient(colors: [.white, .black]), center: Point(x: 0.25, y: 0.75), radius: 0.4))))
        #expect(layers[4] == .shape(ShapeLayer(
            shape: .path(try Path(svgPathData: "M0 0 L10 10 Z"), viewBox: Rect(x: 0, y: 0, width: 20, height: 20)),
            common: LayerCommon(frame: .inset(EdgeInsets(all: 5))), fill: .color(.black), fillRule: .evenOdd)))
        #expect(layers[5] == .shape(ShapeLayer(
            shape: .path(try Path(svgPathData: "M1 1 H5"), viewBox: Rect(x: 0, y: 0, width: 10, height: 10)),
            stroke: LayerStroke(paint: .color(.clear)))))
    }

    @Test func textWithEveryProperty() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              label:
                sizes: ["120x40"]
                layers:
                  - text:
                      text: Hello
                      font: DejaVu Sans Bold 15
                      color: "#0F172A"
                      alignment: right
                      verticalAlignment: bottom
                      wrapping: character
                      maxLines: 2
                      lineSpacing: 3
                      lineHeight: 1.2
                      shadow: {color: "#00000080"}
                      frame: [4, 4, 100, 30]
                  - text: {text: 42}
            """)
        let layers = manifest.layers("label")
        let style = TextStyle(font: "DejaVu Sans Bold 15", color: hex("#0F172A"), alignment: .right,
                              verticalAlignment: .bottom, wrapping: .character, lineSpacing: 3, lineHeightMultiple: 1.2,
                              maxLines: 2)
        #expect(layers[0] == .text(TextLayer(text: "Hello", style: style,
                                             common: LayerCommon(frame: .rect(Rect(x: 4, y: 4, width: 100, height: 30))),
                                             shadow: Shadow(color: hex("#00000080")))))
        // Numbers are text where text is expected; every other property keeps its default.
        #expect(layers[1] == .text(TextLayer(text: "42", style: TextStyle())))
    }

    @Test func imagesSVGsGroupsAndUses() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writePNG("art/logo.png")
        try fixture.writeSVG("icons/star.svg")
        let manifest = try fixture.load("""
            components:
              child:
                states: {a: {}, b: {}}
                caps: [2, 3, 4, 5]
                layers: [rect: {fill: red}]
              scene:
                sizes: ["64x64"]
                layers:
                  - image: {file: art/logo.png, frame: [0, 0, 10, 10], mode: aspectFill, interpolation: nearest}
                  - svg: {file: icons/star.svg, inset: 4, mode: center, tint: "#2F6FEB"}
                  - group:
                      frame: [8, 8, 32, 32]
                      opacity: 0.5
                      blendMode: screen
                      transform: {translate: [10, 0], rotate: 15, scale: [2, 3], origin: [0, 1]}
                      mask: {linear: {colors: [black, clear]}}
                      shadow: {blur: 2}
                      layers: [ellipse: {fill: blue}]
                  - group: {mask: {layers: [rect: {fill: black}]}, transform: {scale: 2}, layers: []}
                  - use: {component: child, state: b, frame: [1, 1, 20, 20], opacity: 0.25}
                  - use: {component: child}
                  - svg: {file: icons/star.svg, mode: aspect-fit, tint: 2f6feb}
            """)
        let layers = manifest.layers("scene")
        #expect(layers.count == 7)
        // The command line's spellings read as the manifest's: a hyphenated mode, digits without `#`.
        if case .svg(let hyphenated) = layers[6] {
            #expect(hyphenated.contentMode == .aspectFit && hyphenated.tint == hex("#2F6FEB"))
        } else {
            Issue.record("layer 7 is \(layers[6])")
        }
        guard case .image(let image) = layers[0], case .svg(let svg) = layers[1], case .group(let group) = layers[2],
              case .group(let masked) = layers[3], case .component(let used) = layers[4],
              case .component(let defaultState) = layers[5] else {
            Issue.record("unexpected layers \(layers)")
            return
        }
        let png = try Data(contentsOf: fixture.folder.appendingPathComponent("art/logo.png"))
        #expect(image == ImageLayer(file: LayerFile(source: "art/logo.png", data: [UInt8](png)),
                                    common: LayerCommon(frame: .rect(Rect(x: 0, y: 0, width: 10, height: 10))),
                                    contentMode: .aspectFill, interpolation: .nearest))
        #expect(svg.document.source == "icons/star.svg" && svg.contentMode == .center && svg.tint == hex("#2F6FEB"))
        #expect(svg.common.frame == .inset(EdgeInsets(all: 4)))
        #expect(group.common == LayerCommon(frame: .rect(Rect(x: 8, y: 8, width: 32, height: 32)), opacity: 0.5, blendMode: .screen))
        #expect(group.transform == LayerTransform(translation: Point(x: 10, y: 0), rotation: 15, scale: Point(x: 2, y: 3),
                                                  origin: Point(x: 0, y: 1)))
        #expect(group.mask == .paint(.linear(Gradient(colors: [.black, .clear]), start: Point(x: 0.5, y: 0), end: Point(x: 0.5, y: 1))))
        #expect(group.shadow == Shadow(color: Color(white: 0, alpha: 0.25), offset: Point(x: 0, y: 2), blur: 2))
        #expect(group.layers == [.shape(ShapeLayer(shape: .ellipse, fill: .color(.blue)))])  // CSS blue
        #expect(masked.mask == .layers([.shape(ShapeLayer(shape: .rect, fill: .color(.black)))]))
        #expect(masked.transform?.scale == Point(x: 2, y: 2))
        #expect(used.component.name == "child/b" && used.component.capInsets == EdgeInsets(top: 2, left: 3, bottom: 4, right: 5))
        #expect(used.common == LayerCommon(frame: .rect(Rect(x: 1, y: 1, width: 20, height: 20)), opacity: 0.25))
        #expect(defaultState.component.name == "child/a", "a use without a state takes the first")
        // The child is not exported on its own: it has no sizes.
        #expect(manifest.component(named: "child")?.items.isEmpty == true)
    }

    @Test func invisibleLayersAreLeftOut() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              c:
                sizes: ["10x10"]
                states: {shown: {on: true}, hidden: {on: false}}
                layers: [rect: {fill: red, visible: "$on"}, ellipse: {fill: blue, visible: no}]
            """)
        #expect(manifest.layers("c", state: "shown").count == 1)
        #expect(manifest.layers("c", state: "hidden").isEmpty)
    }

    @Test func sizesScalesStatesAndOutputs() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            name: Kit
            defaults: {scales: [1, 2], outputs: [png, xcassets]}
            components:
              button:
                sizes: [{width: 160, height: 44}, "120x36", 24, "24x24"]
                states: {normal: {}, pressed: ~}
                layers: [rect: {fill: red}]
              panel:
                sizes: [{width: 300, height: 200, caps: [16, 16, 16, 16], content: [8, 10, 8, 10]}]
                scales: 3
                outputs: ninepatch
                layers: [rect: {fill: red}]
              plain:
                sizes: "10x20"
                caps: 2
                layers: [rect: {fill: red}]
            """)
        #expect(manifest.name == "Kit")
        let button = try #require(manifest.component(named: "button"))
        #expect(button.sizes.map(\.size) == [Size(width: 160, height: 44), Size(width: 120, height: 36), Size(24)])
        #expect(button.scales == [1, 2] && button.outputs == [.png, .xcassets])
        #expect(button.states.map(\.name) == ["normal", "pressed"])
        let panel = try #require(manifest.component(named: "panel"))
        #expect(panel.sizes == [Manifest.ComponentSize(size: Size(width: 300, height: 200), capInsets: EdgeInsets(all: 16),
                                                       contentInsets: EdgeInsets(top: 8, left: 10, bottom: 8, right: 10))])
        #expect(panel.scales == [3] && panel.outputs == [.ninepatch])
        #expect(panel.states.map(\.name) == ["default"], "no states: one named default")
        let plain = try #require(manifest.component(named: "plain"))
        #expect(plain.sizes.first?.capInsets == EdgeInsets(all: 2), "component caps apply to every size")
        #expect(manifest.items.count == 4)
    }

    @Test func svgEntries() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/a.svg")
        let manifest = try fixture.load("""
            svgs:
              - {input: icons, sizes: [16, 32], scales: [1, 2], tint: white, mode: aspectFill, out: glyphs/light}
              - {input: [icons/a.svg], sizes: 8}
            """)
        #expect(manifest.components.isEmpty && manifest.svgs.count == 2)
        let first = manifest.svgs[0]
        #expect(first.folder == "glyphs/light" && first.batch.sizes == [16, 32] && first.batch.scales == [1, 2])
        #expect(first.batch.tint == .white && first.batch.contentMode == .aspectFill)
        #expect(manifest.svgs[1].folder == "" && manifest.svgs[1].batch.contentMode == .stretch)
        let plan = try manifest.plan()
        #expect(plan.outputs.map(\.path).sorted() == ["a-8.png", "glyphs/light/a-16.png", "glyphs/light/a-16@2x.png",
                                                      "glyphs/light/a-32.png", "glyphs/light/a-32@2x.png"])
    }

    /// JSON is read through the same parser, with positions, even indented with tabs.
    @Test func jsonManifests() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let json = "{\n\t\"components\": {\n\t\t\"dot\": {\"sizes\": [\"8x8\"], \"layers\": [{\"ellipse\": {\"fill\": \"#FF0000\"}}]}\n\t}\n}\n"
        let manifest = try fixture.load(json, as: "assets.json")
        #expect(manifest.name == "assets")
        #expect(manifest.layers("dot") == [.shape(ShapeLayer(shape: .ellipse, fill: .color(.red)))])
        let problems = try fixture.problems(json.replacingOccurrences(of: "\"fill\"", with: "\"fil\""), as: "bad.json")
        #expect(problems.located == [#"3:53: unknown key "fil" in ellipse (did you mean "fill"?); expected frame, inset, opacity, blendMode, visible, fill, fillRule, stroke, shadow, innerShadow"#])
        #expect(problems.first?.file.hasSuffix("bad.json") == true)
    }

    /// YAML anchors and merge keys work as in any YAML.
    @Test func anchorsAndMergeKeys() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              a:
                sizes: ["10x10"]
                layers: &shared [rect: &base {fill: red, opacity: 0.5}]
              b:
                sizes: ["10x10"]
                layers: *shared
              c:
                sizes: ["10x10"]
                layers: [rect: {<<: *base, fill: blue}]
            """)
        #expect(manifest.layers("a") == manifest.layers("b"))
        #expect(manifest.layers("c") == [.shape(ShapeLayer(shape: .rect, common: LayerCommon(opacity: 0.5), fill: .color(.blue)))])
    }
}

extension ManifestParsingTests {
    /// The README's manifest example loads and plans as it is printed.
    @Test func theReadmeExampleIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "### The manifest"))
        let start = try #require(readme.range(of: "```yaml\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        for icon in ["bell", "star", "home"] {
            try fixture.write(try Data(contentsOf: root.appendingPathComponent("Examples/icons/\(icon).svg")), to: "icons/\(icon).svg")
        }
        try fixture.writePNG("images/logo.png")
        let manifest = try fixture.load(String(readme[start.upperBound..<end.lowerBound]))
        #expect(manifest.name == "Kit" && manifest.components.map(\.name) == ["button", "panel", "card"])
        #expect(try manifest.plan().outputs.count == 3 * 2 * 3 * 2 + 3 * 3 + 2 * 3 + 3 * 2 * 3)
    }
}
