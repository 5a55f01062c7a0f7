import Foundation
import RasterKit
import RasterKitTestSupport
import Testing

/// End-to-end tests of `rasterkit cache remove`, running the built binary.
@Suite struct CacheRemoveCommandTests {
    typealias Run = CLI.Run
    let size = Size(width: 8, height: 8)

    func rasterkit(_ arguments: String...) throws -> Run { try CLI.run(arguments) }

    /// A store with three tiles and two dots, closed.
    func makeStore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("renders.sqlite")
        let disk = try DiskCache(at: URL(fileURLWithPath: path))
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for number in 0..<3 { _ = try rasterizer.image(for: CachedTile(number: number), size: size) }
        for number in 0..<2 { _ = try rasterizer.image(for: CachedDot(number: number), size: size) }
        try disk.close()
        return path
    }

    func entries(_ path: String) throws -> Int {
        try rasterkit("cache", "stats", "--cache", path, "--json").json()["entries"] as? Int ?? -1
    }

    @Test func removesOneType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let run = try rasterkit("cache", "remove", "--cache", path, "--type", "RasterKitCLITests.CachedDot", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect(json["removed"] as? Int == 2 && json["entries"] as? Int == 3)
        let human = try rasterkit("cache", "remove", "--cache", path, "--type", "RasterKitCLITests.CachedDot")
        #expect(human.status == 0 && human.stdout.contains("removed: 0 entries"), "\(human.stdout)")
    }

    /// `--type CachedTile` is the type `RasterKitCLITests.CachedTile`; a name that matches
    /// nothing says so, with the stored type it most likely meant.
    @Test func aTypeIsNamedWithoutItsModuleToo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let short = try rasterkit("cache", "remove", "--cache", path, "--type", "CachedTile", "--json")
        #expect(short.status == 0, "\(short.stderr)")
        #expect(try short.json()["removed"] as? Int == 3)
        let misspelt = try rasterkit("cache", "remove", "--cache", path, "--type", "CachedDto")
        #expect(misspelt.status == 0 && misspelt.stdout.contains("removed: 0 entries"), "\(misspelt.stdout)")
        #expect(misspelt.stderr.contains("no entries of type CachedDto (did you mean \"CachedDot\"?)"), "\(misspelt.stderr)")
        #expect(try entries(path) == 2)
    }

    @Test func removesOneKeyWhileAnotherProcessHasTheStoreOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let disk = try DiskCache(at: URL(fileURLWithPath: path))
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let key = rasterizer.key(for: CachedTile(number: 1), size: size)
        #expect(disk.contains(key))
        let run = try rasterkit("cache", "remove", "--cache", path, "--key", key.digest.uppercased(), "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.json()["removed"] as? Int == 1)
        #expect(!disk.contains(key))
        #expect(disk.contains(rasterizer.key(for: CachedTile(number: 2), size: size)))
        #expect(try rasterizer.render(RenderRequest(CachedTile(number: 1), size: size)).origin == .drawn)
        try disk.close()
        #expect(try rasterkit("cache", "remove", "--cache", path, "--key", key.digest, "--json").json()["removed"] as? Int == 1)
        #expect(try entries(path) == 4)
    }

    @Test func removesEntriesOlderThanADuration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        #expect(try rasterkit("cache", "remove", "--cache", path, "--older-than", "1h", "--json").json()["removed"] as? Int == 0)
        #expect(try rasterkit("cache", "remove", "--cache", path, "--older-than", "2.5d", "--json").json()["removed"] as? Int == 0)
        usleep(50_000)
        let run = try rasterkit("cache", "remove", "--cache", path, "--older-than", "0.01s", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.json()["removed"] as? Int == 5)
        #expect(try entries(path) == 0)
    }

    @Test func aMissingStoreIsNotCreated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try rasterkit("cache", "remove", "--cache", directory.path("none.sqlite"), "--type", "A.B", "--json")
        #expect(try run.status == 0 && run.json()["removed"] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test(arguments: [
        (["--older-than", "abc"], "not a duration"),
        (["--older-than=-5m"], "not a duration"),
        (["--older-than", "1e3"], "not a duration"),
        (["--older-than", "nan"], "not a duration"),
        (["--older-than", "inf"], "not a duration"),
        (["--older-than", "5x"], "not a duration"),
        (["--older-than", ""], "not a duration"),
        (["--older-than", "h"], "not a duration"),
        (["--older-than", "1.2.3s"], "not a duration"),
        (["--older-than", String(repeating: "9", count: 400) + "w"], "not a duration"),
        (["--key", "zz"], "not a cache key digest"),
        (["--key", String(repeating: "0", count: 31)], "not a cache key digest"),
        (["--key", String(repeating: "g", count: 32)], "not a cache key digest"),
        (["--key", "+" + String(repeating: "0", count: 31)], "not a cache key digest"),
        (["--type", ""], "must name a component type"),
        ([], "give one of"),
        (["--type", "A", "--key", String(repeating: "0", count: 32)], "cannot be used together"),
        (["--older-than", "1h", "--type", "A"], "cannot be used together"),
    ])
    func badValuesAreUsageErrorsThatTouchNothing(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = try CLI.run(["cache", "remove", "--cache", path] + arguments)
        #expect(run.status != 0 && run.status != 1, "\(arguments): \(run.stdout)")
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
