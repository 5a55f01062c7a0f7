import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Keys must be the same in every process and on every run: they name renders on disk. These
/// tests run the probe executable in separate processes and compare against a committed table.
/// When a change to key computation is intended, bump `CacheKey.formatVersion` and regenerate
/// the table (see Fixtures/known-digests.json).
@Suite struct KeyStabilityTests {
    struct Table: Decodable {
        var formatVersion: Int
        var probe: [String: String]
        var inProcess: [String: String]
    }

    static func table() throws -> Table {
        try JSONDecoder().decode(Table.self, from: Data(contentsOf: TestSupport.fixtures.appendingPathComponent("known-digests.json")))
    }

    /// Runs the probe (under `faketime` at `date`, when given) and returns its `name digest`
    /// lines as a dictionary.
    static func probeDigests(environment: [String: String] = [:], date: String? = nil) throws -> [String: String] {
        let probe = TestSupport.productsDirectory.appendingPathComponent("RasterKitProbe").path
        let (executable, arguments) = date.map { ("/usr/bin/faketime", [$0, probe, "digests"]) } ?? (probe, ["digests"])
        let (termination, data, _) = try ChildProcess.run(executable, arguments, environment: environment)
        #expect(termination == .success)
        var digests: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { digests[String(parts[0])] = String(parts[1]) }
        }
        return digests
    }

    @Test func digestsAreTheSameInSeparateProcesses() throws {
        let first = try Self.probeDigests()
        let second = try Self.probeDigests(environment: ["SWIFT_DETERMINISTIC_HASHING": "1", "LANG": "C",
                                                         "TZ": "America/New_York"])
        #expect(first.count == 12)
        #expect(first == second)
    }

    /// Time zones and calendars are keyed by identity, not by what they say about now: a
    /// daylight-saving switch between two runs changes no key. `faketime` (installed by
    /// `make deps`) sets the clock the probe sees.
    /// libfaketime and ThreadSanitizer's runtime deadlock when both intercept the clock, so the
    /// probe this test runs under faketime cannot start in a ThreadSanitizer build.
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "libfaketime deadlocks a ThreadSanitizer process"))
    func digestsAreTheSameOnDatesInEitherDaylightSavingPeriod() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"), "faketime is missing: run make deps")
        let winter = try Self.probeDigests(environment: ["TZ": "Europe/Paris"], date: "2026-01-15 12:00:00")
        let summer = try Self.probeDigests(environment: ["TZ": "Europe/Paris"], date: "2026-07-15 12:00:00")
        #expect(winter.count == 12)
        #expect(winter == summer)
        #expect(winter == (try Self.table()).probe)
    }

    @Test func digestsMatchTheCommittedTable() throws {
        let table = try Self.table()
        #expect(table.formatVersion == CacheKey.formatVersion,
                "CacheKey.formatVersion changed: regenerate Fixtures/known-digests.json")
        #expect(try Self.probeDigests() == table.probe)
        #expect(Self.inProcessDigests() == table.inProcess)
    }

    // Internal, not private: in debug builds private and local types are named by their place
    // in the binary (see TypeIdentity), which moves whenever the tests are rebuilt.
    struct Sample: Rasterizable {
        var title: String
        var scores: [String: Int]
        var accent: Color
        func draw(in canvas: Canvas, size: Size) throws {}
    }

    static func inProcessDigests() -> [String: String] {
        let sample = Sample(title: "Continue", scores: ["a": 1, "b": 2, "c": 3], accent: Color(red: 0.18, green: 0.44, blue: 0.92))
        return [
            "sample": Rasterizer().key(for: sample, size: Size(width: 160, height: 44), scale: 2).digest,
            "sample-3x": Rasterizer().key(for: sample, size: Size(width: 160, height: 44), scale: 3).digest,
        ]
    }

    /// Prints the current digests in the table's format; run with `--filter printTable` after an
    /// intended format change.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RASTERKIT_PRINT_DIGESTS"] != nil))
    func printTable() throws {
        let table: [String: Any] = ["formatVersion": CacheKey.formatVersion, "probe": try Self.probeDigests(),
                                    "inProcess": Self.inProcessDigests()]
        let data = try JSONSerialization.data(withJSONObject: table, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
