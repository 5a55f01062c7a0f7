import Foundation
import RasterKitTestSupport
import Testing
@testable import RasterKitDiff
@testable import RasterKitTesting

/// `rasterkit goldens unused [--delete]` over run records that golden assertions write.
@Suite struct GoldensUnusedCommandTests {
    /// A goldens folder with a, b and c (written an hour ago), and a runs folder.
    private struct Project {
        let root: URL, goldens: URL, runs: URL

        init() throws {
            root = TestScratch.path("rasterkit-unused")
            goldens = root.appendingPathComponent("Goldens")
            runs = root.appendingPathComponent("runs")
            for name in ["a", "b", "c"] {
                let url = golden(name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try square(.blue).pngData().write(to: url)
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
            }
            try Data("{}".utf8).write(to: goldens.appendingPathComponent("ButtonTests/environment.json"))
        }

        func golden(_ name: String) -> URL { goldens.appendingPathComponent("ButtonTests/\(name)@2x.png") }

        /// A run record as a test process writes it.
        func record(run: String, started: Date, filtered: Bool, goldens names: [String]) throws {
            let folder = runs.appendingPathComponent(run)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var text = GoldenRunRecord(started: started.timeIntervalSince1970, filtered: filtered,
                                       arguments: filtered ? "--filter a --testing-library swift-testing" : "--testing-library swift-testing").headerText
            for name in names { text += GoldenRunRecord.line(forGolden: golden(name).standardizedFileURL.resolvingSymlinksInPath().path) }
            try Data(text.utf8).write(to: folder.appendingPathComponent("4242.txt"))
        }

        func unused(_ extra: String...) throws -> CLI.Run {
            try CLI.run(["goldens", "unused", "--goldens", goldens.path, "--runs", runs.path] + extra)
        }
    }

    @Test func afterAFilteredAndAFullRunTheFullRunDecides() throws {
        let project = try Project()
        try project.record(run: "100-1", started: Date(timeIntervalSinceNow: -60), filtered: false, goldens: ["a", "b"])
        try project.record(run: "200-2", started: Date(timeIntervalSinceNow: -30), filtered: true, goldens: ["a"])
        let run = try project.unused()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == project.golden("c").path + "\n")
        #expect(run.stderr.contains("1 unused golden of 3 (last full run: 100-1); newer filtered runs not used: 200-2 (--filter a"))
        // Listing deletes nothing; --delete does.
        #expect(FileManager.default.fileExists(atPath: project.golden("c").path))
        let deleted = try project.unused("--delete")
        #expect(deleted.status == 0 && deleted.stdout == "deleted \(project.golden("c").path)\n")
        #expect(!FileManager.default.fileExists(atPath: project.golden("c").path))
        #expect(FileManager.default.fileExists(atPath: project.golden("a").path))
        #expect(FileManager.default.fileExists(atPath: project.goldens.appendingPathComponent("ButtonTests/environment.json").path))
        #expect(try project.unused().stdout.isEmpty)
    }

