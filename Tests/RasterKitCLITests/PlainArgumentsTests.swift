import ArgumentParser
import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKitCLI

/// `rasterkit svg` and `render` lines in plain forms are read without ArgumentParser
/// (``SVGCommand/init(plainArguments:)``, ``RenderCommand/init(plainArguments:)``). Whatever that reading accepts, it must read exactly as
/// ArgumentParser does, and it must set every property, so these tests compare the two readings
/// property by property through reflection: an option added to SVGCommand and not to the plain
/// reading fails them.
@Suite struct PlainArgumentsTests {
    static let folder = try! TestScratch.folder("plain-arguments")

    /// Lines both readings accept.
    static let accepted: [[String]] = [
        ["a.svg", "--size", "48", "--out", "out"],
        ["icons", "more", "--size", "24", "--size=48", "--scale", "1", "--scale", "2.5", "--out", "o", "--jobs", "3"],
        ["--out=o", "--size", "16", "x.svg", "--mode", "aspect-fit", "--tint", "#1C71D8", "--json"],
        ["a.svg", "--size", "16", "--out", "o", "--mode", "aspectFill", "--post", "circle", "--post", "tint: #2F6FEB"],
        ["a.svg", "--size", "1e1", "--out", "o", "--no-cache", "--list-outputs", "--allow-external-references"],
        ["a.svg", "--size", "16", "--out", "o", "--cache", folder.appendingPathComponent("s.sqlite").path,
         "--remote-cache", "http://127.0.0.1:9/c", "--remote-timeout", "2.5"],
        ["a.svg", "--size", "16", "--out", "o", "--max-memory", "64", "--time-limit", "3", "--max-side", "512",
         "--max-pixels", "100000", "--max-file-size", "2"],
    ]

    @Test(arguments: accepted)
    func readsAPlainLineExactlyAsArgumentParserDoes(_ line: [String]) throws {
        try Self.expectSameReading(SVGCommand(plainArguments: line), of: line)
    }

    /// Lines the plain reading leaves to ArgumentParser: other forms, repeats, values that do not
    /// convert, unknown names, and lines that do not validate.
    static let declined: [[String]] = [
        ["a.svg", "--size", "48"],                              // no --out
        ["a.svg", "--size", "48", "--out", "a", "--out", "b"],  // a single value twice
        ["a.svg", "--size", "48", "--out", "o", "--json", "--json"],
        ["a.svg", "--size", "48", "--out", "o", "--json=true"],
        ["a.svg", "--size", "big", "--out", "o"],
        ["a.svg", "--size", "0", "--out", "o"],                  // fails validation
        ["a.svg", "--size", "48", "--out", "o", "--jobs", "-2"], // a value that starts with -
        ["a.svg", "--size", "48", "--out", "o", "--mode", "sideways"],
        ["a.svg", "--size", "48", "--out", "o", "--bogus"],
        ["a.svg", "--size", "48", "--out", "o", "-h"],
        ["a.svg", "--size", "48", "--out", "o", "--help"],
        ["a.svg", "--size", "48", "--out", "o", "--version"],
        ["--", "a.svg", "--size", "48", "--out", "o"],
        ["-", "--size", "48", "--out", "o"],
        ["a.svg", "--size", "48", "--out", "o", "--=x"],
        ["a.svg", "--size", "48", "--out", "o", "--size"],      // a value missing at the end
        ["a.svg", "--size", "48", "--out", "o", "--cache", "c.sqlite", "--no-cache"],
        ["a.svg", "--size", "48", "--out", ""],
        ["--size", "48", "--out", "o"],                         // no input
        ["a.svg", "--size", "48", "--out", "o", "--max-side", "0"],
        ["a.svg", "--size", "48", "--out", "o", "--post", "wobble: 3"],
        ["a.svg", "--size", "48", "--out", "o", "--generate-completion-script", "bash"],
    ]

    @Test(arguments: declined)
    func leavesEveryOtherLineToArgumentParser(_ line: [String]) {
        #expect(SVGCommand(plainArguments: line) == nil)
    }

