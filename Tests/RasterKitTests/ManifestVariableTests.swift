import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport
@testable import RasterKitBatch

/// Variables: states fill layer properties, and each state's resolved tree is its cache key.
@Suite struct ManifestVariableTests {
    static let button = """
        variables:
          accent: "#2F6FEB"
          corner: 8
          pad: [2, 4]
          shade: {color: "#00000040", offset: [0, 1], blur: 2}
        components:
          button:
            sizes: ["100x40"]
            variables: {label: Go}
            states:
              normal: {fill: "$accent"}
              pressed: {fill: "#1F54C4", label: Going}
              loud: {fill: "$accent", label: "${label}!", corner: 20}
            layers:
              - roundedRect: {inset: "$pad", radius: "$corner", fill: "$fill", shadow: "$shade"}
              - text: {text: "$label", color: white}
        """

    @Test func variablesKeepTheirTypes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.button)
        let shade = Shadow(color: try Color(hex: "#00000040"), offset: Point(x: 0, y: 1), blur: 2)
        let normal = manifest.layers("button", state: "normal")
        #expect(normal[0] == .shape(ShapeLayer(shape: .roundedRect(CornerRadii(all: 8)),
                                               common: LayerCommon(frame: .inset(EdgeInsets(horizontal: 4, vertical: 2))),
                                               fill: .color(try Color(hex: "#2F6FEB")), shadow: shade)))
        #expect(normal[1] == .text(TextLayer(text: "Go", style: TextStyle(color: .white))))
        #expect(manifest.layers("button", state: "pressed")[1] == .text(TextLayer(text: "Going", style: TextStyle(color: .white))))
        // A state overrides the component's and the manifest's variables; `${}` interpolates text.
        let loud = manifest.layers("button", state: "loud")
        #expect(loud[1] == .text(TextLayer(text: "Go!", style: TextStyle(color: .white))))
        guard case .shape(let shape) = loud[0] else {
            Issue.record("not a shape")
            return
        }
        #expect(shape.shape == .roundedRect(CornerRadii(all: 20)))
    }

    @Test func interpolationEscapesAndReferencesBetweenVariables() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            variables:
              brand: Kit
              title: "${brand} Pro"
              accent: "#FF0000"
            components:
              c:
                sizes: ["10x10"]
                states:
                  a: {accent: "$accent", price: "$$5 for ${title}"}
                layers:
                  - text: {text: "$price", color: "$accent"}
                  - text: {text: "${brand}-${brand} costs $$$$"}
            """)
        let layers = manifest.layers("c")
        // A state's `accent: "$accent"` means the manifest's accent, not itself.
        #expect(layers[0] == .text(TextLayer(text: "$5 for Kit Pro", style: TextStyle(color: .red))))
        #expect(layers[1] == .text(TextLayer(text: "Kit-Kit costs $$", style: TextStyle())))
    }

    @Test func useLayersPassVariablesToTheirChild() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            variables: {accent: "#00FF00"}
            components:
              label:
                variables: {text: Default, tint: "$accent"}
                states: {plain: {}, loud: {text: LOUD}}
                layers: [text: {text: "$text", color: "$tint"}]
              row:
                sizes: ["100x20"]
                states: {one: {name: First}, two: {name: Second}}
                layers:
                  - use: {component: label, state: loud, variables: {tint: "#0000FF"}}
                  - use: {component: label, variables: {text: "$name"}}
            """)
        func child(_ state: String, _ index: Int) -> DeclarativeComponent? {
            if case .component(let layer) = manifest.layers("row", state: state)[index] { return layer.component }
            return nil
        }
        #expect(child("one", 0)?.layers == [.text(TextLayer(text: "LOUD", style: TextStyle(color: .blue)))])
        #expect(child("one", 1)?.layers == [.text(TextLayer(text: "First", style: TextStyle(color: .green)))])
        #expect(child("two", 1)?.layers == [.text(TextLayer(text: "Second", style: TextStyle(color: .green)))])
        #expect(child("one", 0) == child("two", 0), "the same child in both states")
    }

    /// Identical resolved states share a key, whatever their names; each state's keys depend on
    /// that state alone.
    @Test func keysFollowTheResolvedTree() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.button + """

              twin:
                sizes: ["100x40"]
                states: {same: {fill: "#2F6FEB", label: Go}}
                layers:
                  - roundedRect: {inset: [2, 4], radius: 8, fill: "$fill", shadow: {color: "#00000040", offset: [0, 1], blur: 2}}
                  - text: {text: "$label", color: white}
            """)
        func key(_ component: String, _ state: String, in manifest: Manifest) throws -> CacheKey {
            let found = try #require(manifest.component(named: component))
            let resolved = try #require(found.states.first { $0.name == state })
            return Rasterizer().key(for: found.component(resolved, at: found.sizes[0]), size: found.sizes[0].size, scale: 2)
        }
        #expect(try key("button", "normal", in: manifest) == key("twin", "same", in: manifest))
        #expect(try key("button", "normal", in: manifest) != key("button", "pressed", in: manifest))

        let edited = try fixture.load(Self.button.replacingOccurrences(of: "pressed: {fill: \"#1F54C4\"",
                                                                        with: "pressed: {fill: \"#1F54C5\""))
        #expect(try key("button", "pressed", in: manifest) != key("button", "pressed", in: edited))
        for state in ["normal", "loud"] {
            #expect(try key("button", state, in: manifest) == key("button", state, in: edited))
        }
        // Keys are the same in every load (and process): nothing in them depends on the run.
        let again = try fixture.load(Self.button)
        #expect(try key("button", "loud", in: manifest).digest == key("button", "loud", in: again).digest)
    }

    /// An asset's key follows its bytes: editing a file changes exactly its users' keys.
    @Test func fileLayersAreKeyedByTheirBytes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("a.svg", color: "red")
        try fixture.writeSVG("b.svg", color: "blue")
        try fixture.writePNG("p.png", color: .green)
        let text = """
            components:
              icons:
                sizes: ["24x24"]
                states: {a: {file: a.svg}, b: {file: b.svg}}
                layers: [svg: {file: "$file"}]
              photo:
                sizes: ["24x24"]
                layers: [image: {file: p.png}]
            """
        let keys = { () throws -> [String] in
            try fixture.load(text).items.map { item in
                let variant = item.variant(item.sizes[0])
                return Rasterizer().key(for: variant.component, size: item.sizes[0], scale: 1).digest
            }
        }
        let before = try keys()
        try fixture.writeSVG("b.svg", color: "purple")
        let afterSVG = try keys()
        #expect(afterSVG[0] == before[0] && afterSVG[1] != before[1] && afterSVG[2] == before[2])
        try fixture.writePNG("p.png", color: .blue)
        let afterPNG = try keys()
        #expect(afterPNG[0] == afterSVG[0] && afterPNG[1] == afterSVG[1] && afterPNG[2] != afterSVG[2])
    }
}
