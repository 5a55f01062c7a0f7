import Foundation
import RasterKitTestSupport
import Testing
import RasterKit

/// End-to-end tests of `rasterkit svg`, running the built binary.
@Suite struct SVGCommandTests {
    typealias Run = CLI.Run

    /// The environment every run gets: a default render cache inside the test's own folder,
    /// never the user's.
    static func environment(for folder: URL) -> [String: String] {
        ["XDG_CACHE_HOME": folder.appendingPathComponent(".xdg-cache").path]
    }

    /// Runs `rasterkit svg …` in `folder`, with stdout and stderr going to files (no pipe to fill up).
    static func start(_ arguments: [String], in folder: URL) throws -> (ChildProcess, URL, URL) {
        let out = folder.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let err = folder.appendingPathComponent(".stderr-\(UUID().uuidString)")
        let process = try ChildProcess(try CLI.binary().path, ["svg"] + arguments, environment: environment(for: folder),
                                       in: folder.path, output: .file(out.path), error: .file(err.path))
        return (process, out, err)
    }

    static func rasterkit(_ arguments: String..., in folder: URL) throws -> Run {
        try rasterkit(arguments: arguments, in: folder)
    }

    /// A temporary folder with `icons/a.svg`, `icons/sub/b.svg` and `c.svg`.
    static func workspace() throws -> URL {
        let folder = TestScratch.path("rasterkit-svg")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("icons/sub"), withIntermediateDirectories: true)
        try square("red").write(to: folder.appendingPathComponent("icons/a.svg"))
        try square("blue").write(to: folder.appendingPathComponent("icons/sub/b.svg"))
        try square("lime").write(to: folder.appendingPathComponent("c.svg"))
        return folder
    }

    static func square(_ color: String) -> Data {
        Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="\#(color)"/></svg>"#.utf8)
    }

    /// Every regular file under `folder` (hidden ones too, but not the batch's index), relative, sorted.
    static func files(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue, path != ".rasterkit-index.tsv" { files.append(path) }
        }
        return files.sorted()
    }

    static func image(_ file: URL) throws -> RasterImage { try RasterImage(pngData: Data(contentsOf: file)) }

    // MARK: Naming

    @Test func namesOutputsBySizeAndScaleAndMirrorsFolders() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.rasterkit("icons", "c.svg", "--size", "16", "--size", "32", "--scale", "1", "--scale", "2",
                                     "--out", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.files(in: folder.appendingPathComponent("out")) == [
            "a-16.png", "a-16@2x.png", "a-32.png", "a-32@2x.png",
            "c-16.png", "c-16@2x.png", "c-32.png", "c-32@2x.png",
            "sub/b-16.png", "sub/b-16@2x.png", "sub/b-32.png", "sub/b-32@2x.png",
        ])
        let big = try Self.image(folder.appendingPathComponent("out/sub/b-32@2x.png"))
        #expect(big.pixelWidth == 64 && big.pixelHeight == 64 && big.scale == 2)
        #expect(big.pixel(x: 32, y: 32) == RGBA8(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(run.stdout.contains("12 outputs in ") && run.stdout.contains("12 rendered, 0 from cache, 0 failed"))
    }

    @Test func fractionalSizesAndScalesAreNamedWithoutTrailingZeros() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.rasterkit("c.svg", "--size", "22.5", "--size", "24.0", "--scale", "1.5", "--out", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.files(in: folder.appendingPathComponent("out")) == ["c-22.5@1.5x.png", "c-24@1.5x.png"])
        #expect(try Self.image(folder.appendingPathComponent("out/c-22.5@1.5x.png")).pixelWidth == 34)
    }

    // MARK: Exit codes and summaries

    @Test func aBrokenFileExitsOneWhileEveryOtherOutputIsWritten() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<svg><rect".utf8).write(to: folder.appendingPathComponent("icons/sub/broken.svg"))
        let run = try Self.rasterkit("icons", "--size", "16", "--size", "24", "--out", "out", in: folder)
        #expect(run.status == 1)
        #expect(Self.files(in: folder.appendingPathComponent("out")) == ["a-16.png", "a-24.png", "sub/b-16.png", "sub/b-24.png"])
        #expect(run.stdout.contains("6 outputs in ") && run.stdout.contains("4 rendered, 0 from cache, 2 failed"))
        #expect(run.stderr.contains("failed: icons/sub/broken.svg → sub/broken-16.png: malformed SVG 'icons/sub/broken.svg': "))
    }

    @Test func jsonPrintsOneObjectWithCountsAndFailures() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not svg".utf8).write(to: folder.appendingPathComponent("icons/bad.svg"))
        try Self.square("red").write(to: folder.appendingPathComponent("icons/sub/same-as-a.svg"))
        let run = try Self.rasterkit("icons", "--size", "16", "--out", "out", "--json", in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty, "nothing but JSON with --json: \(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1)
        let json = try run.json()
        #expect(json["total"] as? Int == 4)
        #expect(json["drawn"] as? Int == 2)
        #expect(json["cached"] as? Int == 1)  // same-as-a.svg has a.svg's bytes
        #expect(json["failed"] as? Int == 1)
        #expect((json["seconds"] as? Double).map { $0 >= 0 && $0 < 60 } == true)
        let failures = try #require(json["failures"] as? [[String: Any]])
        #expect(failures.count == 1)
        #expect(failures.first?["file"] as? String == "icons/bad.svg")
        #expect(failures.first?["output"] as? String == "bad-16.png")
        #expect((failures.first?["reason"] as? String)?.contains("Start tag expected") == true)

        let clean = try Self.rasterkit("c.svg", "--size", "8", "--out", "out2", "--json", in: folder)
        #expect(clean.status == 0)
        #expect(try clean.json()["failures"] as? [Any] != nil)
        #expect(try clean.json()["failed"] as? Int == 0)
    }

    @Test(arguments: [
        ["--size", "0"], ["--size", "-3"], ["--size", "nan"], ["--size", "inf"], ["--size", "abc"],
        ["--size", "16", "--scale", "-1"], ["--size", "16", "--scale", "0"],
        ["--size", "16", "--tint", "zzz"], ["--size", "16", "--tint", "#12345"],
        ["--size", "16", "--jobs", "0"], ["--size", "16", "--jobs", "257"], ["--size", "16", "--cache", "cache.db", "--no-cache"],
        ["--size", "16", "--mode", "sideways"], [],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.rasterkit(arguments: ["c.svg", "--out", "out"] + arguments, in: folder)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.isEmpty)
        #expect(Self.files(in: folder.appendingPathComponent("out")).isEmpty)
    }

    @Test func unusableInputsAndOutputFoldersExitTwo() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("empty/readme.txt"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("a-file"))

        let missing = try Self.rasterkit("nothing-here.svg", "--size", "16", "--out", "out", in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("no such file or folder: 'nothing-here.svg'"))
        let empty = try Self.rasterkit("empty", "--size", "16", "--out", "out", "--json", in: folder)
        #expect(empty.status == 2 && empty.stderr.contains("no .svg files in 'empty'"))
        #expect(try empty.json()["error"] as? String == "no .svg files in 'empty'")
        let outIsAFile = try Self.rasterkit("c.svg", "--size", "16", "--out", "a-file/out", in: folder)
        #expect(outIsAFile.status == 2 && outIsAFile.stderr.contains("cannot write to the output folder 'a-file/out'"))
        let noArguments = try Self.rasterkit("--size", "16", "--out", "out", in: folder)
        #expect(noArguments.status == 2)
        let noOut = try Self.rasterkit("c.svg", "--size", "16", in: folder)
        #expect(noOut.status == 2)
    }

    @Test func tintModeAndCacheOptions() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (tint, expected) in [("FF00FF", RGBA8(red: 255, green: 0, blue: 255, alpha: 255)),
                                 ("#00ff00", RGBA8(red: 0, green: 255, blue: 0, alpha: 255)),
                                 ("orange", RGBA8(red: 255, green: 165, blue: 0, alpha: 255))] {
            let run = try Self.rasterkit("icons/a.svg", "--size", "8", "--tint", tint, "--no-cache", "--out", tint, in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Self.image(folder.appendingPathComponent("\(tint)/a-8.png")).pixel(x: 4, y: 4) == expected)
        }
        // A 20×10 document with --mode aspect-fit leaves the top and bottom quarters empty.
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("wide.svg"))
        let fit = try Self.rasterkit("wide.svg", "--size", "20", "--mode", "aspect-fit", "--out", "fit", in: folder)
        #expect(fit.status == 0)
        let fitted = try Self.image(folder.appendingPathComponent("fit/wide-20.png"))
        #expect(fitted.pixel(x: 10, y: 2).alpha == 0 && fitted.pixel(x: 10, y: 10).alpha == 255)
        // ContentMode's own spelling, which the README once gave, means the same.
        let camel = try Self.rasterkit("wide.svg", "--size", "20", "--mode", "aspectFit", "--out", "camel", in: folder)
        #expect(camel.status == 0, "\(camel.stderr)")
        #expect(try Self.image(folder.appendingPathComponent("camel/wide-20.png")) == fitted)
        let misspelt = try Self.rasterkit("wide.svg", "--size", "20", "--tint", "bleu", "--out", "bleu", in: folder)
        #expect(misspelt.status == 2 && misspelt.stderr.contains("did you mean \"blue\""), "\(misspelt.stderr)")
        let stretched = try Self.rasterkit("wide.svg", "--size", "20", "--out", "stretch", in: folder)
        #expect(stretched.status == 0)
        #expect(try Self.image(folder.appendingPathComponent("stretch/wide-20.png")).pixel(x: 10, y: 2).alpha == 255)
        let cached = try Self.rasterkit("c.svg", "--size", "8", "--cache", "render-cache", "--out", "cached", in: folder)
        #expect(cached.status == 0, "\(cached.stderr)")
    }

    // MARK: Interruption and progress

    /// SVGs slow enough to draw (a large blur) that a run can be stopped half-way.
    static func slowIcons(_ count: Int, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let svg = """
                <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">
                <filter id="blur"><feGaussianBlur stdDeviation="6"/></filter>
                <g filter="url(#blur)"><circle cx="32" cy="32" r="\(10 + index % 20)" fill="#3366CC"/>
                <rect x="5" y="5" width="20" height="\(20 + index % 30)" fill="#CC3366"/></g></svg>
                """
            try Data(svg.utf8).write(to: folder.appendingPathComponent(String(format: "icon%03d.svg", index)))
        }
    }

    /// The hidden folder a run into the missing folder `name` builds it in (see `StagedFolder`).
    static func stagingFolder(for name: String, in parent: URL) -> URL? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        return names.first { $0.hasPrefix(".\(name).rasterkit-staging-") }.map { parent.appendingPathComponent($0) }
    }

    /// Killed mid-run: into an existing folder, every file there under a final name is whole;
    /// into a new one, the folder does not appear at all (its hidden staging folder is left).
    @Test(arguments: [true, false])
    func anInterruptedRunLeavesOnlyCompletePNGs(outExists: Bool) throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let total = 150
        try Self.slowIcons(total, in: folder.appendingPathComponent("slow"))
        let out = folder.appendingPathComponent("out")
        if outExists { try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false) }
        let (process, _, stderr) = try Self.start(["slow", "--size", "512", "--jobs", "2", "--out", "out"], in: folder)
        let started = Date()
        // Stop it the hard way (no chance to clean up) once it is well under way.
        while process.isRunning {
            let watched = outExists ? out : Self.stagingFolder(for: "out", in: folder)
            let pngs = watched.map { Self.files(in: $0).filter { $0.hasSuffix(".png") } } ?? []
            if pngs.count >= 4 && Date().timeIntervalSince(started) > 1.5 { break }
            if Date().timeIntervalSince(started) > 60 { break }
            usleep(20_000)
        }
        process.send(SIGKILL)
        #expect(process.waitUntilExit().reason == .uncaughtSignal, "the run finished before it could be interrupted")
        guard outExists else {
            #expect(!FileManager.default.fileExists(atPath: out.path), "a new folder appears whole or not at all")
            let staging = try #require(Self.stagingFolder(for: "out", in: folder))
            #expect(Self.files(in: staging).contains { $0.hasSuffix(".png") })
            return
        }

        let files = Self.files(in: out)
        let pngs = files.filter { $0.hasSuffix(".png") }
        #expect(pngs.count > 0 && pngs.count < total)
        for png in pngs {
            // Every file under a final name is a whole PNG.
            let image = try Self.image(out.appendingPathComponent(png))
            #expect(image.pixelWidth == 512 && image.pixelHeight == 512, "\(png)")
        }
        // Anything else is a hidden temporary file, never something with a final name.
        for other in files where !other.hasSuffix(".png") {
            #expect(other.hasPrefix(".") && other.hasSuffix(".tmp"), "\(other)")
        }
        // Not a terminal, so progress came as plain lines.
        let progress = String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
        #expect(progress.contains("/\(total)  ") && progress.contains("/s") && !progress.contains("\r"), "\(progress)")
    }

    @Test func aTerminalGetsAProgressBar() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.slowIcons(12, in: folder.appendingPathComponent("slow"))
        // `script` runs the command on a pseudo-terminal and copies what it shows to stdout.
        let (termination, output, _) = try ChildProcess.run(
            "/usr/bin/script", ["-qec", "'\(try CLI.binary().path)' svg slow --size 256 --jobs 1 --out out", "/dev/null"],
            environment: Self.environment(for: folder), in: folder.path)
        let shown = String(decoding: output, as: UTF8.self)
        #expect(termination == .success, "\(shown)")
        #expect(shown.contains("\r[") && shown.contains("] 12/12  "), "\(shown)")
        #expect(shown.contains("12 outputs in "))
    }
}

