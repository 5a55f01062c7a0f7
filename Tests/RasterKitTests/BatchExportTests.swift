import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Asset catalogs and nine-patch drawables, as Xcode and Android read them.
@Suite struct BatchExportTests {
    /// A resizable frame: blue caps around a red centre, with room for checking every pixel.
    static let manifest = """
        name: UI
        components:
          panel:
            sizes: [{width: 30, height: 20, caps: [4, 6, 5, 7]}]
            scales: [1, 2, 3]
            layers: [rect: {fill: blue}, rect: {inset: [4, 6, 5, 7], fill: red}]
          padded:
            sizes: [{width: 30, height: 20, caps: [4, 6, 5, 7], content: [2, 3, 2, 3]}]
            scales: [2]
            layers: [rect: {fill: blue}]
          dot:
            sizes: ["8x8"]
            scales: [1, 2, 3]
            layers: [ellipse: {fill: red}]
        """

    private func run(_ format: ExportFormat) throws -> (ManifestFixture, URL) {
        let fixture = try ManifestFixture()
        let manifest = try fixture.load(Self.manifest)
        let out = fixture.folder.appendingPathComponent("out")
        let summary = BatchRenderer(rasterizer: Rasterizer(), jobs: 2).run(try manifest.plan(format: format), into: out)
        #expect(summary.failed == 0, "\(summary.failures)")
        return (fixture, out)
    }

