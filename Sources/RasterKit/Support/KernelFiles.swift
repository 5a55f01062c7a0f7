#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few files of `/proc` and `/sys` RasterKit reads to size itself to its machine: which
/// cgroup the process is in, and what that cgroup allows it (memory, processors).
///
/// Read with plain `open(2)` and `read(2)`: these files report a size of 0, and Foundation's
/// readers (with their URL and attribute handling, and the generic types they instantiate) cost
/// a warm batch a quarter of a millisecond per file, about what planning its outputs does.
enum KernelFiles {
    /// The text of the file at `path`, at most `limit` bytes of it; nil when it cannot be read.
    static func text(_ path: String, limit: Int = 64 << 10) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk.prefix(min(count, limit - bytes.count))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// This process's cgroup v2 folder (`/sys/fs/cgroup` and the path on the `0::` line of
    /// `/proc/self/cgroup`); nil without a cgroup v2 hierarchy.
    static let cgroupDirectory: String? = {
        guard let membership = text("/proc/self/cgroup") else { return nil }
        return cgroupDirectory(membership: membership)
    }()

    /// The cgroup v2 folder that `membership` (the text of `/proc/self/cgroup`) names.
    static func cgroupDirectory(membership: String) -> String? {
        guard let path = line(startingWith: "0::", in: membership), !path.isEmpty else { return nil }
        return path == "/" ? "/sys/fs/cgroup" : "/sys/fs/cgroup" + path
    }

    /// The first line of a file holding one value (`memory.max`, `cpu.max`), without spaces
    /// around it.
    static func value(_ path: String) -> String? {
        guard let text = text(path, limit: 4096) else { return nil }
        let bytes = text.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        return String(text[..<end]).trimmingSpaces
    }

    /// The rest of the first line of `text` that starts with `prefix`; nil when none does.
    /// Found through the UTF-8 view: these files are ASCII, and splitting them into characters
    /// cost more than reading them.
    static func line(startingWith prefix: String, in text: String) -> String? {
        let bytes = text.utf8, wanted = prefix.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            if bytes[start..<end].starts(with: wanted) {
                return String(text[bytes.index(start, offsetBy: wanted.count)..<end])
            }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
