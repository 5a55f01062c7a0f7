import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import RasterKitTestSupport
import Testing
@testable import RasterKitDiff
@testable import RasterKitTesting

/// Collects the elements of an XML document with their attributes and parents.
private final class XMLOutline: NSObject, XMLParserDelegate {
    struct Element { var name: String; var attributes: [String: String]; var parent: String?; var text = "" }
    var elements: [Element] = []
    private var stack: [Int] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(Element(name: name, attributes: attributes, parent: stack.last.map { elements[$0].name }))
        stack.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let last = stack.last { elements[last].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}

/// The report for CI: JUnit XML, Markdown, the `rasterkit report` flags, and the compare mode.
@Suite struct CIReportTests {
    /// Two failures (one with a mask) and one missing golden under `CI`, in one artifacts folder.
    private func failures() throws -> Harness {
        let harness = try Harness()
        for test in ["few", "sizes"] {
            let golden = harness.golden(test)
            try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try square(.blue).pngData().write(to: golden)
        }
        withKnownIssue {
            try harness.assert(square(.blue, dot: true), test: "few", masks: [Rect(x: 8, y: 8, width: 2, height: 2)])
            try harness.assert(square(.blue, side: 12), test: "sizes")
            try harness.assert(square(.red), test: "missing & <new>", environment: ["CI": "true"])
        }
        return harness
    }

    @Test func junitHasEveryElementAndAttributeTheSchemaRequires() throws {
        let harness = try failures()
        let report = try GoldenReport(artifactsDirectory: harness.artifacts)
        let xml = report.junitXML(timestamp: Date(timeIntervalSince1970: 1_800_000_000), hostname: "ci-runner")
        let outline = XMLOutline()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = outline
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(outline.elements.first?.name == "testsuites")
        let suites = outline.named("testsuite")
        #expect(suites.count == 1)
        let suite = try #require(suites.first)
        // Ant's junit-4.xsd: testsuite requires these attributes (package and id inside testsuites)…
        for attribute in ["name", "timestamp", "hostname", "tests", "failures", "errors", "time", "package", "id"] {
            #expect(suite.attributes[attribute]?.isEmpty == false, "testsuite@\(attribute)")
        }
        #expect(suite.attributes["timestamp"] == "2027-01-15T08:00:00")
        #expect(suite.attributes["tests"] == "3" && suite.attributes["failures"] == "3" && suite.attributes["errors"] == "0")
        // …and these children.
        for child in ["properties", "system-out", "system-err"] {
            #expect(outline.named(child).filter { $0.parent == "testsuite" }.count == 1, "\(child)")
        }
        let cases = outline.named("testcase")
        #expect(cases.count == 3)
        for testcase in cases {
            for attribute in ["name", "classname", "time"] { #expect(testcase.attributes[attribute] != nil, "testcase@\(attribute)") }
            #expect(testcase.attributes["classname"] == "GoldenAssertionTests")
        }
        #expect(Set(cases.compactMap { $0.attributes["name"] }) == ["few@1x", "sizes@1x", "missing & <new>@1x"])
        let failures = outline.named("failure")
        #expect(failures.count == 3 && failures.allSatisfy { $0.attributes["type"] == "GoldenMismatch" && $0.attributes["message"] != nil })
        let few = try #require(failures.first { $0.attributes["message"]?.contains("few@1x differs") == true })
        #expect(few.text.contains("Diff: \(harness.artifactsFolder("few").path)/diff.png"))
        #expect(few.text.contains("Expected: \(harness.artifactsFolder("few").path)/expected.png"))
    }

    @Test func markdownListsEachFailureWithItsImagePaths() throws {
        let harness = try failures()
        let markdown = try GoldenReport(artifactsDirectory: harness.artifacts).markdown()
        #expect(markdown.hasPrefix("## 3 golden failures\n\n| Golden | Different pixels | Where | Images |"))
        #expect(markdown.contains("| `GoldenAssertionTests/few@1x` | 2 of 100 (2.0000%) | `different pixels in x 2–3, y 2–2 (2×1 px); "
            + "largest change at (2, 2): #0000FFFF → #000000FF, distance 0.32` | `Expected: \(harness.artifactsFolder("few").path)/expected.png`"))
        #expect(markdown.contains("`Diff: \(harness.artifactsFolder("few").path)/diff.png`"))
        #expect(markdown.contains("| `GoldenAssertionTests/sizes@1x` | size differs |  |"))
        #expect(markdown.contains("<details><summary>GoldenAssertionTests/missing &amp; &lt;new&gt;@1x</summary>"))
        #expect(try GoldenReport(artifactsDirectory: harness.root).markdown().hasPrefix("## No golden failures"))
    }

