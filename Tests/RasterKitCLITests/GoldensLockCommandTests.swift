import Foundation
import RasterKit
import RasterKitDiff
import RasterKitTestSupport
import Testing

/// `rasterkit goldens check --lock`: goldens kept as a lockfile of state keys and pixel digests,
/// their PNGs in a loopback nginx, drawn only when their key changed.
@Suite struct GoldensLockCommandTests {
    typealias Project = GoldensCheckCommandTests.Project

    /// `rasterkit goldens check kit.yaml --lock goldens.lock.json`, with `remote` as the remote cache.
    static func check(_ project: Project, remote: String? = nil, ci: Bool = false, _ arguments: String...) throws -> CLI.Run {
        try CLI.run(["goldens", "check", "kit.yaml", "--lock", "goldens.lock.json", "--artifacts", "artifacts"]
                    + (remote.map { ["--remote-cache", $0] } ?? []) + arguments,
                    in: project.root,
                    environment: ["CI": ci ? "true" : "", "RASTERKIT_RECORD": "", "RASTERKIT_REMOTE_CACHE": ""])
    }

    static func lockfile(_ project: Project) throws -> GoldenLockfile {
        try GoldenLockfile(contentsOf: project.root.appendingPathComponent("goldens.lock.json"))
    }

    static func storedObjects(_ folder: URL) -> Int {
        (FileManager.default.enumerator(atPath: folder.appendingPathComponent("store").path)?.allObjects as? [String] ?? [])
            .filter { $0.hasPrefix("goldens/") && !$0.hasSuffix("/") && $0.split(separator: "/").count == 3 }.count
    }

    @Test func recordSkipBreakFetchAcceptAndCheckCleanThroughNginx() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed: make deps")
        let project = try Project()
        let nginxFolder = project.root.appendingPathComponent("nginx")
        let (nginx, port) = try RemoteCacheCommandTests.startNginx(in: nginxFolder)
        defer { nginx.send(SIGKILL); nginx.waitUntilExit() }
        let remote = "http://127.0.0.1:\(port)/goldens"

        // Recording locks every golden and uploads its PNG; no golden file is written.
        let recording = try Self.check(project, remote: remote)
        #expect(recording.status == 1 && recording.stdout.contains("5 goldens locked (PNGs in \(remote))"), "\(recording.stderr)")
        #expect(try Self.lockfile(project).goldens.count == 5)
        #expect(Self.storedObjects(nginxFolder) == 5)
        #expect(!FileManager.default.fileExists(atPath: project.root.appendingPathComponent("Goldens").path))

        // Nothing changed: nothing is drawn.
        let clean = try Self.check(project, remote: remote, ci: true)
        #expect(clean.status == 0 && clean.stdout.contains("5 unchanged and not drawn, 0 drawn"), "\(clean.stdout)\(clean.stderr)")

        // One state breaks: only its outputs are drawn, and their goldens fetched to show the difference.
        try project.writeKit(chipColour: "#D93B3B")
        let broken = try Self.check(project, remote: remote, ci: true)
        #expect(broken.status == 1 && broken.stdout.contains("3 unchanged and not drawn, 2 drawn"), "\(broken.stdout)")
        #expect(broken.stderr.contains("Golden chip-normal differs: ") && broken.stderr.contains("largest change at"))
        let report = try GoldenReport(artifactsDirectory: project.artifacts)
        #expect(report.failures.map(\.identifier).sorted() == ["chip-normal", "chip-normal@2x"])
        #expect(report.failures.allSatisfy { $0.expected != nil && $0.diff != nil && $0.isAcceptable })
        #expect(report.failures.allSatisfy { $0.acceptCommand?.contains("--goldens") == false })