    /// `render` lines both readings accept.
    static let acceptedRender: [[String]] = [
        ["m.yaml", "--out", "out"],
        ["--out=o", "m.yaml", "--jobs", "2", "--format", "xcassets", "--json", "--cache", folder.appendingPathComponent("r.sqlite").path],
        ["m.yaml", "--out", "o", "--format", "webp", "--quality", "80", "--shard", "1/4", "--no-cache", "--list-outputs"],
        ["m.yaml", "--out", "o", "--contact-sheet", folder.appendingPathComponent("sheet.png").path, "--max-side", "256",
         "--time-limit", "1.5", "--remote-cache", "https://127.0.0.1:9/c"],
    ]

    @Test(arguments: acceptedRender)
    func readsAPlainRenderLineExactlyAsArgumentParserDoes(_ line: [String]) throws {
        try Self.expectSameReading(RenderCommand(plainArguments: line), of: line)
    }

    /// `plain` was read, and is what ArgumentParser reads from `line`, property by property.
    static func expectSameReading<Command: ParsableCommand>(_ plain: Command?, of line: [String]) throws {
        let plain = try #require(plain, "the plain reading declined \(line)")
        let parsed = try #require(try Command.parseAsRoot(line) as? Command)
        #expect(values(of: plain) == values(of: parsed))
    }

    static let declinedRender: [[String]] = [
        ["m.yaml"],                                              // no --out
        ["m.yaml", "other.yaml", "--out", "o"],                  // two manifests
        ["--out", "o"],                                          // no manifest
        ["m.yaml", "--out", "o", "--format", "gif"],
        ["m.yaml", "--out", "o", "--format", "png", "--quality", "80"],  // fails validation
        ["m.yaml", "--out", "o", "--shard", "1/4", "--shard-count", "4"],
        ["m.yaml", "--out", "o", "--shard", "9"],
        ["m.yaml", "--out", "o", "--contact-sheet", "o/sheet.png"],
        ["m.yaml", "--out", "o", "--size", "48"],                // an svg option
        ["m.yaml", "--out", "o", "--json", "--json"],
    ]

    @Test(arguments: declinedRender)
    func leavesEveryOtherRenderLineToArgumentParser(_ line: [String]) {
        #expect(RenderCommand(plainArguments: line) == nil)
    }

    @Test func readsItemsOneByOne() {
        var reader = PlainArguments(["a", "--b", "c", "--d=e=f", "-g", "--", "-", "--=h", "--i"])
        #expect(reader.next() == .positional("a"))
        #expect(reader.next() == .option(name: "b", value: nil))
        #expect(reader.value(nil) == "c")
        #expect(reader.next() == .option(name: "d", value: "e=f"))
        #expect(reader.next() == .unreadable)
        #expect(reader.next() == .unreadable)
        #expect(reader.next() == .unreadable)
        #expect(reader.next() == .unreadable)
        #expect(reader.next() == .option(name: "i", value: nil))
        #expect(reader.value(nil) == nil)
        #expect(reader.next() == nil)
    }

    /// Every property of `command`, through its property wrappers and option groups, as text;
    /// a property the reading left unset records `unset` instead of a value.
    static func values(of command: Any) -> [String] {
        var values: [String] = []
        func walk(_ value: Any, _ path: String) {
            let mirror = Mirror(reflecting: value)
            // A property wrapper holds `_parsedValue`: `.value(v)` when set, `.definition` when not.
            if let parsed = mirror.children.first(where: { $0.label == "_parsedValue" })?.value {
                guard let set = Mirror(reflecting: parsed).children.first, set.label == "value" else {
                    values.append("\(path): unset")
                    return
                }
                if Mirror(reflecting: set.value).displayStyle == .struct,
                   String(describing: type(of: set.value)).hasSuffix("Options") {
                    walk(set.value, path)
                } else {
                    values.append("\(path): \(String(reflecting: set.value))")
                }
                return
            }
            for child in mirror.children { walk(child.value, path + "." + (child.label ?? "?")) }
        }
        walk(command, "")
        return values
    }

    @Test func theComparisonSeesAnUnsetProperty() {
        #expect(Self.values(of: SVGCommand()).allSatisfy { $0.hasSuffix(": unset") })
        #expect(Self.values(of: SVGCommand()).count >= 10)
        #expect(Self.values(of: RenderCommand()).allSatisfy { $0.hasSuffix(": unset") })
    }
}
