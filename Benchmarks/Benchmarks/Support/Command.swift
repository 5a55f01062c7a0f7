// Runs a command-line program as a shell would, for the benchmarks that time whole commands.
// Foundation's `Process` adds milliseconds of its own per launch (pipes, a monitoring thread),
// which would be counted against both sides of a cold-versus-warm ratio; posix_spawn does not.
// The benchmark runner preloads its malloc and Swift runtime interposers (LD_PRELOAD) into the
// benchmark process; commands run without them, as users run them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct CommandFailure: Error, CustomStringConvertible {
    public let command: String
    public let status: Int32
    public var description: String { "\(command) failed with status \(status)" }
}

/// Runs `executable` with `arguments`, output discarded, and waits for it; throws when it cannot
/// start or exits with a status other than 0 (or than one of `allowing`).
public func runCommand(_ executable: String, _ arguments: [String], allowing allowed: Set<Int32> = [0]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let environment = inheritedEnvironment().map { strdup($0) } + [nil]
    defer { environment.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
    guard spawned == 0 else { throw CommandFailure(command: executable, status: -spawned) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    let exited = status & 0x7F == 0
    let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    guard allowed.contains(code) else { throw CommandFailure(command: ([executable] + arguments).joined(separator: " "), status: code) }
}

/// This process's environment without the benchmark runner's preloaded libraries.
private func inheritedEnvironment() -> [String] {
    var entries: [String] = []
    var cursor = environ
    while let entry = cursor.pointee {
        let text = String(cString: entry)
        if !text.hasPrefix("LD_PRELOAD=") { entries.append(text) }
        cursor += 1
    }
    return entries
}
