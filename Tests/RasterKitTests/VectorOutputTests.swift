import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKit
@testable import RasterKitBatch
import RasterKitDiff

/// Vector output (issue 20): `--format pdf` and `svg` through cairo's vector surfaces, and the
/// asset catalog's `preserveVectors`. Documents are read back by other programs — poppler for
/// PDF (`pdftocairo`), librsvg for SVG — and compared with the PNG of the same component at pixelmatch 0.1.
@Suite struct VectorOutputTests {
    static let manifest = """
        components:
          label:
            sizes: ["120x40"]
            scales: [2]
            layers:
              - roundedRect: {inset: 2, radius: 8, fill: "#2F6FEB", stroke: {color: "#0F172A", width: 1}}
              - text: {inset: 2, text: Continue, font: DejaVu Sans Bold 14, color: white, alignment: center, verticalAlignment: center}
          frame:
            sizes: [{width: 120, height: 60, caps: [12, 12, 12, 12]}]
            scales: [2]
            layers:
              - roundedRect: {inset: 3, radius: 10, fill: "#F8FAFC", stroke: {color: "#2F6FEB", width: 2},
                              shadow: {color: "#00000040", offset: [0, 1], blur: 3}}
          nested:
            sizes: ["160x60"]
            scales: [2]
            layers:
              - use: {component: frame, frame: [0, 0, 160, 60]}
              - use: {component: label, frame: [20, 10, 120, 40]}
        """

    /// The PNG a batch would write for `name`, as it looks in use (a nine-slice stretched to its size).
    static func pngRender(_ manifest: Manifest, _ name: String, scale: Double = 2) throws -> RasterImage {
        let component = try #require(manifest.component(named: name))
        let size = component.sizes[0]
        let image = try Rasterizer().image(for: component.renderable(component.states[0], at: size), size: size.size, scale: scale)
        return image.capInsets == nil ? image : try image.stretched(to: size.size)
    }

    static func document(_ manifest: Manifest, _ name: String, _ format: VectorFormat) throws -> Data {
        let component = try #require(manifest.component(named: name))
        let size = component.sizes[0]
        return try Rasterizer().vectorDocument(of: component.renderable(component.states[0], at: size), size: size.size,
                                               format: format)
    }

    /// Pixels pixelmatch (threshold 0.1) finds different, anti-aliasing aside, as a fraction.
    static func difference(_ expected: RasterImage, _ actual: RasterImage) throws -> Double {
        let result = try ImageDiff.compare(RGBABitmap(expected), RGBABitmap(actual), options: .init(threshold: 0.1),
                                           makeDiffImage: false)
        return Double(result.differentPixels) / Double(expected.pixelWidth * expected.pixelHeight)
    }

