import Foundation
import RasterKitTestSupport
import Testing
import RasterKit

/// End-to-end tests of `rasterkit render`, running the built binary.
@Suite struct RenderCommandTests {
    /// A temporary folder with a small manifest, an icon, and a render cache of its own.
    struct Workspace {
        let folder: URL

        init(manifest: String = Workspace.manifest) throws {
            folder = TestScratch.path("rasterkit-render")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
            try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect x="4" y="4" width="16" height="16"/></svg>"#.utf8)
                .write(to: folder.appendingPathComponent("icons/box.svg"))
            try write(manifest)
        }

        static let manifest = """
            name: Kit
            components:
              button:
                sizes: ["80x30"]
                scales: [1, 2]
                states:
                  normal: {fill: "#2F6FEB"}
                  pressed: {fill: "#1F54C4"}
                layers:
                  - roundedRect: {inset: 1, radius: 8, fill: "$fill"}
                  - text: {text: Go, color: white, alignment: center, verticalAlignment: center}
              panel:
                sizes: [{width: 60, height: 40, caps: 8}]
                scales: [1, 2]
                outputs: [png, xcassets, ninepatch]
                layers: [roundedRect: {inset: 0.5, radius: 6, fill: white, stroke: "#E2E8F0"}]
            svgs:
              - {input: icons, sizes: [16], scales: [1, 2], tint: "#0F172A", out: icons}
            """

        func write(_ manifest: String, to name: String = "manifest.yaml") throws {
            try Data(manifest.utf8).write(to: folder.appendingPathComponent(name))
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        var manifest: String { path("manifest.yaml") }

        /// Gives the manifest a time ahead of the clock: as far as its times tell, it changed
        /// within the file system's last tick, so a run of it leaves no record.
        func makeManifestTooFreshToRecord() {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            var times = [timespec(tv_sec: now.tv_sec + 30, tv_nsec: 1), timespec(tv_sec: now.tv_sec + 30, tv_nsec: 1)]
            #expect(utimensat(AT_FDCWD, manifest, &times, 0) == 0)
        }
        var cache: String { path("renders.sqlite") }

        func files(_ name: String) -> [String] { RenderCommandTests.files(in: folder.appendingPathComponent(name)) }

        func remove() { try? FileManager.default.removeItem(at: folder) }

        /// `rasterkit render <manifest> --out <out> --cache <its cache> …`, with the default
        /// store kept inside the workspace too.
        func render(_ arguments: [String], out: String = "out", environment: [String: String] = [:]) throws -> CLI.Run {
            try CLI.run(["render", manifest, "--out", path(out)] + arguments,
                        environment: ["XDG_CACHE_HOME": path("xdg")].merging(environment) { $1 })
        }
    }

    /// Every regular file under `folder`, relative and sorted, without the batch's index and run record.
    static func files(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue, !path.hasSuffix(".rasterkit-index.tsv"), !path.hasSuffix(".rasterkit-render.tsv") { files.append(path) }
        }
        return files.sorted()
    }

