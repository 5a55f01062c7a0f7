import Foundation
import RasterKit
import RasterKitTestSupport
import Testing

/// A component for filling stores from the CLI tests.
struct CachedTile: Rasterizable {
    var number: Int
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(rect: Rect(size: size)), with: .color(Color(red: Double(number % 10) / 10, green: 0.5, blue: 0.2)))
    }
}

/// Another component type, so stats have two types to list.
struct CachedDot: Rasterizable {
    var number: Int
    func draw(in canvas: Canvas, size: Size) throws {
        canvas.fill(Path(ellipseIn: Rect(size: size)), with: .color(.black))
    }
}

/// End-to-end tests of `rasterkit cache stats|prune|clear`, running the built binary.
@Suite struct CacheCommandTests {
    typealias Run = CLI.Run

    func rasterkit(_ arguments: String..., environment: [String: String] = [:]) throws -> Run {
        try CLI.run(arguments, environment: environment)
    }

    /// A store with three tiles and two dots; `shortLived` of the tiles expire at once.
    func makeStore(in directory: TemporaryDirectory, shortLived: Int = 0) throws -> String {
        let path = directory.path("renders.sqlite")
        let disk = try DiskCache(at: URL(fileURLWithPath: path))
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for number in 0..<3 {
            let tile = CachedTile(number: number)
            let image = try rasterizer.image(for: tile, size: Size(width: 8, height: 8))
            if number < shortLived {
                disk.store(image, for: rasterizer.key(for: tile, size: Size(width: 8, height: 8)), lifetime: 0.001)
            }
        }
        for number in 0..<2 { _ = try rasterizer.image(for: CachedDot(number: number), size: Size(width: 8, height: 8)) }
        try disk.close()
        usleep(20_000)
        return path
    }

    @Test func statsReportsEntriesBytesAndTypes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let run = try rasterkit("cache", "stats", "--cache", path, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["entries"] as? Int == 5 && json["expired"] as? Int == 0 && json["path"] as? String == path)
        #expect((json["bytes"] as? Int ?? 0) > 0)
        let types = try #require(json["types"] as? [[String: Any]])
        #expect(Set(types.compactMap { $0["typeName"] as? String }) == ["RasterKitCLITests.CachedTile", "RasterKitCLITests.CachedDot"])
        #expect(types.first { $0["typeName"] as? String == "RasterKitCLITests.CachedTile" }?["count"] as? Int == 3)
        // Keys are sorted, so the output is stable.
        #expect(run.stdout.hasPrefix("{\"bytes\":"))

