import CChildProcess
import Foundation
import Synchronization

/// A program a test starts: spawned with `posix_spawn`, reaped with `waitpid` by the test that
/// waits for it, and never waited for without a limit.
///
/// Why not Foundation's `Process`: on Linux it learns that a child ended when a socket the child
/// inherits closes, and reaps every child on one shared thread. A child spawned at the same
/// moment by another test can inherit that socket and the other child's pipes too (the
/// descriptors a spawn closes are listed before it, and a socket or pipe made meanwhile is not on
/// the list). The first test then waits for the second test's child: a CI run stalled for two
/// minutes and then hung that way. Here every descriptor this type makes is close-on-exec from
/// the start, each child closes every descriptor above 2 it did not ask for, and each waiter
/// asks the kernel about its own child only.
package final class ChildProcess: Sendable {
    /// Where a child's standard input comes from.
    package enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe; write to ``standardInput`` and close it.
        case pipe
    }

    /// Where a child's standard output or error goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe; read ``standardOutput`` or ``standardError``.
        case pipe
        /// This test process's own stream.
        case inherit
        /// A file, created or truncated.
        case file(String)
    }

    /// How a child ended.
    package struct Termination: Sendable, Equatable, CustomStringConvertible {
        /// Its exit status, or the number of the signal that ended it.
        package var status: Int32
        /// Whether it exited or a signal ended it.
        package var reason: Process.TerminationReason
        /// Whether the wait ran out and the child was killed.
        package var timedOut = false

        /// An exit with status 0.
        package static let success = Termination(status: 0, reason: .exit)

        /// A child that exited with `status`, or that the signal `status` ended.
        package init(status: Int32, reason: Process.TerminationReason) {
            self.status = status
            self.reason = reason
        }

        /// Decodes a `waitpid` status: the low 7 bits are the signal, 0 when the child exited.
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            if signal == 0 {
                status = (waitStatus >> 8) & 0xff
                reason = .exit
            } else {
                status = signal
                reason = .uncaughtSignal
            }
        }

        package var description: String {
            (reason == .exit ? "exit \(status)" : "signal \(status)") + (timedOut ? " (killed: it ran out of time)" : "")
        }
    }

    /// Why a child could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The child's process identifier.
    package let pid: pid_t
    /// The writing end of its standard input, with ``Input/pipe``.
    package let standardInput: FileHandle?
    /// The reading end of its standard output, with ``Output/pipe``.
    package let standardOutput: FileHandle?
    /// The reading end of its standard error, with ``Output/pipe``.
    package let standardError: FileHandle?
    private let termination = Mutex<Termination?>(nil)
    private let name: String

    /// Starts `executable` with `arguments`, in `directory` (this process's by default), with
    /// this process's environment plus `environment`. The child gets a process group of its
    /// own, no blocked signals and default signal handlers.
    package init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
                 in directory: String? = nil, input: Input = .null, output: Output = .pipe, error: Output = .pipe) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The parent's ends of the pipes, and the child's ends to close here once it runs.
        var kept: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        do {
            switch input {
            case .null:
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .pipe:
                let (read, write) = try Self.pipe()
                childEnds.append(read)
                kept[0] = write
                posix_spawn_file_actions_adddup2(&actions, read, 0)
            }
            for (target, stream) in [(Int32(1), output), (Int32(2), error)] {
                switch stream {
                case .null:
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
                case .inherit:
                    break
                case let .file(path):
                    posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                case .pipe:
                    let (read, write) = try Self.pipe()
                    childEnds.append(write)
                    kept[Int(target)] = read
                    posix_spawn_file_actions_adddup2(&actions, write, target)
                }
            }
        } catch {
            for fd in kept.compactMap({ $0 }) { close(fd) }
            throw error
        }
        if let directory { rk_spawn_chdir(&actions, directory) }
        rk_spawn_close_from(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            for fd in kept.compactMap({ $0 }) { close(fd) }
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        name = URL(fileURLWithPath: executable).lastPathComponent
        standardInput = kept[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardOutput = kept[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardError = kept[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// A pipe whose two ends are close-on-exec: no other child inherits them.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard rk_pipe_cloexec(&fds) == 0 else {
            throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }

    /// How the child ended, once it has; nil while it runs. Reaps it when it has just ended.
    package var ended: Termination? {
        termination.withLock { termination in
            if let termination { return termination }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
            if result == pid { termination = Termination(waitStatus: status) }
            return termination
        }
    }

    /// Whether the child still runs.
    package var isRunning: Bool { ended == nil }

    /// Sends `signal` to the child, unless it has been reaped (its pid may be another's by then).
    package func send(_ signal: Int32) {
        termination.withLock { termination in
            if termination == nil { _ = kill(pid, signal) }
        }
    }

    /// Waits until the child ends, at most `timeout`; then kills it (saying so on this process's
    /// standard error and in the result) and waits for that.
    @discardableResult
    package func waitUntilExit(timeout: Duration = .seconds(300)) -> Termination {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause: UInt32 = 1_000
        var killed = false
        while true {
            if var termination = ended {
                termination.timedOut = killed
                return termination
            }
            if !killed, clock.now >= deadline {
                FileHandle.standardError.write(Data("test child \(name) (pid \(pid)) still ran after \(timeout): killed\n".utf8))
                // Its process group: what it started goes too.
                termination.withLock { if $0 == nil { _ = kill(-pid, SIGKILL) } }
                killed = true
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Reads standard output and standard error (those that are pipes) to their ends while the
    /// child runs, so a chatty child cannot fill one pipe and stall, and waits for the child.
    package func finish(timeout: Duration = .seconds(300)) -> (Termination, stdout: Data, stderr: Data) {
        // Written by a reader before it leaves the group; read only after `wait()`, which orders
        // the two (and lets ThreadSanitizer see that it does).
        final class Box: @unchecked Sendable { var data = Data() }
        let output = Box(), errors = Box()
        let reading = DispatchGroup()
        for (handle, box) in [(standardOutput, output), (standardError, errors)] {
            guard let handle else { continue }
            reading.enter()
            Thread {
                box.data = handle.readDataToEndOfFile()
                reading.leave()
            }.start()
        }
        let termination = waitUntilExit(timeout: timeout)
        // Only the child's own process group can hold the pipes (they are close-on-exec here and
        // closed in every other child): a grandchild that outlives it is killed.
        if reading.wait(timeout: .now() + 30) == .timedOut {
            kill(-pid, SIGKILL)
            reading.wait()
        }
        return (termination, output.data, errors.data)
    }

    /// Runs `executable` to its end and returns how it ended and what it printed.
    package static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
                            in directory: String? = nil, timeout: Duration = .seconds(300))
        throws -> (Termination, stdout: Data, stderr: Data) {
        try ChildProcess(executable, arguments, environment: environment, in: directory).finish(timeout: timeout)
    }
}
