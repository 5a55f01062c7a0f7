import Foundation
import RasterKitTestSupport
import Testing

/// `rasterkit svg` loads librsvg only when it parses a document (LibrsvgLibrary): a warm run
/// that copies every output from the store never loads it, and a librsvg that cannot be used
/// fails each output with a message rather than stopping the process before `main`.
@Suite struct LibrsvgLoadingCommandTests {
    /// The libraries the dynamic loader loaded during a run, from glibc's `LD_DEBUG=files` trace.
    private static func run(_ arguments: [String], in folder: URL, tracing: Bool = false,
                            libraryPath: String? = nil) throws -> CLI.Run {
        var environment: [String: String] = tracing ? ["LD_DEBUG": "files"] : [:]
        if let libraryPath {
            let inherited = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? ""
            environment["LD_LIBRARY_PATH"] = libraryPath + inherited
        }
        return try CLI.run(arguments, in: folder, environment: environment)
    }

    @Test func aWarmRunIntoANewFolderNeverLoadsLibrsvg() throws {
        let folder = try TestScratch.folder("librsvg-lazy")
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        let line = ["svg", "a.svg", "--size", "8", "--size", "16", "--cache", "store.sqlite"]
        let cold = try Self.run(line + ["--out", "cold"], in: folder, tracing: true)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(cold.stderr.contains("librsvg-2.so"), "drawing loads librsvg")
        let warm = try Self.run(line + ["--out", "warm"], in: folder, tracing: true)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(!warm.stderr.contains("librsvg-2.so"), "nothing to draw, so librsvg stays unloaded")
        for name in ["a-8.png", "a-16.png"] {
            let coldBytes = try Data(contentsOf: folder.appendingPathComponent("cold/\(name)"))
            #expect(try Data(contentsOf: folder.appendingPathComponent("warm/\(name)")) == coldBytes)
        }
    }

    @Test func aLibraryThatIsNotLibrsvgFailsEachOutputWithAMessage() throws {
        let folder = try TestScratch.folder("librsvg-impostor")
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        let libraries = folder.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        // libpng under librsvg's name: an ELF library for this machine without librsvg's symbols.
        try Data(contentsOf: URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libpng16.so.16"))
            .write(to: libraries.appendingPathComponent("librsvg-2.so.2"))
        let run = try Self.run(["svg", "a.svg", "--size", "8", "--out", "out", "--no-cache"], in: folder,
                               libraryPath: libraries.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("has no rsvg_handle_new_from_stream_sync"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/a-8.png").path))
    }
}
