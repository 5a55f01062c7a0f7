import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport
@testable import RasterKitBatch

/// Declared parameters: their declarations, the values a request or a record gives, and the
/// bounds that keep anything outside a declaration from being drawn.
@Suite struct ManifestParameterTests {
    static let badge = """
        components:
          badge:
            sizes: ["120x20"]
            parameters:
              label: {type: string, default: build, maxLength: 12}
              count: {type: int, default: 3, min: 0, max: 99}
              ratio: {type: number, default: 0.5, min: 0, max: 1}
              loud: {type: bool}
              color: {type: color, default: "#2F6FEB"}
              style: {enum: [flat, square], default: flat}
              code: {type: string, default: AB12, pattern: "[A-Z]{2}[0-9]{2}"}
              icon: {type: svg, default: icons/a.svg}
            states:
              normal: {}
              pinned: {label: pinned}
            layers:
              - rect: {fill: "$color"}
              - svg: {file: "$icon"}
              - text: {text: "${label} ${count} ${ratio} ${loud} ${style} ${code}", color: white}
        """

    func fixture(_ name: String = #function) throws -> (ManifestFixture, Manifest) {
        let fixture = try ManifestFixture(name)
        try fixture.writeSVG("icons/a.svg")
        try fixture.writeSVG("icons/b.svg", color: "red")
        return (fixture, try fixture.load(Self.badge))
    }

    func text(_ state: Manifest.State) -> String? {
        for case .text(let layer) in state.layers { return layer.text }
        return nil
    }

