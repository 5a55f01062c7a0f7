import Foundation
import RasterKit
import RasterKitBatch
import RasterKitTesting
import Testing

/// Reviewed pictures of the templates of Examples/templates.yaml, with their defaults and with
/// values a URL or a data record gives.
@Suite struct TemplateGoldenTests {
    static let manifestURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/templates.yaml")

    static let shown: [(name: String, component: String, state: String, values: [String: String])] = [
        ("badge-default", "badge", "flat", [:]),
        ("badge-coverage", "badge", "square", ["label": "coverage", "message": "93%", "color": "orange"]),
        ("card-default", "card", "default", [:]),
        ("card-grdb", "card", "default", ["title": "GRDB.swift", "accent": "#F5A524", "avatar": "templates/star.svg",
                                          "subtitle": "A toolkit for SQLite databases, with a focus on application development"]),
    ]

    @Test(arguments: shown.map(\.name))
    func template(_ name: String) throws {
        let manifest = try Manifest(contentsOf: Self.manifestURL)
        let shown = try #require(Self.shown.first { $0.name == name })
        let component = try #require(manifest.component(named: shown.component))
        let state = try manifest.state(shown.state, of: component, parameters: shown.values)
        let size = component.sizes[0]
        try assertGolden(of: component.renderable(state, at: size), size: size.size, scale: component.scales.max() ?? 1, named: name)
    }
}