        // Accepted by glob: uploaded and locked; the next check draws nothing and passes.
        let before = try Self.lockfile(project)
        let accepted = try CLI.run(["goldens", "accept", "chip-normal*", "--artifacts", "artifacts"], in: project.root,
                                   environment: ["RASTERKIT_REMOTE_CACHE": ""])
        #expect(accepted.status == 0 && accepted.stdout.contains("PNG in \(remote)"), "\(accepted.stderr)")
        let after = try Self.lockfile(project)
        #expect(after.goldens["chip-normal"] != before.goldens["chip-normal"])
        #expect(after.goldens["dot-default"] == before.goldens["dot-default"])
        #expect(Self.storedObjects(nginxFolder) == 7)
        let rechecked = try Self.check(project, remote: remote, ci: true)
        #expect(rechecked.status == 0 && rechecked.stdout.contains("5 unchanged and not drawn, 0 drawn"), "\(rechecked.stderr)")
        #expect(try GoldenReport(artifactsDirectory: project.artifacts).failures.isEmpty)
    }

    @Test func theSamePixelsUnderANewKeyPassWithoutFetchingAndARecordingRunLocksTheKey() throws {
        let project = try Project()
        #expect(try Self.check(project).status == 1)   // locks, with no remote cache to store PNGs in
        // A transparent layer changes the chips' keys, not their pixels.
        let manifest = project.root.appendingPathComponent("kit.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "      - text: {text: Go", with: "      - rect: {fill: \"#00000000\"}\n      - text: {text: Go")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let ci = try Self.check(project, ci: true)
        #expect(ci.status == 0 && ci.stdout.contains("1 unchanged and not drawn, 4 drawn"), "\(ci.stdout)\(ci.stderr)")
        #expect(ci.stdout.contains("4 goldens drew the locked pixels under a new key"))
        let developer = try Self.check(project)
        #expect(developer.status == 0, "\(developer.stderr)")
        #expect(try Self.check(project, ci: true).stdout.contains("5 unchanged and not drawn, 0 drawn"))
    }

    @Test func fiveHundredGoldensWithOneChangedComponentDrawOnlyThatComponent() throws {
        let project = try Project()
        func write(changed: Bool) throws {
            var yaml = "name: Many\ncomponents:\n"
            for component in 0..<100 {
                yaml += "  c\(component):\n    sizes: [\"8x8\"]\n    states:\n"
                for state in 0..<5 { yaml += "      s\(state): {fill: \"#3366\(state)0\"}\n" }
                let dot = changed && component == 42 ? ", ellipse: {fill: \"#FFFFFF\"}" : ""
                yaml += "    layers: [rect: {fill: \"$fill\"}\(dot)]\n"
            }
            try yaml.write(to: project.root.appendingPathComponent("kit.yaml"), atomically: true, encoding: .utf8)
        }
        try write(changed: false)
        let recording = try Self.check(project)
        #expect(recording.stdout.contains("500 goldens locked"), "\(recording.stdout)\(recording.stderr)")
        try write(changed: true)
        let run = try Self.check(project, ci: true)
        #expect(run.stdout.contains("495 unchanged and not drawn, 5 drawn"), "\(run.stdout)")
        #expect(run.stdout.contains("495 passed, 5 failed"))
        // With no remote cache, a changed golden cannot be shown: the failure says why, and can be accepted.
        let report = try GoldenReport(artifactsDirectory: project.artifacts)
        #expect(Set(report.failures.map(\.identifier)) == Set((0..<5).map { "c42-s\($0)" }))
        #expect(report.failures.allSatisfy { $0.kind == .unreadable && $0.isAcceptable })
        #expect(run.stderr.contains("the pixels differ from the locked ones"))
    }

    @Test func badLockInputIsRefusedAndNothingOutsideIsWritten() throws {
        let project = try Project()
        let both = try CLI.run(["goldens", "check", "kit.yaml", "--lock", "l.json", "--goldens", "G"], in: project.root)
        #expect(both.status == 2 && both.stderr.contains("give --goldens or --lock, not both"))
        let inArtifacts = try CLI.run(["goldens", "check", "kit.yaml", "--lock", "artifacts/l.json", "--artifacts", "artifacts"],
                                      in: project.root)
        #expect(inArtifacts.status == 2 && inArtifacts.stderr.contains("inside the artifacts folder"))
        let garbage = project.root.appendingPathComponent("goldens.lock.json")
        try Data("{\"format\": 1, \"goldens\": 3}".utf8).write(to: garbage)
        let unreadable = try Self.check(project)
        #expect(unreadable.status == 2 && unreadable.stderr.contains("golden lockfile") && unreadable.stderr.contains("not a golden lockfile"))
        #expect(try Data(contentsOf: garbage) == Data("{\"format\": 1, \"goldens\": 3}".utf8))
    }

    @Test func acceptRefusesALockfileTheArtifactsRedirect() throws {
        let project = try Project()
        #expect(try Self.check(project).status == 1)
        try project.writeKit(chipColour: "#D93B3B")
        #expect(try Self.check(project, ci: true, "--only", "chip-normal").status == 1)
        let result = project.artifacts.appendingPathComponent("goldens.chip-normal/result.json")
        let original = try String(contentsOf: result, encoding: .utf8)
        let lockPath = project.root.appendingPathComponent("goldens.lock.json").path
        let accept = ["goldens", "accept", "chip-normal", "--artifacts", "artifacts", "--dry-run"]

        // Another file (not a lockfile) named as the lockfile: refused, and left as it was.
        let victim = project.root.appendingPathComponent("kit.yaml")
        let victimBytes = try Data(contentsOf: victim)
        try original.replacingOccurrences(of: lockPath.replacingOccurrences(of: "/", with: "\\/"),
                                          with: victim.path.replacingOccurrences(of: "/", with: "\\/"))
            .write(to: result, atomically: true, encoding: .utf8)
        let refused = try CLI.run(Array(accept.dropLast()), in: project.root)
        #expect(refused.status == 1 && refused.stderr.contains("not a golden lockfile"), "\(refused.stderr)")
        #expect(try Data(contentsOf: victim) == victimBytes)

        // A lockfile that does not exist is not created, unless --lock names it.
        try original.replacingOccurrences(of: lockPath.replacingOccurrences(of: "/", with: "\\/"),
                                          with: "\\/tmp\\/elsewhere-\(UUID().uuidString).json")
            .write(to: result, atomically: true, encoding: .utf8)
        let absent = try CLI.run(Array(accept.dropLast()), in: project.root)
        #expect(absent.status == 1 && absent.stderr.contains("name it with --lock"), "\(absent.stderr)")
        let pinned = try CLI.run(Array(accept.dropLast()) + ["--lock", "goldens.lock.json"], in: project.root)
        #expect(pinned.status == 1 && pinned.stderr.contains("is not goldens.lock.json"), "\(pinned.stderr)")

        // The untouched artifacts are accepted into their lockfile.
        try original.write(to: result, atomically: true, encoding: .utf8)
        #expect(try CLI.run(accept, in: project.root).stdout.contains("would accept chip-normal"))
        let done = try CLI.run(Array(accept.dropLast()) + ["--lock", "goldens.lock.json"], in: project.root)
        #expect(done.status == 0 && done.stdout.contains("PNG stored nowhere"), "\(done.stderr)")
        #expect(try Self.check(project, ci: true, "--only", "chip-normal").stdout.contains("1 unchanged and not drawn"))
    }
}