    /// Issue 46: a record that cannot be read in full (a NaN start, a line cut short, an
    /// unknown field, a relative path) decides nothing, and nothing is deleted.
    @Test func aRecordThatCannotBeReadWhollyDeletesNothing() throws {
        let damages: [(String) -> String] = [
            { $0.replacingOccurrences(of: #"started [0-9.]+"#, with: "started nan", options: .regularExpression) },
            { $0.replacingOccurrences(of: #"started [0-9.]+"#, with: "started -5", options: .regularExpression) },
            { String($0.dropLast()) },
            { $0 + "golden relative/path.png\n" },
            { $0 + "colour blue\n" },
            { $0.replacingOccurrences(of: "filtered false", with: "filtered maybe") },
        ]
        for damage in damages {
            let project = try Project()
            try project.record(run: "100-1", started: Date(timeIntervalSinceNow: -60), filtered: false, goldens: ["a", "b"])
            let file = project.runs.appendingPathComponent("100-1/4242.txt")
            try Data(damage(try String(contentsOf: file, encoding: .utf8)).utf8).write(to: file)
            let run = try project.unused("--delete")
            #expect(run.status == 2 && run.stderr.contains("cannot read the test run record"), "\(run.stderr)")
            for name in ["a", "b", "c"] { #expect(FileManager.default.fileExists(atPath: project.golden(name).path)) }
        }
    }

    @Test func onlyFilteredRunsAreNotEnough() throws {
        let project = try Project()
        try project.record(run: "200-2", started: Date(), filtered: true, goldens: ["a"])
        let run = try project.unused()
        #expect(run.status == 2 && run.stderr.contains("every recorded test run was filtered") && run.stdout.isEmpty)
    }

    @Test func aGoldenWrittenAfterTheFullRunBeganIsKept() throws {
        let project = try Project()
        try project.record(run: "100-1", started: Date(timeIntervalSinceNow: -60), filtered: false, goldens: ["a"])
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: project.golden("b").path)
        let run = try project.unused()
        #expect(run.stdout == project.golden("c").path + "\n")
        #expect(run.stderr.contains("1 written since that run began kept"))
    }

    /// A real assertion writes the record the command reads.
    @Test func assertionsWriteTheRunRecord() throws {
        let harness = try Harness()
        let golden = harness.golden("recorded")
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try square(.blue).pngData().write(to: golden)
        try FileManager.default.copyItem(at: golden, to: harness.golden("recorded", named: "second"))
        try harness.assert(square(.blue), test: "recorded")
        try harness.assert(square(.blue), test: "recorded", named: "second")
        let runs = harness.root.appendingPathComponent("runs")
        let folders = try FileManager.default.contentsOfDirectory(atPath: runs.path)
        #expect(folders.count == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: runs.appendingPathComponent(folders[0]).path)
        #expect(files == ["\(getpid()).txt"])
        let text = try String(contentsOf: runs.appendingPathComponent(folders[0]).appendingPathComponent(files[0]), encoding: .utf8)
        let record = try #require(GoldenRunRecord(text: text))
        #expect(record.goldens == [golden, harness.golden("recorded", named: "second")].map { $0.resolvingSymlinksInPath().path })
        #expect(record.filtered == GoldenRunRecord.isFiltered(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    @Test func filteredArgumentsAreRecognised() {
        #expect(GoldenRunRecord.isFiltered(arguments: ["--filter", "X", "--testing-library", "swift-testing"]))
        #expect(GoldenRunRecord.isFiltered(arguments: ["--skip", "X", "--testing-library", "swift-testing"]))
        #expect(GoldenRunRecord.isFiltered(arguments: ["RasterKitTests.SomeTest"]))
        #expect(!GoldenRunRecord.isFiltered(arguments: ["--testing-library", "swift-testing"]))
        #expect(!GoldenRunRecord.isFiltered(arguments: []))
    }

    @Test func badFlagsAreClearErrors() throws {
        let project = try Project()
        func failure(_ arguments: [String]) throws -> String {
            let run = try CLI.run(["goldens", "unused"] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stdout) \(run.stderr)")
            return run.stderr
        }
        #expect(try failure(["--goldens", "", "--runs", project.runs.path]).contains("--goldens"))
        #expect(try failure(["--goldens", project.goldens.path, "--runs", ""]).contains("--runs"))
        #expect(try failure(["--goldens", "/no/such/goldens", "--runs", project.root.path]).contains("--goldens /no/such/goldens does not exist"))
        #expect(try failure(["--goldens", project.golden("a").path, "--runs", project.root.path]).contains("is not a directory"))
        #expect(try failure(["--goldens", project.goldens.path, "--runs", project.runs.path]).contains("does not exist; run the whole test suite"))
        try FileManager.default.createDirectory(at: project.runs, withIntermediateDirectories: true)
        #expect(try failure(["--goldens", project.goldens.path, "--runs", project.runs.path]).contains("no test run is recorded in"))
        #expect(try failure(["--goldens", project.goldens.path, "--runs", project.runs.path, "--remove"]).contains("--remove"))
        #expect(try failure(["--goldens", project.goldens.path, "--runs", project.runs.path, "extra"]).contains("Unexpected argument 'extra'"))
    }
}
