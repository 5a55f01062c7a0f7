import Foundation
import RasterKitTestSupport
import Testing

/// What `rasterkit render` does with a `--cache` it cannot use (issue 24, findings 4 and 9):
/// a store it cannot open costs the disk tier only, with one warning; a file that is not a
/// store is refused before anything renders, and left alone.
@Suite struct RenderCacheFallbackTests {
    typealias Workspace = RenderCommandTests.Workspace

    @Test func anUnopenableStoreRendersEveryOutputWithOneWarning() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let victim = workspace.path("victim.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        // A stray WAL link beside the store: SQLite would write through it.
        try FileManager.default.createSymbolicLink(atPath: workspace.cache + "-wal", withDestinationPath: victim)
        for _ in 0..<2 {
            let run = try workspace.render(["--cache", workspace.cache, "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try run.json()["failed"] as? Int == 0 && run.json()["total"] as? Int == 12, "\(run.stdout)")
            #expect(workspace.files("out").count == 14)
            let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
            #expect(warnings.count == 1 && warnings[0].contains("symbolic link"), "\(run.stderr)")
            try? FileManager.default.removeItem(atPath: workspace.path("out"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("keep".utf8))
    }

    @Test func aForeignFileGivenAsTheCacheIsRefusedWithExitTwo() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let foreign = workspace.path("notes.txt")
        let text = Data("root:x:0:0:root:/root:/bin/bash\n".utf8)
        try text.write(to: URL(fileURLWithPath: foreign))
        let run = try workspace.render(["--cache", foreign])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains(foreign) && run.stderr.contains("not a RasterKit store"), "\(run.stderr)")
        #expect(workspace.files("out").isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == text)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path)).contains { $0.contains("corrupt") })
    }

    @Test func svgRefusesAForeignCacheToo() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let foreign = workspace.path("other.db")
        try Data("SQLite format 3\0".utf8 + [UInt8](repeating: 0, count: 52) + [0, 0, 0, 7] + [UInt8](repeating: 0, count: 28))
            .write(to: URL(fileURLWithPath: foreign))
        let run = try CLI.run(["svg", workspace.path("icons"), "--size", "8", "--out", workspace.path("svg-out"),
                               "--cache", foreign])
        #expect(run.status == 2 && run.stderr.contains("not a RasterKit store"), "\(run.stderr)")
    }
}
