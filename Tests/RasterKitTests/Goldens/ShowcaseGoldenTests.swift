import Foundation
import RasterKit
import RasterKitBatch
import RasterKitTesting
import Testing

/// Reviewed pictures of the showcase manifest's components (Examples/showcase.yaml), one state
/// of each, at 2x: a change to the manifest or to how layers draw shows up here.
@Suite struct ShowcaseGoldenTests {
    static let manifestURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/showcase.yaml")

    /// The component and state each golden shows.
    static let shown: [(component: String, state: String)] = [
        ("button-primary", "normal"), ("button-secondary", "hovered"), ("button-destructive", "pressed"),
        ("badge", "three"), ("badge-wide", "many"), ("status-dot", "online"), ("chip", "in-review"), ("toggle", "on"),
        ("checkbox", "checked"), ("progress", "75"), ("panel", "selected"), ("icon-button", "heart"), ("avatar", "grace"),
        ("search-field", "focused"), ("tooltip", "copied"), ("card", "messages"), ("sticker", "star"), ("profile", "grace"),
    ]

    /// The components laid out by stacks, with sizes measured from each state: every state of
    /// each has a golden, light and dark, so the three lengths of a label show how it hugs them.
    static let laidOut: [(component: String, states: [String])] = [
        ("label-chip", ["short", "medium", "long"]), ("count-badge", ["one", "forty-two", "thousands"]),
        ("article-card", ["short", "long"]), ("rtl-chip", ["messages", "settings"]), ("reaction-bar", ["few", "many"]),
    ]

    @Test func everyShowcaseComponentHasAGolden() throws {
        let manifest = try Manifest(contentsOf: Self.manifestURL)
        let exported = manifest.components.filter { !$0.sizes.isEmpty }.map(\.name)
        #expect(exported.sorted() == (Self.shown.map(\.component) + Self.laidOut.map(\.component)).sorted())
        #expect(exported.count >= 12)
    }

    /// A laid-out component's state at its measured size, in light and dark.
    @Test(arguments: laidOut.flatMap { entry in entry.states.map { "\(entry.component)/\($0)" } })
    func laidOutComponent(_ path: String) throws {
        let manifest = try Manifest(contentsOf: Self.manifestURL)
        let parts = path.split(separator: "/").map(String.init)
        let component = try #require(manifest.component(named: parts[0]))
        for appearance in [Appearance.light, .dark] {
            let state = try #require(component.states(in: appearance).first { $0.name == parts[1] })
            let size = try #require(state.measuredSizes?.first)
            try assertGolden(of: component.renderable(state, at: size), size: size.size, scale: 2,
                             named: parts.joined(separator: "-") + (appearance == .dark ? "-dark" : ""))
        }
    }

    /// The showcase's components without a dark variant: the sticker's colours hold in both.
    static let lightOnly: Set<String> = ["sticker"]

    @Test func everyOtherShowcaseComponentHasADarkVariant() throws {
        let manifest = try Manifest(contentsOf: Self.manifestURL)
        for component in manifest.components where !component.sizes.isEmpty {
            #expect(component.appearances == (Self.lightOnly.contains(component.name) ? [.light] : [.light, .dark]),
                    "\(component.name)")
        }
    }

    /// The same state as ``component(_:)`` in dark, beside its light golden.
    @Test(arguments: shown.map(\.component).filter { !lightOnly.contains($0) })
    func darkComponent(_ name: String) throws {
        let manifest = try Manifest(contentsOf: Self.manifestURL)
        let component = try #require(manifest.component(named: name))
        let stateName = try #require(Self.shown.first { $0.component == name }?.state)
        let state = try #require(component.states(in: .dark).first { $0.name == stateName })
        let size = component.sizes[0]
        try assertGolden(of: component.renderable(state, at: size), size: size.size, scale: 2, named: name)
    }

    @Test(arguments: shown.map(\.component))
    func component(_ name: String) throws {
        let manifest = try Manifest(contentsOf: Self.manifestURL)
        let component = try #require(manifest.component(named: name))
        let stateName = try #require(Self.shown.first { $0.component == name }?.state)
        let state = try #require(component.states.first { $0.name == stateName })
        let size = component.sizes[0]
        // Nine-slice components are compared stretched to their size, as they are used; post:
        // steps and fallbacks as a batch renders them.
        try assertGolden(of: component.renderable(state, at: size), size: size.size, scale: 2, named: name)
    }
}