        let human = try rasterkit("cache", "stats", "--cache", path)
        #expect(human.status == 0 && human.stdout.contains("entries: 5") && human.stdout.contains("CachedTile: 3 entries"))
        // `stats` is the default subcommand.
        #expect(try rasterkit("cache", "--cache", path, "--json").json()["entries"] as? Int == 5)
    }

    @Test func pruneRemovesExpiredEntriesThenTheLeastRecentlyUsed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory, shortLived: 2)
        #expect(try rasterkit("cache", "stats", "--cache", path, "--json").json()["expired"] as? Int == 2)
        let everything = try rasterkit("cache", "prune", "--cache", path, "--json")
        #expect(everything.status == 0, "\(everything.stderr)")
        let pruned = try everything.json()
        #expect(pruned["expiredRemoved"] as? Int == 2 && pruned["evicted"] as? Int == 0 && pruned["removed"] as? Int == 2)
        #expect(pruned["entries"] as? Int == 3 && pruned["expired"] as? Int == 0)

        let limited = try rasterkit("cache", "prune", "--cache", path, "--byte-limit", "1", "--json").json()
        #expect(limited["evicted"] as? Int == 3 && limited["entries"] as? Int == 0 && limited["bytes"] as? Int == 0)
        let human = try rasterkit("cache", "prune", "--cache", path)
        #expect(human.status == 0 && human.stdout.contains("removed: 0 entries"))
    }

    @Test func clearRemovesEveryEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let cleared = try rasterkit("cache", "clear", "--cache", path, "--json")
        #expect(cleared.status == 0)
        #expect(try cleared.json()["removed"] as? Int == 5)
        #expect(try rasterkit("cache", "stats", "--cache", path, "--json").json()["entries"] as? Int == 0)
        #expect(try rasterkit("cache", "clear", "--cache", path).stdout.contains("removed: 0 entries"))
    }

    @Test func theDefaultStoreIsUnderXDGCacheHomeAndIsNotCreatedJustToBeLookedAt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try rasterkit("cache", "stats", "--json", environment: ["XDG_CACHE_HOME": directory.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["path"] as? String == directory.url.appendingPathComponent("rasterkit/renders.sqlite").path)
        #expect(json["entries"] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(try rasterkit("cache", "clear", environment: ["XDG_CACHE_HOME": directory.url.path]).status == 0)
    }

    @Test func aFileThatIsNotAStoreIsRefusedByEverySubcommandAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("renders.sqlite")
        let text = Data(String(repeating: "garbage ", count: 600).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        for subcommand in ["stats", "prune", "clear"] {
            let run = try rasterkit("cache", subcommand, "--cache", path)
            #expect(run.status == 2, "\(subcommand): \(run.stderr)")
            #expect(run.stderr.contains(path) && run.stderr.contains("not a RasterKit store"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["renders.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        let json = try rasterkit("cache", "stats", "--cache", path, "--json")
        #expect(try (json.json()["error"] as? String)?.contains("not a RasterKit store") == true)
    }

    @Test func statsOnlyReadsTheStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try rasterkit("cache", "stats", "--cache", path, "--json").json()["entries"] as? Int == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["renders.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // A damaged store is reported (exit 2), not moved aside or replaced.
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let damaged = try rasterkit("cache", "stats", "--cache", path)
        #expect(damaged.status == 2 && damaged.stderr.contains(path), "\(damaged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["renders.sqlite"])

        // A missing store reads as empty and says so; nothing is created.
        let missing = try rasterkit("cache", "stats", "--cache", directory.path("none.sqlite"), "--json")
        #expect(missing.status == 0)
        #expect(try missing.json()["missing"] as? Bool == true)
        #expect(try rasterkit("cache", "stats", "--cache", directory.path("none.sqlite")).stdout.contains("no store yet"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["renders.sqlite"])
    }

    @Test func clearDeletesTheStoreFilesEvenWhenDamaged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        let run = try rasterkit("cache", "clear", "--cache", path, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test func aSymlinkedWALIsRefusedClearlyAndNotFollowed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        try? FileManager.default.removeItem(atPath: path + "-wal")
        let victim = directory.path("victim.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: path + "-wal", withDestinationPath: victim)
        for subcommand in ["stats", "prune"] {
            let run = try rasterkit("cache", subcommand, "--cache", path)
            #expect(run.status == 2 && run.stderr.contains("symbolic link"), "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("keep".utf8))
        // `clear` removes the link along with the store, and nothing it points to.
        #expect(try rasterkit("cache", "clear", "--cache", path).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["victim.txt"])
    }

    @Test func unusableStoresAndBadFlagsExitTwo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let isDirectory = try rasterkit("cache", "stats", "--cache", directory.url.path)
        #expect(isDirectory.status == 2 && isDirectory.stderr.contains(directory.url.path) && isDirectory.stderr.contains("directory"))
        let asJSON = try rasterkit("cache", "clear", "--cache", directory.url.path, "--json")
        #expect(asJSON.status == 2)
        #expect(try (asJSON.json()["error"] as? String)?.contains("SQLite error 14") == true)
        let missing = try rasterkit("cache", "prune", "--cache", directory.path("no/such/renders.sqlite"))
        #expect(missing.status == 2 && missing.stderr.contains("does not exist"))
        #expect(try rasterkit("cache", "prune", "--byte-limit=-1").status == 2)
        #expect(try rasterkit("cache", "stats", "--cache", "").status == 2)
        #expect(try rasterkit("cache", "shrink").status == 2)
    }
}
