import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// What resolved layers draw, checked pixel by pixel.
@Suite struct ManifestDrawingTests {
    /// Renders the first state of `component` in a manifest made of `text`.
    private func render(_ text: String, component: String = "c", state: String? = nil, scale: Double = 1,
                        files: (ManifestFixture) throws -> Void = { _ in }) throws -> RasterImage {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try files(fixture)
        let manifest = try fixture.load(text)
        let found = try #require(manifest.component(named: component))
        let resolved = try #require(state.flatMap { name in found.states.first { $0.name == name } } ?? found.states.first)
        let size = found.sizes[0]
        return try Rasterizer().image(for: found.component(resolved, at: size), size: size.size, scale: scale)
    }

    private let red = RGBA8(red: 255, green: 0, blue: 0, alpha: 255)
    private let blue = RGBA8(red: 0, green: 0, blue: 255, alpha: 255)
    private let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)

    @Test func framesAndInsets() throws {
        let image = try render("""
            components:
              c:
                sizes: ["20x10"]
                layers: [rect: {fill: red, inset: [2, 4, 3, 5]}, rect: {fill: blue, frame: [0, 0, 2, 2]}]
            """, scale: 2)
        #expect(image.pixelWidth == 40 && image.pixelHeight == 20)
        #expect(image.pixel(x: 0, y: 0) == blue && image.pixel(x: 3, y: 3) == blue && image.pixel(x: 4, y: 4) == clear)
        #expect(image.pixel(x: 8, y: 4) == red && image.pixel(x: 7, y: 4) == clear)
        #expect(image.pixel(x: 29, y: 13) == red && image.pixel(x: 30, y: 13) == clear && image.pixel(x: 29, y: 14) == clear)
    }

    /// Gradient points are fractions of the layer's frame, so a gradient follows the size.
    @Test func gradientsFollowTheFrame() throws {
        let image = try render("""
            components:
              c:
                sizes: ["100x10"]
                layers: [rect: {inset: [0, 50, 0, 0], fill: {linear: {colors: [black, white], from: [0, 0], to: [1, 0]}}}]
            """)
        #expect(image.pixel(x: 49, y: 5).alpha == 0)
        #expect(image.pixel(x: 50, y: 5).red < 10)
        #expect(image.pixel(x: 99, y: 5).red > 245)
        #expect(image.pixel(x: 75, y: 5).isClose(to: RGBA8(red: 128, green: 128, blue: 128, alpha: 255), tolerance: 4))
    }

    @Test func radialGradientsAndStrokes() throws {
        let image = try render("""
            components:
              c:
                sizes: ["40x40"]
                layers:
                  - ellipse: {fill: {radial: {colors: [white, black], center: [0.5, 0.5], radius: 0.5}}}
                  - rect: {inset: 1, stroke: {color: red, width: 2}}
            """)
        #expect(image.pixel(x: 20, y: 20).red > 240)
        #expect(image.pixel(x: 20, y: 37).red < 60)
        #expect(image.pixel(x: 0, y: 20) == red && image.pixel(x: 20, y: 1) == red && image.pixel(x: 3, y: 3).alpha == 0)
    }

    @Test func textLayersDrawText() throws {
        let image = try render("""
            components:
              c:
                sizes: ["60x20"]
                layers: [text: {text: "IIII", font: DejaVu Sans Bold 14, color: blue, alignment: center, verticalAlignment: center}]
            """)
        let inked = image.allPixels.filter { $0.alpha > 200 }
        #expect(inked.count > 40)
        #expect(inked.allSatisfy { $0.blue == 255 && $0.red == 0 })
        #expect(image.pixel(x: 2, y: 10).alpha == 0 && image.pixel(x: 57, y: 10).alpha == 0, "centred, away from the edges")
    }

    @Test func groupsWithOpacityTransformAndMasks() throws {
        let faded = try render("""
            components:
              c:
                sizes: ["10x10"]
                layers: [group: {opacity: 0.5, layers: [rect: {fill: red}, rect: {fill: red}]}]
            """)
        // As a group: the overlapping rects do not add up.
        #expect(faded.pixel(x: 5, y: 5).isClose(to: RGBA8(red: 255, green: 0, blue: 0, alpha: 128), tolerance: 2))

        let moved = try render("""
            components:
              c:
                sizes: ["20x10"]
                layers: [group: {transform: {translate: [10, 0]}, layers: [rect: {frame: [0, 0, 10, 10], fill: red}]}]
            """)
        #expect(moved.pixel(x: 5, y: 5) == clear && moved.pixel(x: 15, y: 5) == red)

        let scaled = try render("""
            components:
              c:
                sizes: ["20x20"]
                layers: [group: {transform: {scale: 2, origin: [0, 0]}, layers: [rect: {frame: [0, 0, 5, 5], fill: red}]}]
            """)
        #expect(scaled.pixel(x: 9, y: 9) == red && scaled.pixel(x: 11, y: 11) == clear)

        let masked = try render("""
            components:
              c:
                sizes: ["20x10"]
                layers:
                  - group: {mask: {layers: [rect: {frame: [0, 0, 10, 10], fill: black}]}, layers: [rect: {fill: red}]}
            """)
        #expect(masked.pixel(x: 5, y: 5) == red && masked.pixel(x: 15, y: 5) == clear)

        let fading = try render("""
            components:
              c:
                sizes: ["100x10"]
                layers: [group: {mask: {linear: {colors: [black, clear], from: [0, 0], to: [1, 0]}}, layers: [rect: {fill: blue}]}]
            """)
        #expect(fading.pixel(x: 1, y: 5).alpha > 245 && fading.pixel(x: 98, y: 5).alpha < 10)
    }

    @Test func imagesAndTintedSVGs() throws {
        let image = try render("""
            components:
              c:
                sizes: ["24x12"]
                layers:
                  - image: {file: red.png, frame: [0, 0, 12, 12], mode: stretch, interpolation: nearest}
                  - svg: {file: star.svg, frame: [12, 0, 12, 12], tint: blue}
            """) { fixture in
            try fixture.writePNG("red.png", color: .red)
            try fixture.writeSVG("star.svg", color: "lime")
        }
        #expect(image.pixel(x: 0, y: 0) == red && image.pixel(x: 11, y: 11) == red)
        #expect(image.pixel(x: 18, y: 6) == blue, "the tint replaces the SVG's own green")
        #expect(image.pixel(x: 12, y: 0) == clear)
    }

    /// A `use` draws the child through the rasterizer (cached under its own key), stretching a
    /// child with caps to its frame.
    @Test func usedComponentsAreNestedAndStretched() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              frame:
                caps: 2
                layers: [rect: {fill: blue}, rect: {inset: 2, fill: red}]
              card:
                sizes: ["40x20"]
                layers: [use: {component: frame, frame: [0, 0, 40, 20]}]
            """)
        let card = try #require(manifest.items.first)
        let rasterizer = Rasterizer()
        let image = try rasterizer.image(for: card.variant(card.sizes[0]).component, size: card.sizes[0], scale: 2)
        #expect(image.pixel(x: 1, y: 1) == blue && image.pixel(x: 20, y: 10) == red && image.pixel(x: 78, y: 38) == blue)
        #expect(image.pixel(x: 75, y: 35) == red && image.pixel(x: 76, y: 36) == blue, "2-point caps: 4 pixels at 2x")
        #expect(rasterizer.statistics.draws == 2, "the card, and the frame once at its minimum frame")
    }

    /// A PNG that is not a PNG after all fails when drawn, naming the file.
    @Test func brokenImagesFailTheirDraw() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        var bytes = ManifestReader.pngSignature
        bytes += [UInt8](repeating: 7, count: 20)
        try fixture.write(Data(bytes), to: "broken.png")
        let manifest = try fixture.load("""
            components:
              c:
                sizes: ["8x8"]
                layers: [image: {file: broken.png}]
            """)
        let item = try #require(manifest.items.first)
        #expect {
            try Rasterizer().image(for: item.variant(item.sizes[0]).component, size: item.sizes[0])
        } throws: { error in
            BatchRenderer.reason(for: error).contains("cannot read the PNG 'broken.png'")
        }
    }
}
