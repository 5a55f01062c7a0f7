import Foundation

extension GoldenReport {
    /// The failures as JUnit XML for CI test reporters: one `<testsuite>` in `<testsuites>`,
    /// one `<testcase>` per failed golden (class name the test file, name the rest of its
    /// identifier) with a `<failure>` whose text is the assertion's message and the paths of
    /// its images, and the difference's bounds and largest change in its `message`. Every element and attribute Ant's JUnit schema requires is present.
    ///
    /// ```swift
    /// try report.junitXML().write(toFile: "goldens.xml", atomically: true, encoding: .utf8)
    /// ```
    ///
    /// - Parameter suiteName: the test suite's name.
    /// - Parameter timestamp: when the run happened (the schema requires one).
    /// - Parameter hostname: the machine's name (the schema requires one).
    public func junitXML(suiteName: String = "Golden images", timestamp: Date = Date(),
                         hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let count = failures.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(xmlEscaped(suiteName))\" tests=\"\(count)\" failures=\"\(count)\" errors=\"0\" time=\"0\">\n"
        xml += "  <testsuite name=\"\(xmlEscaped(suiteName))\" package=\"RasterKit\" id=\"0\" tests=\"\(count)\" failures=\"\(count)\" "
            + "errors=\"0\" skipped=\"0\" time=\"0\" timestamp=\"\(formatter.string(from: timestamp))\" "
            + "hostname=\"\(xmlEscaped(hostname))\">\n"
        xml += "    <properties/>\n"
        for failure in failures {
            let (file, test) = failure.identifier.firstIndex(of: "/").map {
                (String(failure.identifier[..<$0]), String(failure.identifier[failure.identifier.index(after: $0)...]))
            } ?? ("goldens", failure.identifier)
            // The attribute is what most CI reporters show: it says where the difference is too.
            let firstLine = (failure.message.split(separator: "\n").first.map(String.init) ?? "")
                + (failure.whereText.map { " (\($0))" } ?? "")
            xml += "    <testcase name=\"\(xmlEscaped(test))\" classname=\"\(xmlEscaped(file))\" time=\"0\">\n"
            xml += "      <failure message=\"\(xmlEscaped(firstLine))\" type=\"GoldenMismatch\">"
                + ReportText.xml(failure.message + "\n" + imagePaths(of: failure).joined(separator: "\n"), attribute: false) + "</failure>\n"
            xml += "    </testcase>\n"
        }
        let skippedText = skipped.map { "skipped \($0.folder): \($0.reason)" }.joined(separator: "\n")
        xml += "    <system-out>\(ReportText.xml(skippedText, attribute: false))</system-out>\n"
        xml += "    <system-err></system-err>\n"
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// `Golden: …`, `Expected: …`, `Actual: …`, `Diff: …` for the images the failure has.
    func imagePaths(of failure: Failure) -> [String] {
        var lines = ["Golden: \(failure.golden)"]
        for (label, name, present) in [("Expected", "expected.png", failure.expected != nil || failure.leftOut["expected.png"] != nil),
                                       ("Actual", "actual.png", true),
                                       ("Diff", "diff.png", failure.diff != nil || failure.leftOut["diff.png"] != nil)] where present {
            lines.append("\(label): \(failure.artifactsFolder)/\(name)")
        }
        return lines
    }

    private func xmlEscaped(_ text: String) -> String { ReportText.xml(text, attribute: true) }
}
