import Foundation

/// What one test process's golden assertions checked: written by RasterKitTesting as the tests
/// run, read by `rasterkit goldens unused` to find goldens no assertion touched.
///
/// The records of one `swift test` live in one folder, `<runs>/<run>/` (`<run>` names the
/// `swift test` process, so its XCTest and Swift Testing processes share it), one text file per
/// test process:
///
/// ```
/// rasterkit golden run 1
/// started 1764086400.125
/// filtered false
/// arguments --testing-library swift-testing
/// golden /work/app/Goldens/ButtonTests/primaryButton@2x.png
/// ```
package struct GoldenRunRecord: Sendable, Equatable {
    package static let header = "rasterkit golden run 1"

    /// When the process asserted its first golden, in seconds since 1970.
    package var started: Double
    /// Whether the process ran only some tests (`--filter`, `--skip`, or XCTest test names).
    package var filtered: Bool
    /// The test process's arguments, for messages.
    package var arguments: String
    /// The absolute paths of the goldens asserted.
    package var goldens: [String]

    package init(started: Double, filtered: Bool, arguments: String, goldens: [String] = []) {
        self.started = started
        self.filtered = filtered
        self.arguments = arguments
        self.goldens = goldens
    }

    /// The lines before the goldens.
    package var headerText: String {
        "\(GoldenRunRecord.header)\nstarted \(started)\nfiltered \(filtered)\narguments \(arguments.replacingOccurrences(of: "\n", with: " "))\n"
    }

    /// One golden's line.
    package static func line(forGolden path: String) -> String { "golden \(path)\n" }

    /// Parses a record; nil when the text is not one (another file in the folder).
    package init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        guard lines.next() == Substring(GoldenRunRecord.header) else { return nil }
        var started: Double?, filtered: Bool?, arguments = "", goldens: [String] = []
        while let line = lines.next() {
            let (key, value) = line.firstIndex(of: " ").map { (line[..<$0], String(line[line.index(after: $0)...])) } ?? (line, "")
            switch key {
            case "started": started = Double(value)
            case "filtered": filtered = Bool(value)
            case "arguments": arguments = value
            case "golden": goldens.append(value)
            default: continue
            }
        }
        guard let started, let filtered else { return nil }
        self.init(started: started, filtered: filtered, arguments: arguments, goldens: goldens)
    }

    /// Whether a test process with these arguments runs only some tests.
    package static func isFiltered(arguments: [String]) -> Bool {
        if arguments.contains(where: { $0 == "--filter" || $0 == "--skip" || $0.hasPrefix("--filter=") || $0.hasPrefix("--skip=") }) {
            return true
        }
        // XCTest takes the tests to run as plain arguments.
        if !arguments.contains("--testing-library") {
            return arguments.contains { !$0.hasPrefix("-") }
        }
        return false
    }
}
