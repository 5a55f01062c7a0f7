import Foundation
import Testing
@testable import RasterKit
@testable import RasterKitBatch

/// Every kind of manifest mistake, reported at its line and column with what was expected —
/// all of them at once.
@Suite struct ManifestErrorTests {
    @Test func everyProblemIsReportedAtOnceWithItsPosition() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let text = """
            components:
              button:
                sizes: ["160x44"]
                layers:
                  - roundedRect: {radius: 8, fil: "#2F6FEB"}
                  - text: {text: Hi, color: "#GG0000", alignment: middle}
                  - svg: {file: icons/missing.svg}
                  - use: {component: buton}
                  - path: {data: "M0 0 L10 10 X"}
                  - ellipse: {opacity: high}
            """
        // Problems name the manifest as it was given.
        let error = #expect(throws: ManifestError.self) {
            try Manifest(data: Data(text.utf8), file: "showcase.yaml", directory: fixture.folder)
        }
        #expect(error?.problems.map(\.description) == [
            ##"showcase.yaml:5:34: unknown key "fil" in roundedRect (did you mean "fill"?); expected frame, inset, opacity, blendMode, visible, fill, fillRule, stroke, shadow, innerShadow, radius"##,
            ##"showcase.yaml:6:33: bad colour "#GG0000" for color in text: contains a character that is not a hexadecimal digit (expected #RGB, #RGBA, #RRGGBB, #RRGGBBAA or a CSS colour name)"##,
            ##"showcase.yaml:6:55: unknown value "middle" for alignment in text; expected one of natural, left, center, right, justified"##,
            ##"showcase.yaml:7:21: file in svg: cannot read 'icons/missing.svg': No such file or directory"##,
            ##"showcase.yaml:8:26: unknown component "buton" in use (did you mean "button"?); expected one of button"##,
            ##"showcase.yaml:9:35: bad path data for data in path at offset 12: unknown command letter 'X'"##,
            ##"showcase.yaml:10:28: opacity in ellipse must be a number, not the text "high""##,
        ])
    }

    @Test func anUnquotedColourSaysToQuoteIt() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              dot:
                sizes: ["8x8"]
                layers:
                  - ellipse:
                      fill: #2F6FEB
            """)
        #expect(problems.count == 1)
        #expect(problems.contains(6, 16, ##"fill in ellipse has no value; in YAML '#' starts a comment, so quote colours: "#2F6FEB""##))
    }

    @Test func wrongTypes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              c:
                sizes: ["10x10"]
                states: [a, b]
                layers:
                  - rect: [1, 2]
                  - roundedRect: {radius: [1, 2], frame: [0, 0, 10]}
                  - text: {text: {a: 1}, maxLines: 1.5, lineHeight: 0}
                  - ellipse: {visible: maybe, fill: {linear: {colors: red}}}
                  - group: {layers: {rect: {}}}
              d: 5
              e:
                layers: {rect: {}}
            svgs: {input: icons}
            """)
        #expect(problems.located == [
            "4:13: states in component \"c\" must be a mapping of state names to their variables, not a list",
            "6:15: rect must be a mapping of keys to values, not a list",
            "7:31: radius in roundedRect must be a list of 4 numbers, not a list of 2",
            "7:46: frame in roundedRect must be a list of 4 numbers, not a list of 3",
            "8:22: text in text must be text, not a mapping",
            "8:40: maxLines in text must be a whole number, not 1.5",
            "8:57: lineHeight in text must be greater than 0, not 0",
            "9:28: visible in ellipse must be true or false, not the text \"maybe\"",
            "9:59: colors in linear gradient must be a list of two or more colours, not the text \"red\"",
            "10:25: layers in group must be a list of layers, not a mapping",
            "11:6: component \"d\" must be a mapping of keys to values, not the number 5",
            "13:13: layers of component \"e\" must be a list of layers, not a mapping",
            "14:7: svgs must be a list of entries, not a mapping",
        ])
    }

    @Test func unknownKeysSuggestTheClosestOne() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            varibles: {}
            components:
              c:
                size: ["10x10"]
                layers:
                  - roundRect: {}
                  - rect: {strok: red, zzz: 1}
            """)
        #expect(problems.contains(1, 1, ##"unknown key "varibles" in the manifest (did you mean "variables"?)"##))
        #expect(problems.contains(4, 5, ##"unknown key "size" in component "c" (did you mean "sizes"?)"##))
        #expect(problems.contains(6, 9, ##"unknown layer kind "roundRect" (did you mean "roundedRect"?); expected one of rect, roundedRect"##))
        #expect(problems.contains(7, 16, ##"unknown key "strok" in rect (did you mean "stroke"?)"##))
        #expect(problems.contains(7, 28, ##"unknown key "zzz" in rect; expected frame"##))
        #expect(problems.count == 5)
    }

    @Test func unknownEnumValuesListTheValidOnes() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              c:
                sizes: ["10x10"]
                outputs: [png, gif]
                layers:
                  - rect: {blendMode: multipy, fillRule: odd, stroke: {color: red, cap: flat}}
            """)
        #expect(problems.contains(4, 20, ##"unknown value "gif" for outputs in component "c"; expected one of png, xcassets, ninepatch, webp, pdf, svg"##))
        #expect(problems.contains(6, 27, ##"unknown value "multipy" for blendMode in rect; expected one of normal, multiply"##))
        #expect(problems.contains(6, 27, ##"(did you mean "multiply"?)"##))
        #expect(problems.contains(6, 46, ##"unknown value "odd" for fillRule in rect; expected one of nonZero, evenOdd"##))
        #expect(problems.contains(6, 77, ##"unknown value "flat" for cap in stroke in rect; expected one of butt, round, square"##))
    }

    @Test func variableProblems() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            variables:
              a: "$b"
              b: "$a"
              accent: "#FF0000"
              shade: {blur: 2}
            components:
              c:
                sizes: ["10x10"]
                states:
                  on: {fill: "$acent"}
                  9lives: {}
                layers:
                  - rect: {fill: "$fill", opacity: "$a"}
                  - text: {text: "Hello ${shade}", color: "${missing}"}
            """)
        #expect(problems.contains(10, 18, ##"unknown variable "$acent" in state "on" of component "c" (did you mean "$accent"?)"##))
        #expect(problems.contains(11, 7, ##"state name "9lives"##) == false, "state names may start with a digit")
        #expect(problems.contains(2, 6, "variables refer to each other in a loop: $a → $b → $a")
                || problems.contains(3, 6, "variables refer to each other in a loop"))
        #expect(problems.contains(14, 22, ##"variable "$shade" is a mapping, which cannot be put inside text"##))
        #expect(problems.contains(14, 47, ##"unknown variable "$missing" in state "on" of component "c""##))
    }

    @Test func useProblems() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              self:
                sizes: ["10x10"]
                layers: [use: {component: self}]
              a:
                sizes: ["10x10"]
                layers: [use: {component: b}]
              b:
                layers: [use: {component: c, state: nope}, use: {component: a}]
              c:
                states: {up: {}, down: {}}
                layers: [rect: {fill: red}]
            """)
        #expect(problems.contains(4, 31, "cyclic use: self → self; a component cannot contain itself"))
        #expect(problems.contains(9, 65, "cyclic use: a → b → a"))
        #expect(problems.contains(9, 41, ##"unknown state "nope" of component "c"; expected one of up, down"##))
    }

    @Test func sizeScaleAndCapProblems() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              a:
                sizes: ["0x10", 100000, "axb", {width: 30, height: 40, caps: [10, 16, 10, 16]}, {width: 10}]
                scales: [1, -2, 0]
                layers: [rect: {fill: red}]
              b:
                sizes: ["10000x10000"]
                scales: [3]
                caps: -1
                layers: [rect: {fill: red}]
              "bad name":
                layers: []
            """)
        #expect(problems.contains(3, 13, "a size in sizes in component \"a\" must be between 0 and 16384 points on each side, not 0x10"))
        #expect(problems.contains(3, 21, "a size in sizes in component \"a\" must be at most 16384, not 100000"))
        #expect(problems.contains(3, 29, "a size in sizes in component \"a\" must be {width, height}, \"WxH\" or a number"))
        #expect(problems.contains(3, 36, "caps [10, 16, 10, 16] need more than 32×20 points, but the size is 30×40"))
        #expect(problems.contains(3, 85, "a size in sizes in component \"a\" needs \"height\""))
        #expect(problems.contains(4, 17, "a scale in scales in component \"a\" must be greater than 0, not -2"))
        #expect(problems.contains(4, 21, "a scale in scales in component \"a\" must be greater than 0, not 0"))
        #expect(problems.contains(7, 13, "10000×10000 points at 3x is 30000×30000 pixels, over RasterKit's limit of 16384 pixels a side"))
        #expect(problems.contains(9, 11, "caps in component \"b\" must be at least 0, not -1"))
        #expect(problems.contains(11, 3, ##"component name "bad name" may only contain letters, digits"##))
    }

    @Test func aSizeListedTwiceWithOtherCapsOrContentIsAProblem() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            components:
              panel:
                caps: 8
                sizes:
                  - "40x40"
                  - {width: 40, height: 40, caps: 12}
                  - {width: 40, height: 40, content: 4}
                  - 40
                  - "60x40"
                layers: [rect: {fill: red}]
            """)
        #expect(problems.located == [
            "6:9: 40×40 is already in sizes in component \"panel\" on line 5 with other caps or content insets; each size is one file, so list it once",
            "7:9: 40×40 is already in sizes in component \"panel\" on line 5 with other caps or content insets; each size is one file, so list it once",
        ])
        // The same size with the same caps is the same file: listed twice, drawn once.
        let manifest = try fixture.load("""
            components:
              panel:
                caps: 8
                sizes: ["40x40", 40, {width: 40, height: 40, caps: 8}, "60x40"]
                layers: [rect: {fill: red}]
            """)
        #expect(manifest.components[0].sizes.map(\.size) == [Size(40), Size(width: 60, height: 40)])
    }

    @Test func yamlSyntaxErrorsEmptyFilesAndWrongTopLevels() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        #expect(try fixture.problems("components:\n  a: {layers: [rect: {fill: red}]\n").located
            == ["3:1: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping)"])
        #expect(try fixture.problems("components:\n\tbad: 1\n").first?.message.hasPrefix("YAML syntax error: found character that cannot start any token") == true)
        #expect(try fixture.problems("components: {a: 1, a: 2}\n").first?.message == ##"duplicate key "a" in a mapping"##)
        #expect(try fixture.problems("").located == ["1:1: the manifest is empty; expected a mapping with components: and/or svgs:"])
        #expect(try fixture.problems("# only a comment\n").located
            == ["1:1: the manifest is empty; expected a mapping with components: and/or svgs:"])
        #expect(try fixture.problems("- a\n- b\n").located
            == ["1:1: the manifest must be a mapping with components: and/or svgs:, not a list"])
        #expect(try fixture.problems("just text").located
            == ["1:1: the manifest must be a mapping with components: and/or svgs:, not the text \"just text\""])
        #expect(try fixture.problems("version: 2\nsvgs: []\n").located == ["1:10: version 2 is not supported; this RasterKit reads version 1"])
        #expect(try fixture.problems("name: x\n").located == ["1:1: the manifest renders nothing: add components: and/or svgs:"])
        #expect(try fixture.problems(String(decoding: [0xFF, 0xFE, 0x00], as: UTF8.self)).isEmpty == false)
    }

    @Test func missingAndWrongFiles() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        try fixture.write("not a png", to: "fake.png")
        let problems = try fixture.problems("""
            components:
              c:
                sizes: ["10x10"]
                layers:
                  - image: {file: fake.png}
                  - image: {file: nowhere.png}
                  - image: {frame: [0, 0, 1, 1]}
            svgs:
              - {input: [nothing-here], sizes: [16]}
            """)
        #expect(problems.located == [
            ##"5:23: file in image names "fake.png", which is not a PNG file"##,
            "6:23: file in image: cannot read 'nowhere.png': No such file or directory",
            ##"7:16: image needs "file" (a PNG file, relative to the manifest)"##,
            "9:14: missing file or folder for input in svgs entry: 'nothing-here'",
        ])
        let missing = fixture.folder.appendingPathComponent("absent.yaml")
        #expect(throws: ManifestError(problems: [.init(file: missing.path, line: 1, column: 1,
                                                       message: "cannot read the manifest: No such file or directory")])) {
            try Manifest(contentsOf: missing)
        }
    }

    /// Scales a format cannot hold are found when planning, pointing at the component's scales.
    @Test func formatScaleProblemsPointAtTheScales() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        let manifest = try fixture.load("""
            components:
              c:
                sizes: ["10x10"]
                scales: [1, 1.5]
                layers: [rect: {fill: red}]
            """)
        #expect(try manifest.plan().outputs.count == 2)
        #expect(try manifest.plan(format: .ninepatch).outputs.count == 2)
        let error = #expect(throws: ManifestError.self) { try manifest.plan(format: .xcassets) }
        #expect(error?.problems.located == [
            ##"4:13: component "c" has scale 1.5, which xcassets cannot hold; xcassets takes 1, 2 and 3"##,
        ])
    }
}

extension ManifestErrorTests {
    /// Aliases that expand exponentially are refused before anything walks them.
    @Test func aliasBombsAreRefused() throws {
        let fixture = try ManifestFixture()
        defer { fixture.remove() }
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let problems = try fixture.problems("variables:\n" + text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
                                            + "\ncomponents: {}\n")
        #expect(problems.located == ["1:1: the manifest expands to more than 1000000 values (through YAML aliases?)"])
    }
}