    @Test func rendersEveryComponentStateSizeScaleAndSVG() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try workspace.render(["--cache", workspace.cache])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(workspace.files("out") == [
            "Kit.xcassets/Contents.json", "Kit.xcassets/panel-default.imageset/Contents.json",
            "Kit.xcassets/panel-default.imageset/panel-default.png", "Kit.xcassets/panel-default.imageset/panel-default@2x.png",
            "button-normal.png", "button-normal@2x.png", "button-pressed.png", "button-pressed@2x.png",
            "drawable-mdpi/panel_default.9.png", "drawable-xhdpi/panel_default.9.png",
            "icons/box-16.png", "icons/box-16@2x.png", "panel-default.png", "panel-default@2x.png",
        ])
        #expect(run.stdout.contains("12 outputs in ") && run.stdout.contains(", 0 failed"), "\(run.stdout)")
        let button = try RasterImage(pngData: Data(contentsOf: workspace.folder.appendingPathComponent("out/button-normal@2x.png")))
        #expect(button.pixelWidth == 160 && button.pixelHeight == 60 && button.scale == 2)
        #expect(button.pixel(x: 10, y: 30) == RGBA8(red: 0x2F, green: 0x6F, blue: 0xEB, alpha: 255))
    }

    @Test func jsonSummaryHasTheFieldsOfSVG() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try workspace.render(["--no-cache", "--json"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1)
        let json = try run.json()
        #expect(json["total"] as? Int == 12 && json["failed"] as? Int == 0)
        #expect((json["drawn"] as? Int ?? 0) + (json["cached"] as? Int ?? 0) == 12)
        #expect(json["seconds"] is Double && json["failures"] as? [Any] != nil)
        #expect(json["shard"] as? String == "0/1" && json["files"] as? Int == 2)
    }

    // MARK: Incremental runs

    @Test func aSecondRunDrawsNothingAndAChangedStateRedrawsOnlyItself() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let first = try workspace.render(["--cache", workspace.cache, "--json"])
        #expect(try first.json()["drawn"] as? Int == 8, "the panel is drawn once for its three formats")
        let second = try workspace.render(["--cache", workspace.cache, "--json"])
        #expect(try second.json()["drawn"] as? Int == 0 && second.json()["cached"] as? Int == 12)
        // Into a new folder, the renders come from the disk cache.
        let elsewhere = try workspace.render(["--cache", workspace.cache, "--json"], out: "out2")
        #expect(try elsewhere.json()["drawn"] as? Int == 0)

        try workspace.write(Workspace.manifest.replacingOccurrences(of: "#1F54C4", with: "#D93B3B"))
        let changed = try workspace.render(["--cache", workspace.cache, "--json"])
        #expect(try changed.json()["drawn"] as? Int == 2 && changed.json()["cached"] as? Int == 10)
        let pressed = try RasterImage(pngData: Data(contentsOf: workspace.folder.appendingPathComponent("out/button-pressed.png")))
        #expect(pressed.pixel(x: 5, y: 15) == RGBA8(red: 0xD9, green: 0x3B, blue: 0x3B, alpha: 255))
        // --no-cache renders everything again.
        let forced = try workspace.render(["--no-cache", "--json"])
        #expect(try forced.json()["cached"] as? Int ?? 99 < 12)
    }

    /// An unchanged manifest is known up to date from the record of the last run, without
    /// loading it; any change to an input or an output, or another format, goes back to loading
    /// it. (How much faster that is, is measured in Benchmarks/.)
    @Test func anUnchangedManifestIsKnownFromTheLastRunsRecord() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let record = workspace.path("out/.rasterkit-render.tsv")
        let arguments = ["--cache", workspace.cache, "--json"]
        // Inputs written before the process started are older than a tick of the file system's
        // clock (times with nanoseconds here), so even the first run can be recorded.
        let first = try workspace.render(arguments)
        #expect(try first.json()["total"] as? Int == 12 && first.json()["failed"] as? Int == 0)
        #expect(FileManager.default.fileExists(atPath: record))

        let settled = try workspace.render(arguments)
        #expect(try settled.json()["drawn"] as? Int == 0)
        #expect(FileManager.default.fileExists(atPath: record))
        let known = try workspace.render(arguments)
        #expect(try known.json()["drawn"] as? Int == 0 && known.json()["cached"] as? Int == 12)
        #expect(try known.json()["files"] as? Int == settled.json()["files"] as? Int)
        // Into a new folder, from the record the run left in the store: the same files, the same
        // report, and the new folder's own record.
        let fresh = try workspace.render(arguments, out: "fresh")
        #expect(try fresh.json()["drawn"] as? Int == 0 && fresh.json()["cached"] as? Int == 12)
        #expect(try fresh.json()["files"] as? Int == settled.json()["files"] as? Int)
        #expect(workspace.files("fresh") == workspace.files("out"))
        for file in workspace.files("out") {
            #expect(FileManager.default.contents(atPath: workspace.path("fresh/" + file))
                    == FileManager.default.contents(atPath: workspace.path("out/" + file)), "\(file) differs")
        }
        #expect(FileManager.default.fileExists(atPath: workspace.path("fresh/.rasterkit-render.tsv")))

        // A deleted output is made again, from the cache.
        try FileManager.default.removeItem(atPath: workspace.path("out/button-normal.png"))
        let repaired = try workspace.render(arguments)
        #expect(try repaired.json()["drawn"] as? Int == 0 && repaired.json()["total"] as? Int == 12)
        #expect(FileManager.default.fileExists(atPath: workspace.path("out/button-normal.png")))

        // A changed state loads the manifest and redraws that state; the record is not kept
        // while the manifest is too fresh to stamp (its time ahead of the clock says so here).
        try workspace.write(Workspace.manifest.replacingOccurrences(of: "#1F54C4", with: "#D93B3B"))
        workspace.makeManifestTooFreshToRecord()
        let changed = try workspace.render(arguments)
        #expect(try changed.json()["drawn"] as? Int == 2)
        #expect(!FileManager.default.fileExists(atPath: record))
        // Another format is another run.
        let other = try workspace.render(arguments + ["--format", "png"])
        #expect(try other.json()["total"] as? Int != 12)
    }

    // MARK: Formats, shards and the contact sheet

    @Test func formatReplacesEveryComponentsOutputs() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try workspace.render(["--no-cache", "--format", "ninepatch"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(workspace.files("out") == [
            "drawable-mdpi/button_normal.png", "drawable-mdpi/button_pressed.png", "drawable-mdpi/panel_default.9.png",
            "drawable-xhdpi/button_normal.png", "drawable-xhdpi/button_pressed.png", "drawable-xhdpi/panel_default.9.png",
            "icons/box-16.png", "icons/box-16@2x.png",
        ])
    }

    @Test(arguments: ["png", "xcassets", "ninepatch"])
    func shardsTogetherWriteTheFullRunExactlyOnce(format: String) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        #expect(try workspace.render(["--no-cache", "--format", format], out: "full").status == 0)
        let full = workspace.files("full")
        var union: [String: Data] = [:]
        for index in 0..<3 {
            // Half the shards by --shard, half as a Kubernetes Indexed Job names them.
            let arguments = index % 2 == 0 ? ["--shard", "\(index)/3"] : ["--shard-count", "3"]
            let run = try workspace.render(["--no-cache", "--format", format] + arguments, out: "shard\(index)",
                                           environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(run.status == 0, "\(run.stderr)")
            for file in workspace.files("shard\(index)") {
                #expect(union[file] == nil, "\(file) written by two shards")
                union[file] = try Data(contentsOf: workspace.folder.appendingPathComponent("shard\(index)/\(file)"))
            }
        }
        #expect(union.keys.sorted() == full)
        for file in full {
            #expect(union[file] == (try Data(contentsOf: workspace.folder.appendingPathComponent("full/\(file)"))), "\(file)")
        }
    }

    @Test func contactSheet() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try workspace.render(["--no-cache", "--contact-sheet", workspace.path("sheets/all.png")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Contact sheet: \(workspace.path("sheets/all.png"))"))
        let sheet = try RasterImage(pngData: Data(contentsOf: workspace.folder.appendingPathComponent("sheets/all.png")))
        #expect(sheet.pixelWidth == 2_800 && sheet.pixelHeight > 300)
    }

    // MARK: Mistakes

    @Test func manifestProblemsArePrintedWithPositionsAndNothingIsWritten() throws {
        let workspace = try Workspace(manifest: """
            components:
              button:
                sizes: ["80x30"]
                layers:
                  - roundedRect: {radius: 8, fil: "#2F6FEB"}
                  - use: {component: button}
                  - svg: {file: icons/missing.svg}
            """)
        defer { workspace.remove() }
        let run = try workspace.render(["--no-cache"])
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            workspace.manifest + #":5:34: unknown key "fil" in roundedRect (did you mean "fill"?); expected frame, inset, opacity, blendMode, visible, fill, fillRule, stroke, shadow, innerShadow, radius"#,
            workspace.manifest + ":6:26: cyclic use: button → button; a component cannot contain itself",
            workspace.manifest + ":7:21: file in svg: cannot read 'icons/missing.svg': No such file or directory",
            "rasterkit render: 3 problems in the manifest; nothing was written",
        ])
        #expect(!FileManager.default.fileExists(atPath: workspace.path("out")), "not even the output folder")

        // With a store that does not exist yet, it is not created either.
        let withStore = try workspace.render(["--cache", workspace.path("new.sqlite")])
        #expect(withStore.status == 2 && !FileManager.default.fileExists(atPath: workspace.path("new.sqlite")))

        let json = try workspace.render(["--no-cache", "--json"])
        #expect(json.status == 2)
        let problems = try #require(try json.json()["problems"] as? [[String: Any]])
        #expect(problems.count == 3 && problems[1]["line"] as? Int == 6 && problems[1]["column"] as? Int == 26)
    }

    @Test(arguments: [
        ["--shard", "4/4"], ["--shard", "a/b"], ["--shard", "1"], ["--shard-count", "0"], ["--shard-count", "-2"],
        ["--shard", "0/2", "--shard-count", "2"], ["--jobs", "0"], ["--jobs", "257"], ["--cache", "x.sqlite", "--no-cache"],
        ["--format", "gif"], ["--shard-count", "2"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try workspace.render(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(!run.stderr.isEmpty)
        #expect(workspace.files("out").isEmpty)
    }

    /// A store path whose folder is missing, or that is a folder, is refused before anything renders.
    @Test(arguments: [("no/such/renders.sqlite", "no/such does not exist"), ("/", "is a folder"),
                      ("icons", "is a folder"), ("icons/", "is a folder"), ("/no-such-folder/x.sqlite", "/no-such-folder does not exist")])
    func unusableStorePathsExitTwo(path: String, message: String) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try CLI.run(["render", workspace.manifest, "--out", workspace.path("out"), "--cache", path], in: workspace.folder)
        #expect(run.status == 2 && run.stderr.contains(message), "\(path): \(run.stderr)")
        #expect(workspace.files("out").isEmpty)
    }

    @Test(arguments: [("3", "out of range"), ("-1", "out of range"), ("one", "not a whole number")])
    func jobCompletionIndexMustFitTheShardCount(index: String, message: String) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let run = try workspace.render(["--shard-count", "3"], environment: ["JOB_COMPLETION_INDEX": index])
        #expect(run.status == 2 && run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func unusableOutputFoldersAndManifestsExitTwo() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Data("x".utf8).write(to: workspace.folder.appendingPathComponent("a-file"))
        let blocked = try workspace.render(["--no-cache"], out: "a-file/out")
        #expect(blocked.status == 2 && blocked.stderr.contains("cannot write to the output folder"), "\(blocked.stderr)")
        let missing = try CLI.run(["render", workspace.path("nothing.yaml"), "--out", workspace.path("out")])
        #expect(missing.status == 2 && missing.stderr.contains("nothing.yaml:1:1: cannot read the manifest: No such file or directory"))
        try workspace.write("", to: "empty.yaml")
        let empty = try CLI.run(["render", workspace.path("empty.yaml"), "--out", workspace.path("out")])
        #expect(empty.status == 2 && empty.stderr.contains("the manifest is empty"))
    }

    @Test func failedOutputsExitOneWhileTheOthersAreWritten() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Data("<svg".utf8).write(to: workspace.folder.appendingPathComponent("icons/broken.svg"))
        let run = try workspace.render(["--no-cache", "--json"])
        #expect(run.status == 1)
        let json = try run.json()
        #expect(json["failed"] as? Int == 2 && json["total"] as? Int == 14)
        #expect(workspace.files("out").contains("icons/box-16@2x.png"))
        #expect(!workspace.files("out").contains("icons/broken-16.png"))
    }

    // MARK: Interruption

    /// Killed mid-run: into an existing folder, every file there under a final name is whole;
    /// into a new one, the folder does not appear at all (its hidden staging folder is left).
    @Test(arguments: [true, false])
    func anInterruptedRunLeavesOnlyCompleteFiles(outExists: Bool) throws {
        let states = (0..<150).map { "s\($0): {blur: \(20 + $0 % 10)}" }.joined(separator: ", ")
        let workspace = try Workspace(manifest: """
            components:
              slow:
                sizes: ["400x400"]
                scales: [2]
                states: {\(states)}
                layers: [rect: {inset: 60, fill: "#2F6FEB", shadow: {blur: "$blur"}}]
            """)
        defer { workspace.remove() }
        let out = workspace.folder.appendingPathComponent("out")
        if outExists { try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false) }
        let process = try ChildProcess(try CLI.binary().path, ["render", workspace.manifest, "--out", out.path, "--no-cache", "--jobs", "2"],
                                       output: .null, error: .null)
        let started = Date()
        while process.isRunning {
            let watched = outExists ? out : SVGCommandTests.stagingFolder(for: "out", in: workspace.folder)
            let pngs = watched.map { SVGCommandTests.files(in: $0).filter { $0.hasSuffix(".png") } } ?? []
            if pngs.count >= 3 && Date().timeIntervalSince(started) > 1 { break }
            if Date().timeIntervalSince(started) > 60 { break }
            usleep(20_000)
        }
        process.send(SIGKILL)
        #expect(process.waitUntilExit().reason == .uncaughtSignal, "the run finished before it could be interrupted")
        guard outExists else {
            #expect(!FileManager.default.fileExists(atPath: out.path), "a new folder appears whole or not at all")
            let staging = try #require(SVGCommandTests.stagingFolder(for: "out", in: workspace.folder))
            #expect(SVGCommandTests.files(in: staging).contains { $0.hasSuffix(".png") })
            return
        }
        let files = workspace.files("out")
        let pngs = files.filter { $0.hasSuffix(".png") }
        #expect(pngs.count > 0 && pngs.count < 150)
        for png in pngs {
            let image = try RasterImage(pngData: Data(contentsOf: workspace.folder.appendingPathComponent("out/\(png)")))
            #expect(image.pixelWidth == 800, "\(png) is whole")
        }
        for other in files where !other.hasSuffix(".png") {
            #expect(other.hasPrefix(".") && other.hasSuffix(".tmp"), "only hidden temporary files besides PNGs: \(other)")
        }
    }
}