    /// Issue 46: names are text in every format — no heading, link, HTML or extra table row
    /// comes out of a test or golden name, and XML keeps them whole.
    @Test func hostileNamesAreEscapedInEveryFormat() throws {
        let harness = try failures()
        var report = try GoldenReport(artifactsDirectory: harness.artifacts)
        let names = ["a\r# heading", "b\n\n[link](https://example.com)", "c|d|e", "f `code` g``h", "i\u{2028}j", "k <script>x</script>",
                     "l & 'm' \"n\""]
        let template = report.failures[0]
        report.failures = names.map { name in
            var failure = template
            failure.identifier = "Tests/" + name
            failure.message = "differs\n```\n# not a heading\n```"
            return failure
        }
        let markdown = report.markdown()
        // The lines Markdown reads as Markdown: those outside the fenced messages.
        var lines: [Substring] = [], fence: Substring?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if let open = fence {
                if line == open { fence = nil }
            } else if line.hasPrefix("```") {
                fence = line
            } else {
                lines.append(line)
            }
        }
        #expect(lines.filter { $0.hasPrefix("| `") }.count == names.count, "\(markdown)")
        #expect(lines.filter { $0.hasPrefix("#") }.count == 1, "one heading only: \(markdown)")
        #expect(!lines.contains { $0.hasPrefix("[link]") }, "\(markdown)")
        #expect(!lines.contains { $0.hasPrefix("<details>") && $0.contains("<script>") }, "\(markdown)")
        #expect(!markdown.contains("\u{2028}") && !markdown.contains("\r"))
        let html = report.html()
        #expect(!html.contains("<script>x") && html.contains("&lt;script&gt;") && html.contains("&#39;m&#39;"))
        let xml = report.junitXML(timestamp: Date(timeIntervalSince1970: 0), hostname: "h")
        let outline = XMLOutline()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = outline
        #expect(parser.parse())
        #expect(Set(outline.named("testcase").compactMap { $0.attributes["name"] }) == Set(names))
    }

    @Test func theCommandWritesJUnitAndAppendsMarkdown() throws {
        let harness = try failures()
        let junit = harness.root.appendingPathComponent("goldens.xml"), summary = harness.root.appendingPathComponent("summary.md")
        try Data("# Earlier step\n".utf8).write(to: summary)
        let run = try CLI.run(["report", harness.artifacts.path, "--out", harness.root.appendingPathComponent("r.html").path,
                               "--junit", junit.path, "--markdown", summary.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<testsuites name=\"Golden images\" tests=\"3\""))
        let text = try String(contentsOf: summary, encoding: .utf8)
        #expect(text.hasPrefix("# Earlier step\n## 3 golden failures"))
    }

    @Test func badReportFlagsAreClearErrors() throws {
        let harness = try failures()
        let html = harness.root.appendingPathComponent("r.html").path
        func failure(_ arguments: [String]) throws -> String {
            let run = try CLI.run(["report", harness.artifacts.path, "--out", html] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            return run.stderr
        }
        #expect(try failure(["--junit", ""]).contains("--junit"))
        #expect(try failure(["--markdown", ""]).contains("--markdown"))
        #expect(try failure(["--junit", harness.artifacts.appendingPathComponent("x.xml").path]).contains("inside the artifacts directory"))
        #expect(try failure(["--junit", html]).contains("--junit \(html) is the same file as --out"))
        let same = harness.root.appendingPathComponent("same").path
        #expect(try failure(["--junit", same, "--markdown", same]).contains("is the same file as --junit"))
        #expect(try failure(["--markdown", harness.root.path]).contains("only a regular file"))
        #expect(try failure(["--junit"]).contains("Missing value for '--junit"))
    }

    @Test func compareModeReportsEveryDifferenceWithoutFailing() throws {
        let harness = try Harness()
        let golden = harness.golden("upgrade")
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        let reviewed = try square(.blue).pngData()
        try reviewed.write(to: golden)
        // No issue is recorded (a recorded issue would fail this test), nothing is written to the goldens.
        try harness.assert(square(.blue, dot: true), test: "upgrade", environment: ["RASTERKIT_RECORD": "compare", "CI": "true"])
        try harness.assert(square(.red), test: "brandNew", environment: ["RASTERKIT_RECORD": "compare"])
        #expect(try Data(contentsOf: golden) == reviewed)
        #expect(!FileManager.default.fileExists(atPath: harness.golden("brandNew").path))
        let report = try GoldenReport(artifactsDirectory: harness.artifacts)
        #expect(Set(report.failures.map(\.identifier)) == ["GoldenAssertionTests/upgrade@1x", "GoldenAssertionTests/brandNew@1x"])
        #expect(try RecordMode.current(["RASTERKIT_RECORD": "COMPARE"]).mode == .compare)
    }
}