    private func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func assetCatalogContents() throws {
        let (fixture, out) = try run(.xcassets)
        defer { fixture.remove() }
        let catalog = out.appendingPathComponent("UI.xcassets")
        #expect(ManifestFixture.files(in: catalog) == [
            "Contents.json",
            "dot-default.imageset/Contents.json", "dot-default.imageset/dot-default.png",
            "dot-default.imageset/dot-default@2x.png", "dot-default.imageset/dot-default@3x.png",
            "padded-default.imageset/Contents.json", "padded-default.imageset/padded-default@2x.png",
            "panel-default.imageset/Contents.json", "panel-default.imageset/panel-default.png",
            "panel-default.imageset/panel-default@2x.png", "panel-default.imageset/panel-default@3x.png",
        ])
        let root = try json(catalog.appendingPathComponent("Contents.json"))
        #expect(root["info"] as? NSDictionary == ["author": "xcode", "version": 1] as NSDictionary)

        let dot = try json(catalog.appendingPathComponent("dot-default.imageset/Contents.json"))
        let dotImages = try #require(dot["images"] as? [[String: Any]])
        #expect(dotImages.map { $0 as NSDictionary } == [
            ["filename": "dot-default.png", "idiom": "universal", "scale": "1x"],
            ["filename": "dot-default@2x.png", "idiom": "universal", "scale": "2x"],
            ["filename": "dot-default@3x.png", "idiom": "universal", "scale": "3x"],
        ] as [NSDictionary])

        // Each scale's slices are in that image's pixels, as Xcode's slicing editor writes them,
        // and the centre is everything between the caps.
        let panel = try json(catalog.appendingPathComponent("panel-default.imageset/Contents.json"))
        let images = try #require(panel["images"] as? [[String: Any]])
        for (index, scale) in [1, 2, 3].enumerated() {
            let image = images[index]
            #expect(image["scale"] as? String == "\(scale)x" && image["idiom"] as? String == "universal")
            let file = try #require(image["filename"] as? String)
            let png = try RasterImage(pngData: Data(contentsOf: catalog.appendingPathComponent("panel-default.imageset/" + file)))
            #expect(png.pixelWidth == 14 * scale && png.pixelHeight == 10 * scale, "the minimum frame: caps + 1 point")
            let resizing = try #require(image["resizing"] as? [String: Any])
            #expect(resizing["mode"] as? String == "9-part")
            #expect(resizing["center"] as? NSDictionary == ["mode": "stretch", "width": scale, "height": scale] as NSDictionary)
            #expect(resizing["cap-insets"] as? NSDictionary
                == ["top": 4 * scale, "left": 6 * scale, "bottom": 5 * scale, "right": 7 * scale] as NSDictionary)
        }
    }

    /// Byte for byte what Xcode writes: sorted keys, two spaces, `"key" : value`.
    @Test func assetCatalogFormatting() throws {
        let (fixture, out) = try run(.xcassets)
        defer { fixture.remove() }
        let text = try String(contentsOf: out.appendingPathComponent("UI.xcassets/padded-default.imageset/Contents.json"),
                              encoding: .utf8)
        #expect(text == """
            {
              "images" : [
                {
                  "filename" : "padded-default@2x.png",
                  "idiom" : "universal",
                  "resizing" : {
                    "cap-insets" : {
                      "bottom" : 10,
                      "left" : 12,
                      "right" : 14,
                      "top" : 8
                    },
                    "center" : {
                      "height" : 2,
                      "mode" : "stretch",
                      "width" : 2
                    },
                    "mode" : "9-part"
                  },
                  "scale" : "2x"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              }
            }

            """)
    }

    /// Every pixel of the border: black stretch markers top and left, content markers bottom and
    /// right, transparent everywhere else; the image itself unchanged inside.
    @Test(arguments: [1, 2, 3])
    func ninePatchMarkersPixelByPixel(scale: Int) throws {
        let (fixture, out) = try run(.ninepatch)
        defer { fixture.remove() }
        let density = ["", "mdpi", "xhdpi", "xxhdpi"][scale]
        let data = try Data(contentsOf: out.appendingPathComponent("drawable-\(density)/panel_default.9.png"))
        let bitmap = try RGBABitmap(pngData: data)
        let width = 14 * scale, height = 10 * scale
        #expect(bitmap.width == width + 2 && bitmap.height == height + 2)
        let black = RGBA8(red: 0, green: 0, blue: 0, alpha: 255), clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)
        let stretchX = (6 * scale)..<(width - 7 * scale), stretchY = (4 * scale)..<(height - 5 * scale)
        for x in 0..<(width + 2) {
            let inside = x >= 1 && x <= width && stretchX.contains(x - 1)
            #expect(bitmap[x, 0] == (inside ? black : clear), "top marker at x \(x)")
            // No content insets given: the content area is inside the caps too.
            #expect(bitmap[x, height + 1] == (inside ? black : clear), "bottom marker at x \(x)")
        }
        for y in 0..<(height + 2) {
            let inside = y >= 1 && y <= height && stretchY.contains(y - 1)
            #expect(bitmap[0, y] == (inside ? black : clear), "left marker at y \(y)")
            #expect(bitmap[width + 1, y] == (inside ? black : clear), "right marker at y \(y)")
        }
        let blue = RGBA8(red: 0, green: 0, blue: 255, alpha: 255), red = RGBA8(red: 255, green: 0, blue: 0, alpha: 255)
        for y in 0..<height {
            for x in 0..<width {
                let centre = stretchX.contains(x) && stretchY.contains(y)
                #expect(bitmap[x + 1, y + 1] == (centre ? red : blue))
            }
        }
        // Nine-patch files carry no RasterKit text chunks or scale: Android reads the markers only.
        #expect(data.range(of: Data("rasterkit".utf8)) == nil)
    }

    @Test func ninePatchContentInsetsAndPlainDrawables() throws {
        let (fixture, out) = try run(.ninepatch)
        defer { fixture.remove() }
        #expect(ManifestFixture.files(in: out) == [
            "drawable-mdpi/dot_default.png", "drawable-mdpi/panel_default.9.png",
            "drawable-xhdpi/dot_default.png", "drawable-xhdpi/padded_default.9.png", "drawable-xhdpi/panel_default.9.png",
            "drawable-xxhdpi/dot_default.png", "drawable-xxhdpi/panel_default.9.png",
        ])
        let padded = try RGBABitmap(pngData: Data(contentsOf: out.appendingPathComponent("drawable-xhdpi/padded_default.9.png")))
        let black = RGBA8(red: 0, green: 0, blue: 0, alpha: 255)
        // Content [2, 3, 2, 3] points at 2x, inside a 28×20 pixel image.
        let bottom = (0..<30).filter { padded[$0, 21] == black }, right = (0..<22).filter { padded[29, $0] == black }
        #expect(bottom == Array(7...22) && right == Array(5...16))
        let top = (0..<30).filter { padded[$0, 0] == black }
        #expect(top == Array(13...14), "stretch: caps 6 and 7 points leave 2 centre pixels")
        // A component without caps is a plain drawable.
        let dot = try RasterImage(pngData: Data(contentsOf: out.appendingPathComponent("drawable-xhdpi/dot_default.png")))
        #expect(dot.pixelWidth == 16 && dot.scale == 2)
    }

    @Test func ninePatchNeedsCaps() throws {
        let image = try TestSupport.solidImage(.red)
        #expect(throws: RenderError.self) { try image.ninePatchPNGData() }
        let capped = try image.withCapInsets(EdgeInsets(all: 1))
        let bitmap = try RGBABitmap(pngData: capped.ninePatchPNGData(contentInsets: .zero))
        #expect(bitmap.width == 6 && bitmap.height == 6)
        #expect((0..<6).filter { bitmap[$0, 5].alpha == 255 } == [1, 2, 3, 4], "content: the whole image")
    }
}
