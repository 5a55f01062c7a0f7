import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Appearances (issue 20): `dark:` and `highContrast:` overrides in the manifest, a component and
/// a state; where each format writes them; what a variant keeps of its light values.
@Suite struct AppearanceTests {
    /// The issue's chip: two squares side by side, the left filled with `fill`, the right with
    /// `ink`, so pixels show which variable each appearance took.
    static let chip = """
        components:
          chip:
            sizes: ["40x20"]
            scales: [1, 2]
            variables: {fill: "#FFFFFF", ink: "#0F172A"}
            dark: {fill: "#0F172A", ink: "#FFFFFF"}
            states:
              normal: {label: Inbox}
              selected: {label: Inbox, dark: {fill: "#1F54C4"}}
            layers:
              - rect: {frame: [0, 0, 20, 20], fill: "$fill"}
              - rect: {frame: [20, 0, 20, 20], fill: "$ink"}
        """

    static func colours(_ image: RasterImage) -> (left: RGBA8, right: RGBA8) {
        (image.pixel(x: image.pixelWidth / 4, y: image.pixelHeight / 2),
         image.pixel(x: image.pixelWidth * 3 / 4, y: image.pixelHeight / 2))
    }

    static func render(_ component: Manifest.Component, _ state: String, _ appearance: Appearance) throws -> RasterImage {
        let resolved = try #require(component.states(in: appearance).first { $0.name == state })
        return try Rasterizer().image(for: component.renderable(resolved, at: component.sizes[0]), size: component.sizes[0].size, scale: 1)
    }