    @Test(arguments: ["label", "frame", "nested"])
    func aPDFRasterizedByPopplerMatchesThePNG(name: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.manifest)
        let pdf = fixture.folder.appendingPathComponent("\(name).pdf")
        try Self.document(manifest, name, .pdf).write(to: pdf)
        // poppler's cairo renderer, at 144 dpi (2 pixels a point), keeping transparency.
        let stem = fixture.folder.appendingPathComponent("\(name)-poppler").path
        try ExternalTool.run("pdftocairo", ["-png", "-r", "144", "-transp", "-singlefile", pdf.path, stem])
        let poppler = try RasterImage(pngData: try Data(contentsOf: URL(fileURLWithPath: stem + ".png"))).withScale(2)
        let png = try Self.pngRender(manifest, name)
        #expect(poppler.pixelWidth == png.pixelWidth && poppler.pixelHeight == png.pixelHeight,
                "one page at the size in points: \(poppler.pixelWidth)×\(poppler.pixelHeight)")
        let difference = try Self.difference(png, poppler)
        #expect(difference < 0.01, "\(difference)")
    }

    @Test(arguments: ["label", "frame", "nested"])
    func anSVGRasterizedByLibrsvgMatchesThePNG(name: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.manifest)
        let svg = try Self.document(manifest, name, .svg)
        let png = try Self.pngRender(manifest, name)
        let drawn = try Rasterizer().render(RenderRequest(SVGImage(try SVGDocument(data: svg), contentMode: .stretch), size: png.size, scale: 2)).image
        #expect(try Self.difference(png, drawn) < 0.01)
    }

    @Test func textStaysTextAndNineSlicesAreDrawnAtFullSize() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.manifest)
        let label = fixture.folder.appendingPathComponent("label.pdf"), frame = fixture.folder.appendingPathComponent("frame.pdf")
        try Self.document(manifest, "label", .pdf).write(to: label)
        try Self.document(manifest, "frame", .pdf).write(to: frame)
        let fonts = try ExternalTool.run("pdffonts", [label.path])
        #expect(fonts.contains("DejaVuSans-Bold"), "\(fonts)")
        let labelBytes = try Data(contentsOf: label)
        #expect(labelBytes.range(of: Data("/Subtype /Image".utf8)) == nil, "no pixels in a text-and-shapes PDF")
        #expect(labelBytes.count < 30_000, "a font subset and a few paths: \(labelBytes.count) bytes")
        #expect(try ExternalTool.run("pdfinfo", [label.path]).contains("120 x 40 pts"))
        // The frame is drawn at its 120×60, not at its 24×24-point minimum frame.
        #expect(try ExternalTool.run("pdfinfo", [frame.path]).contains("120 x 60 pts"))
        let svg = String(decoding: try Self.document(manifest, "label", .svg), as: UTF8.self)
        #expect(svg.contains("width=\"120pt\" height=\"40pt\""))
        #expect(svg.contains("<symbol") && !svg.contains("<image"), "glyphs as paths, no pixels")
    }

    @Test(arguments: VectorFormat.allCases)
    func documentsAreDeterministic(format: VectorFormat) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.manifest)
        let first = try Self.document(manifest, "nested", format)
        // Other surfaces made in between move cairo's process-wide counters.
        _ = try Self.pngRender(manifest, "label", scale: 3)
        #expect(try Self.document(manifest, "nested", format) == first)
    }

    @Test func batchesWriteOneDocumentPerSizeAndAppearanceWhateverTheScales() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              chip:
                sizes: ["60x20", "90x30"]
                scales: [1, 2, 3]
                variables: {fill: "#FFFFFF"}
                dark: {fill: "#0F172A"}
                layers: [roundedRect: {radius: 6, fill: "$fill"}]
            """)
        for format in [ExportFormat.pdf, .svg] {
            let plan = try manifest.plan(format: format)
            #expect(Set(plan.outputs.map(\.path)) == Set(["chip-default-60x20", "chip-default-dark-60x20", "chip-default-90x30",
                                                          "chip-default-dark-90x30"].map { "\($0).\(format)" }))
            let out = fixture.folder.appendingPathComponent("out-\(format)")
            #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(plan, into: out).failed == 0)
            #expect(plan.plannedFiles.allSatisfy { $0.encoding == "\(format)1" && $0.key != nil })
            // Unchanged documents are left alone by the next run into the same folder.
            #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(plan, into: out).drawn == 0)
        }
    }

    @Test func preserveVectorsWritesOnePDFPerAppearanceInTheCatalog() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              glyph:
                sizes: ["24x24"]
                scales: [1, 2, 3]
                preserveVectors: true
                template: true
                variables: {ink: "#0F172A"}
                dark: {ink: "#F1F5F9"}
                layers: [ellipse: {inset: 3, fill: "$ink"}]
            """)
        let out = fixture.folder.appendingPathComponent("out")
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try manifest.plan(format: .xcassets), into: out).failed == 0)
        let set = out.appendingPathComponent("manifest.xcassets/glyph-default.imageset")
        let files = try FileManager.default.contentsOfDirectory(atPath: set.path).sorted()
        #expect(files == ["Contents.json", "glyph-default-dark.pdf", "glyph-default.pdf"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: set.appendingPathComponent("Contents.json")))
                                as? [String: Any])
        let properties = try #require(json["properties"] as? [String: Any])
        #expect(properties["preserves-vector-representation"] as? Bool == true)
        #expect(properties["template-rendering-intent"] as? String == "template")
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.count == 2 && images.allSatisfy { $0["scale"] == nil && $0["idiom"] as? String == "universal" })
        #expect(images.contains { ($0["appearances"] as? [[String: String]])?.first?["value"] == "dark" })
    }

    @Test(arguments: ["maybe", "3", "[true]"])
    func preserveVectorsMustBeABoolean(value: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let error = #expect(throws: ManifestError.self) {
            try fixture.load("components:\n  glyph:\n    sizes: [\"24x24\"]\n    preserveVectors: \(value)\n    layers: [rect: {fill: red}]\n")
        }
        #expect(error?.problems.first?.line == 4)
        #expect(error?.problems.first?.message.contains("preserveVectors") == true)
    }

    @Test(arguments: [Size(width: 0, height: 10), Size(width: .nan, height: 10), Size(width: 1e7, height: 10),
                      Size(width: 10, height: -1)])
    func badSizesAreTypedErrors(size: Size) throws {
        let label = DeclarativeComponent(layers: [], capInsets: nil, name: "empty")
        for format in VectorFormat.allCases {
            #expect(throws: (any Error).self) { try Rasterizer().vectorDocument(of: label, size: size, format: format) }
        }
    }
}

/// Runs a program of the machine's (poppler's tools, installed by `make deps`) and returns what
/// it printed; a failure to start or a non-zero exit throws with its output.
enum ExternalTool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let (termination, output, errors) = try ChildProcess.run("/usr/bin/env", [tool] + arguments)
        let text = String(decoding: output + errors, as: UTF8.self)
        guard termination == .success else {
            throw Failure(description: "\(tool) ended with \(termination) (is it installed? make deps): \(text)")
        }
        return text
    }
}
