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

    /// Parses a record, strictly: nil for anything that is not wholly one — a line cut short
    /// (a process that died mid-write), an unknown or repeated field, a start time that is not a
    /// positive finite number, a golden path that is not absolute. Deleting goldens follows from
    /// these records, so one that cannot be read in full is not read at all.
    package init?(text: String) {
        guard text.hasSuffix("\n") else { return nil }
        var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        guard lines.next() == Substring(GoldenRunRecord.header) else { return nil }
        var started: Double?, filtered: Bool?, arguments: String?, goldens: [String] = []
        while let line = lines.next() {
            guard let space = line.firstIndex(of: " ") else { return nil }
            let key = line[..<space], value = String(line[line.index(after: space)...])
            switch key {
            case "started":
                guard started == nil, let seconds = Double(value), seconds.isFinite, seconds > 0 else { return nil }
                started = seconds
            case "filtered":
                guard filtered == nil, let flag = Bool(value) else { return nil }
                filtered = flag
            case "arguments":
                guard arguments == nil else { return nil }
                arguments = value
            case "golden":
                guard value.hasPrefix("/"), !value.contains("\0") else { return nil }
                goldens.append(value)
            default:
                return nil
            }
        }
        guard let started, let filtered else { return nil }
        self.init(started: started, filtered: filtered, arguments: arguments ?? "", goldens: goldens)
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