    @Test func overridesApplyInnermostFirstAndTheRestKeepsItsLightValue() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let chip = try #require(try fixture.load(Self.chip).component(named: "chip"))
        #expect(chip.appearances == [.light, .dark])
        let light = try Self.colours(Self.render(chip, "selected", .light))
        #expect(light.left == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(light.right == RGBA8(red: 0x0F, green: 0x17, blue: 0x2A, alpha: 255))
        // The state's own dark fill wins over the component's; ink comes from the component's dark map.
        let selected = try Self.colours(Self.render(chip, "selected", .dark))
        #expect(selected.left == RGBA8(red: 0x1F, green: 0x54, blue: 0xC4, alpha: 255))
        #expect(selected.right == RGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        let normal = try Self.colours(Self.render(chip, "normal", .dark))
        #expect(normal.left == RGBA8(red: 0x0F, green: 0x17, blue: 0x2A, alpha: 255))
    }

    @Test func aDarkVariantDiffersOnlyWhereItsVariablesDo() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              tile:
                sizes: ["40x20"]
                variables: {fill: "#2F6FEB", keep: "#F59E0B"}
                dark: {fill: "#0B1A33"}
                layers:
                  - roundedRect: {frame: [0, 0, 20, 20], radius: 4, fill: "$fill"}
                  - ellipse: {frame: [20, 0, 20, 20], fill: "$keep"}
            """)
        let tile = try #require(manifest.component(named: "tile"))
        let light = try Self.render(tile, "default", .light), dark = try Self.render(tile, "default", .dark)
        var differingLeft = 0
        for y in 0..<light.pixelHeight {
            for x in 0..<light.pixelWidth {
                let same = light.pixel(x: x, y: y) == dark.pixel(x: x, y: y)
                if x >= 20 { #expect(same, "the right half keeps its light pixels at \(x),\(y)") } else if !same { differingLeft += 1 }
            }
        }
        #expect(differingLeft > 300, "the overridden fill changed the left half")
    }

    @Test func flatFormatsNameTheAppearanceAfterTheState() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.chip)
        for format in [ExportFormat.png, .webp] {
            let paths = Set(try manifest.plan(format: format).outputs.map(\.path))
            let ext = format == .png ? "png" : "webp"
            #expect(paths == Set(["normal", "selected"].flatMap { state in
                ["", "-dark"].flatMap { suffix in ["chip-\(state)\(suffix).\(ext)", "chip-\(state)\(suffix)@2x.\(ext)"] }
            }))
        }
        // Several sizes: the appearance still follows the state.
        let sized = try fixture.load(Self.chip.replacingOccurrences(of: "[\"40x20\"]", with: "[\"40x20\", \"80x40\"]"))
        #expect(try sized.plan().outputs.map(\.path).contains("chip-selected-dark-80x40@2x.png"))
    }

    @Test func theAssetCatalogListsAppearancesAsXcodeWritesThem() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.chip.replacingOccurrences(
            of: "    dark: {fill: \"#0F172A\", ink: \"#FFFFFF\"}",
            with: "    dark: {fill: \"#0F172A\", ink: \"#FFFFFF\"}\n    highContrast: {ink: \"#000000\"}"))
        let out = fixture.folder.appendingPathComponent("out")
        #expect(BatchRenderer(rasterizer: Rasterizer(), jobs: 1).run(try manifest.plan(format: .xcassets), into: out).failed == 0)
        let contents = try Data(contentsOf: out.appendingPathComponent("manifest.xcassets/chip-selected.imageset/Contents.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: contents) as? [String: Any])
        #expect(Set(json.keys) == ["images", "info"])
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.count == 6)
        let documentedKeys: Set<String> = ["filename", "idiom", "scale", "appearances", "resizing"]
        var seen: [String: String] = [:]
        for image in images {
            #expect(Set(image.keys).isSubset(of: documentedKeys))
            let file = try #require(image["filename"] as? String)
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.xcassets/chip-selected.imageset/" + file).path))
            let appearances = image["appearances"] as? [[String: String]]
            seen[file] = appearances.map { $0.map { "\($0["appearance"] ?? "?")=\($0["value"] ?? "?")" }.joined() } ?? "any"
        }
        #expect(seen == ["chip-selected.png": "any", "chip-selected-dark.png": "luminosity=dark",
                         "chip-selected-highContrast.png": "contrast=high", "chip-selected@2x.png": "any",
                         "chip-selected-dark@2x.png": "luminosity=dark", "chip-selected-highContrast@2x.png": "contrast=high"])
        // Xcode's order: each scale with its appearances.
        #expect(images.map { $0["scale"] as? String } == ["1x", "1x", "1x", "2x", "2x", "2x"])
    }

    @Test func androidPutsDarkDrawablesInNightFoldersAndHasNoHighContrast() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load(Self.chip.replacingOccurrences(of: "\"40x20\"", with: "{width: 40, height: 20, caps: [4, 4, 4, 4]}")
            .replacingOccurrences(of: "states:", with: "highContrast: {ink: \"#000000\"}\n    states:"))
        let paths = Set(try manifest.plan(format: .ninepatch).outputs.map(\.path))
        #expect(paths == ["drawable-mdpi/chip_normal.9.png", "drawable-xhdpi/chip_normal.9.png",
                          "drawable-night-mdpi/chip_normal.9.png", "drawable-night-xhdpi/chip_normal.9.png",
                          "drawable-mdpi/chip_selected.9.png", "drawable-xhdpi/chip_selected.9.png",
                          "drawable-night-mdpi/chip_selected.9.png", "drawable-night-xhdpi/chip_selected.9.png"])
    }

    @Test func appearancesReachComponentsThroughUseAndTheManifest() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            variables: {paper: "#FFFFFF"}
            dark: {paper: "#111111"}
            components:
              dot:
                variables: {tint: "#00AA00"}
                dark: {tint: "#55FF55"}
                layers: [ellipse: {fill: "$tint"}]
              row:
                sizes: ["40x20"]
                layers:
                  - use: {component: dot, frame: [20, 0, 20, 20]}
              page:
                sizes: ["20x20"]
                layers: [rect: {fill: "$paper"}]
              fixed:
                sizes: ["20x20"]
                layers: [rect: {fill: "#123456"}]
            """)
        // `row` declares nothing itself: it looks different in dark through the dot it uses.
        let row = try #require(manifest.component(named: "row"))
        #expect(row.appearances == [.light, .dark])
        #expect(try Self.colours(Self.render(row, "default", .dark)).right == RGBA8(red: 0x55, green: 0xFF, blue: 0x55, alpha: 255))
        #expect(try #require(manifest.component(named: "page")).appearances == [.light, .dark])
        // Nothing of `fixed` changes in dark: it is exported in light only.
        #expect(try #require(manifest.component(named: "fixed")).appearances == [.light])
    }

    @Test func appearancesListChoosesExactly() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let none = try fixture.load(Self.chip.replacingOccurrences(of: "scales: [1, 2]", with: "scales: [1, 2]\n    appearances: []"))
        #expect(try #require(none.component(named: "chip")).appearances == [.light])
        let both = try fixture.load(Self.chip.replacingOccurrences(of: "scales: [1, 2]",
                                                                 with: "scales: [1, 2]\n    appearances: [dark, highContrast]"))
        #expect(try #require(both.component(named: "chip")).appearances == [.light, .dark, .highContrast])
    }

    @Test func darkAndLightAreKeyedApart() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let files = try fixture.load(Self.chip).plan().plannedFiles
        // The two states look the same in light (the label is not drawn): one render, one key per
        // scale. In dark they differ, from each other and from light: six keys for eight files.
        #expect(files.count == 8)
        #expect(Set(files.map(\.key)).count == 6)
        let light = Set(files.filter { !$0.path.contains("-dark") }.map(\.key))
        #expect(files.filter { $0.path.contains("-dark") }.allSatisfy { !light.contains($0.key) })
    }

    @Test(arguments: [
        ("    appearances: [dark, sepia]", 6, "unknown value \"sepia\" for appearances"),
        ("    dark: 3", 6, "dark in component \"chip\" must be a mapping"),
        ("    Dark: {fill: red}", 6, "unknown key \"Dark\""),
    ])
    func badComponentAppearancesArePositioned(line: String, expectedLine: Int, message: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let text = Self.chip.replacingOccurrences(of: "    dark: {fill: \"#0F172A\", ink: \"#FFFFFF\"}", with: line)
        let error = #expect(throws: ManifestError.self) { try fixture.load(text) }
        let problem = try #require(error?.problems.first, "\(error?.problems.map(\.description) ?? [])")
        #expect(problem.line == expectedLine)
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test(arguments: [
        ("{label: Inbox, Dark: {fill: red}}", "unknown appearance \"Dark\" in state \"selected\"; did you mean \"dark\"?"),
        ("{label: Inbox, high-contrast: {fill: red}}", "did you mean \"highContrast\"?"),
        ("{label: Inbox, light: {fill: red}}", "light is the default appearance"),
        ("{label: Inbox, dark: [red]}", "dark of state \"selected\" must be a mapping"),
    ])
    func badStateAppearancesArePositioned(state: String, message: String) throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let text = Self.chip.replacingOccurrences(of: "{label: Inbox, dark: {fill: \"#1F54C4\"}}", with: state)
        let error = #expect(throws: ManifestError.self) { try fixture.load(text) }
        let problem = try #require(error?.problems.first, "\(error?.problems.map(\.description) ?? [])")
        #expect(problem.line == 9)
        #expect(problem.message.contains(message), "\(problem.message)")
        #expect(error?.problems.count == 1, "reported once, not once per appearance")
    }

    @Test func aDarkPreviewSitsOnADarkTile() throws {
        let image = try RasterImage(size: Size(width: 20, height: 20), scale: 1) { _ in }
        let sheet = try ContactSheet(title: "T", items: [.init(label: "a", image: image),
                                                         .init(label: "a-dark", image: image, appearance: .dark)],
                                     width: 400).render(scale: 1)
        // Each cell's card, just inside its corner (cells start at 16, 64 and are 80 + 8 wide).
        let lightCard = sheet.pixel(x: 20, y: 100), darkCard = sheet.pixel(x: 16 + 104 + 4, y: 100)
        #expect(lightCard.red > 200)
        #expect(darkCard.red < 60)
    }
}
