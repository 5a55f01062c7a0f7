import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// `template: true` (issue 20): PNGs keep only the alpha, in black; the asset catalog marks the
/// image set as a template, with the key Xcode writes; anything but a boolean is a positioned error.
@Suite struct TemplateImageTests {
    static func manifest(template: String) -> String {
        """
        components:
          glyph:
            sizes: ["20x20"]
            scales: [1, 2]
            template: \(template)
            layers:
              - ellipse: {inset: [2, 2, 2, 2], fill: "#2F6FEB", stroke: {color: "#F59E0B", width: 2}}
        """
    }

    @Test func templatePNGsAreTheAlphaInBlack() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plain = fixture.folder.appendingPathComponent("plain"), template = fixture.folder.appendingPathComponent("template")
        let renderer = BatchRenderer(rasterizer: Rasterizer(), jobs: 1)
        #expect(renderer.run(try fixture.load(Self.manifest(template: "false")).plan(), into: plain).failed == 0)
        #expect(renderer.run(try fixture.load(Self.manifest(template: "true")).plan(), into: template).failed == 0)
        for name in ["glyph-default.png", "glyph-default@2x.png"] {
            let colour = try RasterImage(pngData: try Data(contentsOf: plain.appendingPathComponent(name)))
            let glyph = try RasterImage(pngData: try Data(contentsOf: template.appendingPathComponent(name)))
            #expect(colour.pixelWidth == glyph.pixelWidth && colour.pixelHeight == glyph.pixelHeight)
            var painted = 0
            for y in 0..<glyph.pixelHeight {
                for x in 0..<glyph.pixelWidth {
                    let a = colour.pixel(x: x, y: y), b = glyph.pixel(x: x, y: y)
                    #expect(b.alpha == a.alpha, "alpha kept at \(x),\(y)")
                    if b.alpha > 0 {
                        painted += 1
                        #expect(b.red == 0 && b.green == 0 && b.blue == 0, "black at \(x),\(y)")
                    }
                }
            }
            #expect(painted > 50, "the glyph is there")
            // Scale kept, for whoever reads the PNG's RasterKit chunks.
            #expect(try RasterImage(pngData: try Data(contentsOf: template.appendingPathComponent(name))).scale
                == (name.contains("@2x") ? 2 : 1))
        }
    }

    @Test func theCatalogMarksTemplates() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let out = fixture.folder.appendingPathComponent("out")
        let plan = try fixture.load(Self.manifest(template: "yes")).plan(format: .xcassets)
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(plan, into: out).failed == 0)
        let contents = try Data(contentsOf: out.appendingPathComponent("manifest.xcassets/glyph-default.imageset/Contents.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: contents) as? [String: Any])
        // Apple's documented keys of an image set: images, info, properties.
        #expect(Set(json.keys) == ["images", "info", "properties"])
        let properties = try #require(json["properties"] as? [String: Any])
        #expect(properties["template-rendering-intent"] as? String == "template")
        #expect((json["images"] as? [[String: Any]])?.count == 2)
        // Not a template: no properties at all, as before.
        let plainPlan = try fixture.load(Self.manifest(template: "false")).plan(format: .xcassets)
        let plainOut = fixture.folder.appendingPathComponent("plain")
        _ = BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(plainPlan, into: plainOut)
        let plain = try Data(contentsOf: plainOut.appendingPathComponent("manifest.xcassets/glyph-default.imageset/Contents.json"))
        #expect(!String(decoding: plain, as: UTF8.self).contains("properties"))
    }

    @Test(arguments: ["3", "maybe", "[true]", "{a: b}", "\"\""])
    func onlyABooleanIsATemplateFlag(value: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let error = #expect(throws: ManifestError.self) { try fixture.load(Self.manifest(template: value)) }
        #expect(error?.problems.first?.line == 5, "\(error?.problems.map(\.description) ?? [])")
        #expect(error?.problems.first?.message.contains("template") == true)
    }

    @Test func aTemplateIsKeyedApartFromItsColourTwin() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let plain = try fixture.load(Self.manifest(template: "false")).plan().plannedFiles
        let template = try fixture.load(Self.manifest(template: "true")).plan().plannedFiles
        #expect(plain.map(\.key) == template.map(\.key), "the same render")
        #expect(plain.map(\.encoding) != template.map(\.encoding), "other bytes")
    }
}
