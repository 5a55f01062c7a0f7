// Paths the benchmarks share: the rasterkit binary under test, and scratch folders that are
// removed when the benchmark process exits (cold runs leave an output folder and a store each).
import Foundation

/// The release rasterkit (`make bench` builds it statically and sets RASTERKIT_BINARY).
public let rasterkitBinary = ProcessInfo.processInfo.environment["RASTERKIT_BINARY"]
    ?? FileManager.default.currentDirectoryPath + "/../.build/release/rasterkit"

/// This process's scratch roots, removed at exit: one on the disk, and one in memory (`/dev/shm`)
/// when the machine has it.
///
/// The disk root is in this package's `.build` folder (or `RASTERKIT_BENCH_DISK`), on the
/// checkout's disk, where a project's output folders are, rather than in the system temporary
/// directory: that is a memory file system on many machines, and where it is a disk, every test
/// and build churns through it. On the machine these figures come from, ext4's inode allocator
/// made a file cost 0.3 ms anywhere under `/tmp` (skipping thousands of recently deleted inodes
/// in its block groups) against 0.015 ms elsewhere on the same file system.
private let scratchRoots: (disk: String, memory: String) = {
    let name = "rasterkit-bench-\(getpid())"
    let diskParent = ProcessInfo.processInfo.environment["RASTERKIT_BENCH_DISK"]
        ?? FileManager.default.currentDirectoryPath + "/.build/scratch"
    let disk = diskParent + "/" + name
    var isDirectory: ObjCBool = false
    let hasMemory = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
    let memory = hasMemory ? "/dev/shm/" + name : disk
    for path in [disk, memory] { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    atexit { for path in [scratchRoots.disk, scratchRoots.memory] { try? FileManager.default.removeItem(atPath: path) } }
    return (disk, memory)
}()

/// A new empty folder named after `purpose`. `inMemory` puts it on a memory file system when
/// there is one: for benchmarks that compare the CPU work of two ways of making the same files,
/// where the disk's write-back of earlier runs would otherwise land on one side or the other.
public func scratchFolder(_ purpose: String, inMemory: Bool = false) -> String {
    let path = (inMemory ? scratchRoots.memory : scratchRoots.disk) + "/\(purpose)-" + UUID().uuidString.prefix(8)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
