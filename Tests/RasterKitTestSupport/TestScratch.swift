import Foundation

/// Scratch folders for tests, all inside one folder of this test process that is removed when
/// the process exits. Tests that remove their own folders still can; the ones that fail or
/// cannot (a folder a failing expectation wanted to show, a server's store) no longer pile up
/// in the temporary directory, which slows every later file creation on it.
package enum TestScratch {
    /// `$TMPDIR/rasterkit-tests-<pid>`, made on first use. Roots of test processes that are gone
    /// (killed, crashed before exiting) are removed then.
    package static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = "rasterkit-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        let root = temporary.appendingPathComponent(prefix + "\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return root
    }()

    /// A new empty folder named after `name` (letters, digits and `-` kept) inside ``root``.
    package static func folder(_ name: String) throws -> URL {
        let url = path(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path inside ``root`` named after `name` that nothing is at yet, for tests that make
    /// (or expect a command to make) what goes there.
    package static func path(_ name: String) -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        return root.appendingPathComponent("\(safe)-\(UUID().uuidString.prefix(8))", isDirectory: true)
    }
}
