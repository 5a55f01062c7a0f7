import Foundation
import RasterKitTestSupport
import Synchronization
import Testing

/// The tests' own way to run programs (see `ChildProcess`): what Foundation's `Process` got
/// wrong when tests started children at once, a CI run hung on.
@Suite struct ChildProcessTests {
    /// The descriptors open in process `pid`.
    static func openDescriptors(of pid: pid_t) throws -> Set<Int> {
        Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap { Int($0) })
    }

    /// Children started from many threads at once inherit nothing of one another: each has
    /// only its three standard streams, and a long-lived child started among them holds no
    /// pipe of the others, so none of them waits for it.
    @Test func childrenStartedAtOnceInheritNothingOfEachOther() throws {
        let longLived = try ChildProcess("/bin/sleep", ["30"])
        defer { longLived.send(SIGKILL); longLived.waitUntilExit() }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for run in 0..<12 {
                do {
                    // The child lists its own descriptors: its streams and the directory it reads (3).
                    let (termination, output, _) = try ChildProcess.run("/bin/ls", ["/proc/self/fd"])
                    let descriptors = Set(String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) })
                    if termination != .success || !descriptors.isSubset(of: [0, 1, 2, 3]) {
                        failures.withLock { $0.append("thread \(thread) run \(run): \(termination), \(descriptors.sorted())") }
                    }
                } catch {
                    failures.withLock { $0.append("thread \(thread) run \(run): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(try Self.openDescriptors(of: longLived.pid).isSubset(of: [0, 1, 2]))
        #expect(longLived.isRunning)
    }

    /// A child that outlives its time is killed with its process group, and the result says so.
    @Test func aChildPastItsTimeIsKilled() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 60 & wait"])
        let clock = ContinuousClock()
        let started = clock.now
        let termination = child.waitUntilExit(timeout: .milliseconds(300))
        #expect(termination.reason == .uncaughtSignal && termination.status == SIGKILL && termination.timedOut)
        #expect(clock.now - started < .seconds(30))
        #expect(!child.isRunning)
    }

    /// Both streams are read while the child runs: one that fills both pipes does not stall.
    @Test func aChattyChildIsReadToTheEnd() throws {
        let (termination, output, errors) = try ChildProcess.run(
            "/bin/sh", ["-c", "head -c 1000000 /dev/zero; head -c 700000 /dev/zero >&2; exit 3"])
        #expect(termination == ChildProcess.Termination(status: 3, reason: .exit))
        #expect(output.count == 1_000_000 && errors.count == 700_000)
    }

    /// A program that is not there fails to start with its name in the error.
    @Test func aMissingProgramIsAnError() {
        let error = #expect(throws: ChildProcess.Failure.self) { try ChildProcess("/no/such/program") }
        #expect(error?.description.contains("/no/such/program") == true)
    }

    /// Standard input, the working folder and the added environment reach the child.
    @Test func inputFolderAndEnvironmentReachTheChild() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildProcess("/bin/sh", ["-c", "read line; echo \"$line $(pwd) $GREETING\""],
                                     environment: ["GREETING": "hello"], in: folder.path, input: .pipe)
        child.standardInput!.write(Data("ink\n".utf8))
        try child.standardInput!.close()
        let (termination, output, _) = child.finish()
        #expect(termination == .success)
        let expected = "ink \(folder.resolvingSymlinksInPath().path) hello\n"
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }
}
