import Foundation
import RasterKitTestSupport
import Synchronization
import Testing
@testable import RasterKit

/// Runs the probe executable (Tests/RasterKitProbe) as a separate process.
enum DiskProbe {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// `name=value` pairs on stdout, as integers.
        var values: [String: Int] {
            var values: [String: Int] = [:]
            for pair in stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                let parts = pair.split(separator: "=")
                if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
            }
            return values
        }
    }

    static var executable: URL { TestSupport.productsDirectory.appendingPathComponent("RasterKitProbe") }

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(executable.path, arguments, environment: environment)
    }

    /// Runs the probe to the end (killing it after `timeout`).
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(120)) throws -> Run {
        let (termination, output, errors) = try start(arguments, environment: environment).finish(timeout: timeout)
        return Run(status: termination.reason == .exit ? termination.status : 128 + termination.status,
                   stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self))
    }

    /// Reads a probe's `committed N` lines as they come.
    final class Lines: Sendable {
        private let committed = Lock(0)
        private let finished = DispatchSemaphore(value: 0)

        init(_ output: FileHandle) {
            Thread { [self] in
                var buffer = ""
                while case let data = output.availableData, !data.isEmpty {
                    buffer += String(decoding: data, as: UTF8.self)
                    let latest = buffer.split(separator: "\n").compactMap { line in
                        line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
                    }.max() ?? 0
                    self.committed.withLock { $0 = max($0, latest) }
                }
                self.finished.signal()
            }.start()
        }

        var lastCommitted: Int { committed.withLock { $0 } }

        /// The last `committed N` once the process has closed its output.
        func waitForEnd() -> Int {
            _ = finished.wait(timeout: .now() + 30)
            return lastCommitted
        }
    }

    /// Whether the process has stopped (its state in /proc/PID/stat is `T`).
    static func isStopped(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
    }

    /// Whether the WAL's current frames end with frames no commit covers yet: a transaction
    /// was being written. (WAL format: a 32-byte header with the page size at offset 8 and the
    /// salts at 16; each frame a 24-byte header, whose second word is non-zero on a commit
    /// frame and whose salts match the header's, then a page.)
    static func walEndsInsideATransaction(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 32 else { return false }
        func word(_ offset: Int) -> UInt32 { data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let pageSize = Int(word(8))
        guard pageSize > 0 else { return false }
        var offset = 32, framesSinceCommit = 0
        while offset + 24 + pageSize <= data.count, word(offset + 8) == word(16), word(offset + 12) == word(20) {
            framesSinceCommit = word(offset + 4) != 0 ? 0 : framesSinceCommit + 1
            offset += 24 + pageSize
        }
        return framesSinceCommit > 0
    }

    /// Runs several probes at once and returns their runs in order.
    static func runConcurrently(_ commands: [[String]]) throws -> [Run] {
        let runs = Lock<[Int: Result<Run, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            let result = Result { try run(commands[index]) }
            runs.withLock { $0[index] = result }
        }
        return try (0..<commands.count).map { index in try #require(runs.withLock { $0[index] }).get() }
    }
}

/// Several processes on one store, and a writer killed in the middle of a batch.
@Suite(.serialized) struct DiskCacheProcessTests {
    @Test func twoProcessesWritingAtOnceLoseNothingAndSeeEachOther() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let path = fixture.url.path
        let writers = try DiskProbe.runConcurrently([
            ["store-write", path, "160", "a", "40"], ["store-write", path, "160", "b", "40"],
        ])
        for writer in writers {
            #expect(writer.status == 0, "\(writer.stderr)")
            #expect(writer.stdout.contains("done writes=160 failures=0"), "\(writer.stdout)")
        }
        // Each process reads the other's entries: nothing is drawn.
        let readers = try DiskProbe.runConcurrently([["store-render", path, "160", "b"], ["store-render", path, "160", "a"]])
        for reader in readers {
            #expect(reader.status == 0, "\(reader.stderr)")
            #expect(reader.values == ["draws": 0, "disk": 160], "\(reader.stdout)")
        }
        #expect(try fixture.open().statistics.count == 320)
        #expect(!fixture.files.contains { $0.contains(".corrupt-") })
    }

    /// Processes that create one new store at the same moment can deadlock on switching it to
    /// WAL mode, which SQLite breaks by answering one of them "busy" at once: that one opens again.
    @Test func processesCreatingOneStoreAtOnceAllOpenIt() throws {
        for round in 0..<3 {
            let fixture = try DiskFixture("create-\(round)")
            defer { fixture.remove() }
            let writers = try DiskProbe.runConcurrently((0..<6).map { ["store-write", fixture.url.path, "8", "p\($0)", "4"] })
            for writer in writers {
                #expect(writer.status == 0, "\(writer.stderr)")
                #expect(writer.stdout.contains("done writes=8 failures=0"), "\(writer.stdout)")
            }
            #expect(try fixture.open().statistics.count == 48)
        }
    }

    @Test func aProcessReadsWhileAnotherWrites() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let path = fixture.url.path
        #expect(try DiskProbe.run(["store-write", path, "100", "early"]).status == 0)
        let runs = try DiskProbe.runConcurrently([
            ["store-write", path, "300", "late", "30"], ["store-render", path, "100", "early"],
        ])
        #expect(runs[0].status == 0 && runs[1].status == 0, "\(runs.map(\.stderr))")
        #expect(runs[1].values == ["draws": 0, "disk": 100], "\(runs[1].stdout)")
        #expect(try DiskProbe.run(["store-verify", path, "300", "late"]).values == ["present": 300, "missing": 0, "undecodable": 0])
    }

    @Test func aWriterKilledWhileItsTransactionIsHalfWrittenLeavesAStoreThatOpensCleanly() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let path = fixture.url.path
        // Transactions of 64 incompressible renders overflow SQLite's page cache, so their pages
        // reach the WAL before the commit does.
        let process = try DiskProbe.start(["store-flood", path, "100000", "t", "64", "160"])
        let lines = DiskProbe.Lines(process.standardOutput!)
        #expect(Gate.wait { lines.lastCommitted >= 64 })
        // Pause the writer at random moments until it is caught with uncommitted frames in the
        // WAL: in the middle of a transaction. Then kill it there.
        var caughtMidTransaction = false
        for _ in 0..<500 where !caughtMidTransaction {
            usleep(UInt32.random(in: 2_000...20_000))
            process.send(SIGSTOP)
            // The signal is asynchronous: the process may run on for a moment.
            #expect(Gate.wait { DiskProbe.isStopped(process.pid) })
            caughtMidTransaction = DiskProbe.walEndsInsideATransaction(path + "-wal")
            process.send(caughtMidTransaction ? SIGKILL : SIGCONT)
        }
        if !caughtMidTransaction { process.send(SIGKILL) }
        #expect(process.waitUntilExit(timeout: .seconds(60)).reason == .uncaughtSignal)
        #expect(caughtMidTransaction)
        let reported = lines.waitForEnd()

        let disk = try fixture.open()
        #expect(fixture.log.warnings.isEmpty, "\(fixture.log.warnings)")
        #expect(!fixture.files.contains { $0.contains(".corrupt-") }, "\(fixture.files)")
        #expect(try disk.store.quickCheck() == ["ok"])
        let stored = try disk.store.allPNGs()
        // Timed batches may have committed a few renders after the last reported flush.
        #expect(stored.count >= reported)
        #expect(stored.allSatisfy { (try? RasterImage(pngData: $0.png)) != nil })
        let verified = try DiskProbe.run(["store-verify", path, "\(reported)", "t"])
        #expect(verified.values == ["present": reported, "missing": 0, "undecodable": 0], "\(verified.stdout)")
    }

    @Test(arguments: [0, 40_000, 120_000])
    func aWriterKilledMidBatchLeavesAStoreThatOpensCleanly(extraDelay: UInt32) throws {
        let fixture = try DiskFixture("killed\(extraDelay)")
        defer { fixture.remove() }
        let path = fixture.url.path
        let process = try DiskProbe.start(["store-write", path, "100000", "k", "100"])
        // Wait until two flushes have been reported, then kill it somewhere in the following batches.
        var reported = 0
        var buffer = ""
        while reported < 200 {
            let data = process.standardOutput!.availableData
            if data.isEmpty { break }
            buffer += String(decoding: data, as: UTF8.self)
            for line in buffer.split(separator: "\n") where line.hasPrefix("committed ") {
                reported = max(reported, Int(line.dropFirst("committed ".count)) ?? 0)
            }
        }
        usleep(extraDelay)
        process.send(SIGKILL)
        #expect(process.waitUntilExit().reason == .uncaughtSignal)
        #expect(reported >= 200)

        // It opens without being moved aside, passes SQLite's check, and every entry is whole.
        let disk = try fixture.open()
        #expect(fixture.log.warnings.isEmpty, "\(fixture.log.warnings)")
        #expect(!fixture.files.contains { $0.contains(".corrupt-") }, "\(fixture.files)")
        #expect(try disk.store.quickCheck() == ["ok"])
        let stored = try disk.store.allPNGs()
        #expect(stored.count >= reported)
        #expect(stored.allSatisfy { (try? RasterImage(pngData: $0.png)) != nil })
        // Every entry reported written is there.
        let verified = try DiskProbe.run(["store-verify", path, "\(reported)", "k"])
        #expect(verified.values == ["present": reported, "missing": 0, "undecodable": 0], "\(verified.stdout)")
    }
}
