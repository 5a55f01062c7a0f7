import Foundation
import RasterKitTestSupport
import Testing

/// `rasterkit` loads cairo only when it makes a surface (CairoLibrary), librsvg only when it
/// parses a document (LibrsvgLibrary) and Pango only when it lays out text (PangoLibrary): a
/// warm run that copies every output from the store loads none of them, and a library that
/// cannot be used fails each output that needs it with a message rather than stopping the
/// process before `main`.
@Suite struct LazyLibraryLoadingCommandTests {
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

    /// A folder `lib` in `folder` holding a copy of libpng named `name`: an ELF library for this
    /// machine, found first on `LD_LIBRARY_PATH`, without the symbols the real one has.
    private static func impostor(named name: String, in folder: URL) throws -> URL {
        let libraries = folder.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        let libpng = try #require(loadedLibrary("libpng16.so.16"))
        try Data(contentsOf: URL(fileURLWithPath: libpng))
            .write(to: libraries.appendingPathComponent(name))
        return libraries
    }

    /// The file the dynamic loader finds for `soname`: loaded into this process, then looked
    /// up in /proc/self/maps.
    private static func loadedLibrary(_ soname: String) -> String? {
        // Read to the end: /proc files report a size of 0.
        guard dlopen(soname, RTLD_NOW | RTLD_LOCAL) != nil,
              let bytes = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
        let maps = String(decoding: bytes, as: UTF8.self)
        let stem = soname.prefix { $0 != "." }
        for line in maps.split(separator: "\n") {
            guard let start = line.firstIndex(of: "/") else { continue }
            let path = line[start...]
            if path.split(separator: "/").last?.hasPrefix(stem + ".so") == true { return String(path) }
        }
        return nil
    }

    /// `kit.yaml` in `folder`: a component with text and one with a shape only.
    private static func writeKit(in folder: URL) throws {
        try Data("""
            name: Kit
            components:
              label:
                sizes: ["40x20"]
                layers: [text: {text: Go}]
              box:
                sizes: ["20x20"]
                layers: [rect: {fill: red}]
            """.utf8).write(to: folder.appendingPathComponent("kit.yaml"))
    }

    @Test func aWarmRunIntoANewFolderLoadsNoDrawingLibrary() throws {
        let folder = try TestScratch.folder("librsvg-lazy")
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        let line = ["svg", "a.svg", "--size", "8", "--size", "16", "--cache", "store.sqlite"]
        let cold = try Self.run(line + ["--out", "cold"], in: folder, tracing: true)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(cold.stderr.contains("librsvg-2.so"), "drawing loads librsvg")
        #expect(cold.stderr.contains("libpangocairo-1.0.so"), "librsvg needs Pango")
        let warm = try Self.run(line + ["--out", "warm"], in: folder, tracing: true)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(!warm.stderr.contains("librsvg-2.so"), "nothing to draw, so librsvg stays unloaded")
        #expect(!warm.stderr.contains("libpango"), "no text to lay out, so Pango stays unloaded")
        #expect(!warm.stderr.contains("libglib"), "nor GLib, which only librsvg and Pango need")
        #expect(!warm.stderr.contains("libcairo"), "nothing to draw on, so cairo stays unloaded")
        #expect(!warm.stderr.contains("libX11") && !warm.stderr.contains("libfontconfig"), "and what only it needs")
        for name in ["a-8.png", "a-16.png"] {
            let coldBytes = try Data(contentsOf: folder.appendingPathComponent("cold/\(name)"))
            #expect(try Data(contentsOf: folder.appendingPathComponent("warm/\(name)")) == coldBytes)
        }
    }

    @Test func aLibraryThatIsNotLibrsvgFailsEachOutputWithAMessage() throws {
        let folder = try TestScratch.folder("librsvg-impostor")
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        let libraries = try Self.impostor(named: "librsvg-2.so.2", in: folder)
        let run = try Self.run(["svg", "a.svg", "--size", "8", "--out", "out", "--no-cache"], in: folder,
                               libraryPath: libraries.path)
        #expect(run.status == 1, "\(run.stderr)")
        // Named by one of librsvg's own functions, not GLib's.
        #expect(run.stderr.contains("has no rsvg_handle_"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/a-8.png").path))
    }

    /// Without a usable Pango, shapes still draw and only the outputs with text fail, each
    /// saying what to install.
    @Test func withoutPangoOnlyOutputsWithTextFail() throws {
        let folder = try TestScratch.folder("pango-impostor")
        try Self.writeKit(in: folder)
        let libraries = try Self.impostor(named: "libpangocairo-1.0.so.0", in: folder)
        let run = try Self.run(["render", "kit.yaml", "--out", "out", "--no-cache"], in: folder,
                               libraryPath: libraries.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("has no pango_"), "\(run.stderr)")
        #expect(run.stderr.contains("text needs Pango 1.44 or later (Debian's libpangocairo-1.0-0)"), "\(run.stderr)")
        let files = RenderCommandTests.files(in: folder.appendingPathComponent("out"))
        #expect(files.contains { $0.contains("box") }, "\(files)")
        #expect(!files.contains { $0.contains("label") }, "\(files)")
    }

    /// Without a usable cairo nothing can be drawn: each output fails with what to install,
    /// and the process ends normally rather than at its first cairo call.
    @Test func withoutCairoEachOutputFailsWithAMessage() throws {
        let folder = try TestScratch.folder("cairo-impostor")
        try Self.writeKit(in: folder)
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        let libraries = try Self.impostor(named: "libcairo.so.2", in: folder)
        let render = try Self.run(["render", "kit.yaml", "--out", "out", "--no-cache"], in: folder, libraryPath: libraries.path)
        #expect(render.status == 1, "\(render.stderr)")
        #expect(render.stderr.contains("cairo at /") && render.stderr.contains("/libcairo.so.2 has no ") && render.stderr.contains("(Debian's libcairo2)"), "\(render.stderr)")
        #expect(RenderCommandTests.files(in: folder.appendingPathComponent("out")).isEmpty)
        let svg = try Self.run(["svg", "a.svg", "--size", "8", "--out", "svg", "--no-cache"], in: folder, libraryPath: libraries.path)
        #expect(svg.status == 1, "\(svg.stderr)")
        #expect(svg.stderr.contains("libcairo.so.2"), "\(svg.stderr)")
        let version = try Self.run(["--version"], in: folder, libraryPath: libraries.path)
        #expect(version.status == 0, "a run that draws nothing does not need cairo: \(version.stderr)")
    }
}
