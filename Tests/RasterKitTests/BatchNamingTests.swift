import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// How batch outputs are named and laid out in each format.
@Suite struct BatchNamingTests {
    struct Square: Rasterizable {
        var caps: EdgeInsets?
        var capInsets: EdgeInsets? { caps }
        func draw(in canvas: Canvas, size: Size) throws { canvas.fillAll(with: .color(.red)) }
    }

    @Test(arguments: [
        (1.0, "button-normal.png"), (2, "button-normal@2x.png"), (3, "button-normal@3x.png"), (1.5, "button-normal@1.5x.png"),
    ])
    func pngNames(scale: Double, expected: String) {
        #expect(BatchItem.pngName("button-normal", scale: scale) == expected)
    }

    @Test func sizesAreNamedOnlyWhenThereAreSeveral() {
        let one = BatchItem(name: "button", state: "normal", component: Square(), sizes: [Size(width: 160, height: 44)])
        #expect(one.baseName(for: Size(width: 160, height: 44)) == "button-normal")
        let two = BatchItem(name: "button", state: "normal", component: Square(),
                            sizes: [Size(width: 160, height: 44), Size(width: 120.5, height: 36)])
        #expect(two.baseName(for: Size(width: 120.5, height: 36)) == "button-normal-120.5x36")
        let same = BatchItem(name: "b", component: Square(), sizes: [Size(10), Size(10)])
        #expect(same.baseName(for: Size(10)) == "b-default", "a size given twice is one size")
    }

    @Test(arguments: [
        ("button-normal", "button_normal"), ("Panel.Large-2", "panel_large_2"), ("9lives-x", "img_9lives_x"),
        ("ünïcode-ok", "img__n_code_ok"),
    ])
    func androidResourceNames(name: String, expected: String) {
        let name = NinePatchExport.resourceName(name)
        #expect(name == expected)
        #expect(name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        #expect(name.first?.isLetter == true)
    }

    @Test func androidDensities() {
        #expect([0.75, 1, 1.5, 2, 3, 4].map(NinePatchExport.density) == ["ldpi", "mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"])
        #expect(NinePatchExport.density(for: 2.5) == nil)
        #expect(ExportFormat.ninepatch.supports(scale: 1.5) && !ExportFormat.ninepatch.supports(scale: 2.5))
        #expect(ExportFormat.xcassets.supports(scale: 3) && !ExportFormat.xcassets.supports(scale: 1.5))
        #expect(ExportFormat.png.supports(scale: 0.25) && !ExportFormat.png.supports(scale: 0))
    }

    @Test func layoutOfEachFormat() throws {
        let items = [
            BatchItem(name: "button", state: "normal", component: Square(), sizes: [Size(width: 20, height: 10)], scales: [1, 2]),
            BatchItem(name: "panel", state: "default", component: Square(caps: EdgeInsets(all: 4)),
                      sizes: [Size(width: 30, height: 30), Size(width: 40, height: 20)], scales: [1, 2]),
        ]
        #expect(try BatchPlan(items: items, format: .png).outputs.map(\.path) == [
            "button-normal.png", "button-normal@2x.png",
            "panel-default-30x30.png", "panel-default-30x30@2x.png", "panel-default-40x20.png", "panel-default-40x20@2x.png",
        ])
        let catalog = try BatchPlan(items: items, format: .xcassets, catalogName: "UI")
        #expect(catalog.outputs.map(\.path) == [
            "UI.xcassets/button-normal.imageset/button-normal.png", "UI.xcassets/button-normal.imageset/button-normal@2x.png",
            "UI.xcassets/panel-default-30x30.imageset/panel-default-30x30.png",
            "UI.xcassets/panel-default-30x30.imageset/panel-default-30x30@2x.png",
            "UI.xcassets/panel-default-40x20.imageset/panel-default-40x20.png",
            "UI.xcassets/panel-default-40x20.imageset/panel-default-40x20@2x.png",
        ])
        #expect(catalog.files.map(\.path) == [
            "UI.xcassets/Contents.json", "UI.xcassets/button-normal.imageset/Contents.json",
            "UI.xcassets/panel-default-30x30.imageset/Contents.json", "UI.xcassets/panel-default-40x20.imageset/Contents.json",
        ])
        #expect(try BatchPlan(items: items, format: .ninepatch).outputs.map(\.path) == [
            "drawable-mdpi/button_normal.png", "drawable-xhdpi/button_normal.png",
            "drawable-mdpi/panel_default_30x30.9.png", "drawable-xhdpi/panel_default_30x30.9.png",
            "drawable-mdpi/panel_default_40x20.9.png", "drawable-xhdpi/panel_default_40x20.9.png",
        ])
    }

    /// Previews show each item and size once: at 2x when there is one, else the largest scale.
    @Test func previews() throws {
        let items = [
            BatchItem(name: "a", component: Square(), sizes: [Size(8)], scales: [1, 2, 3]),
            BatchItem(name: "b", component: Square(), sizes: [Size(8)], scales: [1, 3]),
        ]
        var plan = try BatchPlan(items: items, format: .png)
        plan.append(try BatchPlan(items: items, format: .ninepatch))
        #expect(plan.previews.map(\.path) == ["a-default@2x.png", "b-default@3x.png"])
        #expect(plan.previews.map(\.label) == ["a-default@2x.png", "b-default@3x.png"])
    }

    @Test func planningErrors() {
        let square = Square()
        #expect(throws: BatchPlanError.unsupportedScale(format: .xcassets, scale: 4, item: "a/default")) {
            try BatchPlan(items: [BatchItem(name: "a", component: square, sizes: [Size(8)], scales: [4])], format: .xcassets)
        }
        #expect(throws: BatchPlanError.conflictingOutputs(path: "a-b-c.png", first: "a-b/c", second: "a/b-c")) {
            try BatchPlan(items: [BatchItem(name: "a-b", state: "c", component: square, sizes: [Size(8)]),
                                  BatchItem(name: "a", state: "b-c", component: square, sizes: [Size(8)])], format: .png)
        }
        // Different names that Android folds into one resource.
        #expect(throws: BatchPlanError.self) {
            try BatchPlan(items: [BatchItem(name: "a-b", component: square, sizes: [Size(8)]),
                                  BatchItem(name: "a.b", component: square, sizes: [Size(8)])], format: .ninepatch)
        }
        #expect(throws: BatchPlanError.self) {
            try BatchPlan(items: [BatchItem(name: "a", component: Square(caps: EdgeInsets(all: 10)), sizes: [Size(8)])],
                          format: .png)
        }
    }

    @Test func manifestConflictsAreProblems() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              a-b: {sizes: [8], states: {c: {}}, layers: [rect: {fill: red}]}
              a: {sizes: [8], states: {b-c: {}}, layers: [rect: {fill: red}]}
            """)
        let error = #expect(throws: ManifestError.self) { try manifest.plan() }
        #expect(error?.problems.located == ["3:3: 'a-b/c' and 'a/b-c' would both be written to 'a-b-c.png'; rename one"])

        // A component's PNG and an SVG's.
        try fixture.writeSVG("icons/x-default.svg")
        let mixed = try fixture.load("""
            components:
              x: {sizes: [8], states: {default-8: {}}, layers: [rect: {fill: red}]}
            svgs:
              - {input: icons/x-default.svg, sizes: [8]}
            """)
        let mixedError = #expect(throws: ManifestError.self) { try mixed.plan() }
        #expect(mixedError?.problems.map(\.message).contains { $0.contains("would both be written to 'x-default-8.png'") } == true)
    }
}