/// `--font-dir` on `render` and `svg`.
@Suite struct FontDirectoryOptionTests {
    @Test func aFontFolderIsUsedKeyedAndCheckedUpFront() throws {
        let folder = TestScratch.path("rasterkit-fonts")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                                         toPath: folder.appendingPathComponent("fonts/Sans.ttf").path)
        let manifest = folder.appendingPathComponent("m.yaml")
        try Data("""
            components:
              c:
                sizes: ["120x30"]
                layers: [text: {text: Hamburgefonstiv, font: Noto Sans 16}]
            """.utf8).write(to: manifest)
        let store = folder.appendingPathComponent("store.sqlite").path
        let plain = try CLI.run(["render", manifest.path, "--out", folder.appendingPathComponent("a").path, "--cache", store])
        let fonted = try CLI.run(["render", manifest.path, "--out", folder.appendingPathComponent("b").path, "--cache", store,
                                  "--font-dir", folder.appendingPathComponent("fonts").path])
        #expect(plain.status == 0 && fonted.status == 0)
        #expect(fonted.stdout.contains("1 rendered"))   // another key: not served from the store
        let a = try Data(contentsOf: folder.appendingPathComponent("a/c-default.png"))
        let b = try Data(contentsOf: folder.appendingPathComponent("b/c-default.png"))
        #expect(a != b)
        let missing = try CLI.run(["render", manifest.path, "--out", folder.appendingPathComponent("c").path,
                                   "--font-dir", folder.appendingPathComponent("nowhere").path])
        #expect(missing.status == 2 && missing.stderr.contains("--font-dir"))
        let svgMissing = try CLI.run(["svg", manifest.path, "--out", folder.appendingPathComponent("d").path, "--sizes", "24",
                                      "--font-dir", ""])
        #expect(svgMissing.status == 2)
    }
}