    @Test func declarationsAreReadWithTheirDefaults() throws {
        let (fixture, manifest) = try fixture()
        defer { fixture.remove() }
        let badge = try #require(manifest.component(named: "badge"))
        #expect(badge.parameters.map(\.name) == ["label", "count", "ratio", "loud", "color", "style", "code", "icon"])
        #expect(badge.parameters.map(\.declaration) == ["string, maxLength 12", "int, 0...99", "number, 0...1", "bool", "color",
                                                        "enum [flat, square]", "string, maxLength 200, pattern [A-Z]{2}[0-9]{2}", "svg"])
        #expect(badge.parameters.map(\.defaultValue) == ["build", "3", "0.5", "false", "#2F6FEB", "flat", "AB12", "icons/a.svg"])
        // The states as listed are drawn with the defaults; a state may set a parameter's default.
        #expect(text(badge.states[0]) == "build 3 0.5 false flat AB12")
        #expect(text(badge.states[1]) == "pinned 3 0.5 false flat AB12")
    }

    @Test func valuesAreCheckedAndNormalisedThenDrawn() throws {
        let (fixture, manifest) = try fixture()
        defer { fixture.remove() }
        let badge = try #require(manifest.component(named: "badge"))
        let state = try manifest.state("normal", of: badge, parameters: [
            "label": "deploy", "count": "007", "ratio": "0.25", "loud": "yes", "style": "square", "code": "ZZ99",
            "color": "red", "icon": "icons/b.svg",
        ])
        #expect(text(state) == "deploy 7 0.25 true square ZZ99")
        #expect(state.layers.first == .shape(ShapeLayer(shape: .rect, fill: .color(try Color(hex: "#FF0000")))))
        // A given value wins over a state's default.
        #expect(text(try manifest.state("pinned", of: badge, parameters: ["label": "x"])) == "x 3 0.5 false flat AB12")
        // Two spellings of one value make one state, so one key and one render.
        let red = try manifest.state("normal", of: badge, parameters: ["color": "red"])
        let hex = try manifest.state("normal", of: badge, parameters: ["color": "#f00"])
        #expect(red == hex)
        let key = { (state: Manifest.State) in try CacheKey.make(for: badge.component(state, at: badge.sizes[0]), size: Size(width: 120, height: 20), scale: 1) }
        #expect(try key(red) == key(hex))
        #expect(try key(red) != key(badge.states[0]))
    }

    @Test func aDollarInAValueIsTextNeverAVariable() throws {
        let (fixture, manifest) = try fixture()
        defer { fixture.remove() }
        let badge = try #require(manifest.component(named: "badge"))
        let state = try manifest.state("normal", of: badge, parameters: ["label": "$5 ${count}", "code": "AB12"])
        #expect(text(state) == "$5 ${count} 3 0.5 false flat AB12")
    }

    static let refusals: [(String, String, String)] = [
        ("label", "thirteen chars", "longer than 12 characters"),
        ("label", "a\u{0}b", "control characters"),
        ("label", String(repeating: "x", count: 2_000), "longer than 1024 bytes"),
        ("count", "12x", "not a whole number"),
        ("count", "100", "more than 99"),
        ("count", "-1", "less than 0"),
        ("ratio", "nan", "not a number"),
        ("ratio", "1.5", "more than 1"),
        ("loud", "maybe", "not true or false"),
        ("color", "blurple", "not a colour name"),
        ("style", "flatt", "did you mean \"flat\"?"),
        ("code", "ab12", "does not match"),
        ("icon", "../secret.svg", "relative path of an .svg file"),
        ("icon", "/etc/passwd.svg", "relative path of an .svg file"),
        ("icon", "icons/a.png", "relative path of an .svg file"),
    ]

    @Test(arguments: refusals)
    func aValueOutsideItsDeclarationIsRefusedNamingIt(parameter: String, value: String, reason: String) throws {
        let (fixture, manifest) = try fixture("refusal" + parameter)
        defer { fixture.remove() }
        let badge = try #require(manifest.component(named: "badge"))
        #expect {
            try manifest.state("normal", of: badge, parameters: [parameter: value])
        } throws: { error in
            guard let error = error as? ParameterError else { return false }
            return error.parameter == parameter && error.declaration != nil && error.description.contains(reason)
        }
    }

    @Test func unknownParametersStatesAndMissingFilesAreRefused() throws {
        let (fixture, manifest) = try fixture()
        defer { fixture.remove() }
        let badge = try #require(manifest.component(named: "badge"))
        #expect {
            try manifest.state("normal", of: badge, parameters: ["lable": "x"])
        } throws: { "\($0)".contains("has no parameter \"lable\" (did you mean \"label\"?)") }
        #expect {
            try manifest.state("nromal", of: badge, parameters: ["label": "x"])
        } throws: { "\($0)".contains("has no state \"nromal\"") }
        #expect {
            try manifest.state("normal", of: badge, parameters: ["icon": "icons/none.svg"])
        } throws: { "\($0)".contains("cannot read 'icons/none.svg'") }
    }

    @Test func badDeclarationsArePositionedProblems() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              card:
                sizes: ["10x10"]
                variables: {title: x}
                parameters:
                  title: {type: string}
                  a: {type: strng}
                  b: {type: int, min: 5, max: 1}
                  c: {type: int, maxLength: 3}
                  size: string
                  d: {enum: []}
                  e: {type: svg}
                  f: {type: string, pattern: "("}
                  g: {type: int, default: 4.5}
                  h: {type: color, default: nope}
                names: "{"
                layers: [rect: {fill: red}]
            """)
        #expect(problems.contains(4, 16, "variable \"title\" of component \"card\" is also a parameter"), "\(problems.located)")
        #expect(problems.contains(7, 17, "unknown type \"strng\" (did you mean \"string\"?)"), "\(problems.located)")
        #expect(problems.contains(8, 27, "min 5 is more than max 1"), "\(problems.located)")
        #expect(problems.contains(9, 33, "maxLength in parameter \"c\""), "\(problems.located)")
        #expect(problems.contains(10, 7, "a query key the server reads itself"), "\(problems.located)")
        #expect(problems.contains(11, 17, "must list 1 to 256 values"), "\(problems.located)")
        #expect(problems.contains(12, 10, "needs a default"), "\(problems.located)")
        #expect(problems.contains(13, 34, "must be a regular expression"), "\(problems.located)")
        #expect(problems.contains(14, 31, "not a whole number"), "\(problems.located)")
        #expect(problems.contains(15, 33, "not a colour name"), "\(problems.located)")
        #expect(problems.contains(16, 12, "a { is not closed"), "\(problems.located)")
    }

    static let iconBadge = """
        components:
          badge:
            sizes: ["20x20"]
            parameters:
              icon: {type: svg, folder: icons, default: a}
            layers:
              - svg: {file: "$icon"}
        """

    @Test func anSVGParameterWithAFolderTakesTheNamesOfItsIcons() throws {
        let (fixture, _) = try fixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/arrows/left.svg", color: "green")
        try fixture.writeSVG("icons/.hidden.svg")
        let manifest = try fixture.load(Self.iconBadge)
        let badge = try #require(manifest.component(named: "badge"))
        let icon = try #require(badge.parameters.first)
        #expect(icon.declaration == "svg in icons/")
        #expect(icon.icons == ["a", "b", "arrows/left"])
        #expect(icon.defaultValue == "icons/a.svg")
        // A name, with or without .svg, or the path a checked value already is.
        for value in ["b", "b.svg", "icons/b.svg"] { #expect(try icon.validated(value) == "icons/b.svg") }
        #expect(try icon.validated("arrows/left") == "icons/arrows/left.svg")
        // The icon is drawn: the state takes the file the name gives.
        let state = try manifest.state(badge.states[0].name, of: badge, parameters: ["icon": "arrows/left"])
        let image = try Rasterizer().image(for: badge.component(state, at: badge.sizes[0]), size: Size(width: 20, height: 20), scale: 1)
        #expect(image.pixel(x: 10, y: 10).green > 100 && image.pixel(x: 10, y: 10).red < 60)
        // Anything not among its icons is refused, never looked for on disk.
        for value in ["c", "../icons/a", "/etc/passwd", "icons/../a", ".hidden", "arrows", "a/../../x", "", "%2e%2e/a"] {
            #expect(throws: ParameterError.self, "\(value)") { try icon.validated(value) }
        }
        #expect {
            try icon.validated("bb")
        } throws: { "\($0)".contains("there is no icon \"bb\" in icons/ (did you mean \"b\"?)") }
    }

    @Test func badIconFoldersArePositionedProblems() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.writeSVG("icons/a.svg")
        let problems = try fixture.problems("""
            components:
              card:
                sizes: ["10x10"]
                parameters:
                  a: {type: string, folder: icons}
                  b: {type: svg, folder: ../outside, default: x}
                  c: {type: svg, folder: missing, default: x}
                  d: {type: svg, folder: icons, default: nope}
                  e: {type: svg, folder: /etc, default: passwd}
                layers: [rect: {fill: red}]
            """)
        #expect(problems.contains(5, 33, "applies to svg parameters only"), "\(problems.located)")
        #expect(problems.contains(6, 30, "relative path of a folder inside the manifest's folder"), "\(problems.located)")
        #expect(problems.contains(7, 30, "cannot read the folder missing"), "\(problems.located)")
        #expect(problems.contains(8, 46, "there is no icon \"nope\" in icons/"), "\(problems.located)")
        #expect(problems.contains(9, 30, "relative path of a folder"), "\(problems.located)")
    }
}