extension SVGCommandTests {
    static func rasterkit(arguments: [String], in folder: URL) throws -> Run {
        try CLI.run(["svg"] + arguments, in: folder, environment: environment(for: folder))
    }
}

extension SVGCommandTests {
    @Test func runningAgainLeavesUpToDateOutputsAlone() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["icons", "c.svg", "--size", "16", "--scale", "1", "--scale", "2", "--out", "out", "--json"]
        let first = try Self.rasterkit(arguments: arguments, in: folder)
        #expect(first.status == 0)
        #expect(try first.json()["drawn"] as? Int == 6)
        let second = try Self.rasterkit(arguments: arguments, in: folder)
        #expect(try second.json()["drawn"] as? Int == 0 && second.json()["cached"] as? Int == 6)
        try Self.square("black").write(to: folder.appendingPathComponent("c.svg"))
        let changed = try Self.rasterkit(arguments: arguments, in: folder)
        #expect(try changed.json()["drawn"] as? Int == 2 && changed.json()["cached"] as? Int == 4)
        #expect(try Self.image(folder.appendingPathComponent("out/c-16.png")).pixel(x: 8, y: 8)
            == RGBA8(red: 0, green: 0, blue: 0, alpha: 255))
        let forced = try Self.rasterkit(arguments: arguments + ["--no-cache"], in: folder)
        #expect(try forced.json()["drawn"] as? Int == 6)
    }
}

/// The default `--jobs` is the processors the process may use, which `taskset` narrows.
@Suite struct DefaultJobsCommandTests {
    @Test func theDefaultFollowsTheProcessorsTheProcessMayUse() throws {
        let folder = try TestScratch.folder("default-jobs")
        try SVGCommandTests.square("red").write(to: folder.appendingPathComponent("a.svg"))
        // util-linux, which Debian always installs.
        let taskset = URL(fileURLWithPath: "/usr/bin/taskset")
        try #require(FileManager.default.isExecutableFile(atPath: taskset.path))
        let line = ["svg", "a.svg", "--size", "8", "--out", "out", "--no-cache", "--jobs", "999"]
        let narrowed = try CLI.run(executable: taskset, ["-c", "0", try CLI.binary().path] + line, in: folder)
        #expect(narrowed.status == 2, "\(narrowed.stderr)")
        #expect(narrowed.stderr.contains("one per processor (1 here)"), "\(narrowed.stderr)")
    }
}
