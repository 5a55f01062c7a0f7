import Foundation
import Testing
@testable import RasterKit
import RasterKitTestSupport

/// Stores that are damaged, foreign, newer, or in places that cannot be written, and writes that
/// fail: rendering always goes on.
@Suite struct DiskCacheRecoveryTests {
    static let isRoot = geteuid() == 0

    /// Opens `fixture`'s store and checks that the file was moved aside, with a warning, that the
    /// moved file holds what was there, and that the fresh store works.
    func expectMovedAside(_ fixture: DiskFixture, original: Data, reason: String) throws {
        let disk = try fixture.open()
        let aside = fixture.files.filter { $0.hasPrefix("renders.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(aside.count == 1, "\(fixture.files)")
        if let name = aside.first {
            #expect(try Data(contentsOf: fixture.directory.appendingPathComponent(name)) == original)
        }
        #expect(fixture.log.warnings.count == 1)
        #expect(fixture.log.warnings.first.map { $0.contains("moved") && $0.contains(reason) } == true, "\(fixture.log.warnings)")
        let component = Counted(label: "after recovery", draws: Counter())
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try rasterizer.render(RenderRequest(component, size: Size(4))).origin == .drawn)
        try disk.flush()
        #expect(disk.contains(rasterizer.key(for: component, size: Size(4))))
    }

    /// Writes a store with a few entries and closes it, its WAL folded into the file.
    func makeStore(_ fixture: DiskFixture, entries: Int = 40) throws {
        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for index in 0..<entries { _ = try rasterizer.image(for: Counted(label: "e\(index)", draws: Counter()), size: Size(16)) }
        try disk.close()
        let queue = try StoreFile(path: fixture.url.path)
        try queue.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        queue.close()
    }

    /// Opening `fixture`'s store is refused with a typed error naming the file, and the
    /// directory is exactly as it was: nothing moved, created or written.
    func expectRefused(_ fixture: DiskFixture, original: Data) throws {
        let before = fixture.files
        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect(error.isNotAStore && error.operation == .open && error.path == fixture.url.path, "\(error)")
        #expect(error.description.contains(fixture.url.path) && error.description.contains("not a RasterKit store"))
        #expect(fixture.files == before)
        #expect(try Data(contentsOf: fixture.url) == original)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let garbage = Data(String(repeating: "not a database, just text. ", count: 400).utf8)
        try garbage.write(to: fixture.url)
        try expectRefused(fixture, original: garbage)
        // Every run is refused the same way, and leaves nothing behind.
        try expectRefused(fixture, original: garbage)
    }

    @Test func aCopyOfThePasswordFileIsRefusedAndLeftAlone() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let passwd = (try? Data(contentsOf: URL(fileURLWithPath: "/etc/passwd")))
            ?? Data("root:x:0:0:root:/root:/bin/bash\n".utf8)
        try passwd.write(to: fixture.url)
        try expectRefused(fixture, original: passwd)
        #expect(throws: DiskCacheError.self) { try DiskCache.contents(at: fixture.url) }
        #expect(throws: DiskCacheError.self) { try DiskCache.deleteStore(at: fixture.url) }
        #expect(try Data(contentsOf: fixture.url) == passwd)
    }

    @Test func aStoreWhoseMagicIsGarbledButWasOursIsMovedAside() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        var bytes = try Data(contentsOf: fixture.url)
        bytes.replaceSubrange(0..<16, with: Data(repeating: 0x5A, count: 16))
        try bytes.write(to: fixture.url)
        try expectMovedAside(fixture, original: bytes, reason: "damaged")
    }

    /// The public initializer takes the caller's logger, and the warning goes there.
    @Test func warningsGoToTheLoggerTheCallerGives() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        var bytes = try Data(contentsOf: fixture.url)
        bytes.replaceSubrange(0..<16, with: Data(repeating: 0x5A, count: 16))
        try bytes.write(to: fixture.url)
        let theirs = LogCapture()
        let disk = try DiskCache(at: fixture.url, logger: theirs.logger)
        #expect(theirs.warnings.count == 1 && theirs.warnings[0].contains("corrupt"), "\(theirs.warnings)")
        #expect(fixture.log.warnings.isEmpty)
        try disk.close()
    }

    @Test func aTruncatedDatabaseIsMovedAside() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture)
        let whole = try Data(contentsOf: fixture.url)
        #expect(whole.count > 8 * 4096)
        let truncated = whole.prefix(whole.count / 2)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.url.path + suffix) }
        try truncated.write(to: fixture.url)
        try expectMovedAside(fixture, original: truncated, reason: "damaged")
    }

    /// Opening reads the header and schema only (a whole-file check cost seconds per run on large
    /// stores), so damage inside the file is met by the lookups that read it: each is a miss or a
    /// checksum failure, and every render still succeeds with the right pixels.
    @Test func damageInsideTheFileCostsLookupsNotRenders() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let entries = 120
        try makeStore(fixture, entries: entries)
        var file = try Data(contentsOf: fixture.url)
        let pageSize = 4096
        let pages = file.count / pageSize
        #expect(pages >= 16)
        // Every other page after the schema's, overwritten: b-tree pages and blobs alike.
        for page in stride(from: 4, to: pages - 1, by: 2) {
            file.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: Data(repeating: 0xA5, count: pageSize))
        }
        try file.write(to: fixture.url)

        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        var fromDisk = 0
        for index in 0..<entries {
            let component = Counted(label: "e\(index)", draws: Counter())
            let rendered = try rasterizer.render(RenderRequest(component, size: Size(16)))
            if rendered.origin == .disk { fromDisk += 1 }
            #expect(rendered.image.pixel(x: 8, y: 8) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        }
        #expect(fromDisk < entries)
        try? disk.close()
    }

    @Test func aDatabaseWithAForeignSchemaIsRefusedAndLeftAlone() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction { db in
            try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')")
        }
        queue.close()
        try expectRefused(fixture, original: try Data(contentsOf: fixture.url))
    }

    @Test func aDatabaseWithAnotherApplicationIDIsRefusedAndLeftAlone() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let queue = try StoreFile(path: fixture.url.path)
        try queue.execute("PRAGMA application_id = 1234; CREATE TABLE t (x)")
        queue.close()
        try expectRefused(fixture, original: try Data(contentsOf: fixture.url))
    }

    @Test func aStoreWithANewerSchemaIsMovedAside() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction { try $0.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        try queue.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        queue.close()
        try expectMovedAside(fixture, original: try Data(contentsOf: fixture.url), reason: "newer RasterKit")
    }

    @Test func aStoreWhoseTableLacksColumnsIsMovedAside() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        let queue = try StoreFile(path: fixture.url.path)
        try queue.execute("ALTER TABLE entries DROP COLUMN children; PRAGMA wal_checkpoint(TRUNCATE)")
        queue.close()
        try expectMovedAside(fixture, original: try Data(contentsOf: fixture.url), reason: "schema is not a store's")
    }

    /// Issue 46: a store file someone handed over (a CI cache restored from another branch)
    /// whose schema defines anything of its own — a trigger, a generated column, a view, an
    /// index on an expression, a table — is moved aside before a statement touches it, so
    /// nothing it defines is ever evaluated.
    @Test(arguments: [
        "CREATE TRIGGER noisy AFTER INSERT ON entries BEGIN SELECT zeroblob(1000000000); END",
        "ALTER TABLE entries ADD COLUMN huge BLOB GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL",
        "ALTER TABLE entries ADD COLUMN later BLOB DEFAULT x'00'",
        "CREATE VIEW everything AS SELECT * FROM entries",
        "CREATE INDEX entries_by_png ON entries (length(png))",
        "CREATE TABLE extra (x)",
        "DROP TRIGGER entries_forget_access_time",
    ])
    func aStoreWithASchemaOfItsOwnIsMovedAsideUnused(statement: String) throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        let queue = try StoreFile(path: fixture.url.path)
        try queue.execute("\(statement); PRAGMA wal_checkpoint(TRUNCATE)")
        queue.close()
        try expectMovedAside(fixture, original: try Data(contentsOf: fixture.url), reason: "schema is not a store's")
    }

    /// SQLite's statistics tables (`ANALYZE`) are its own: a store with them is used as it is.
    @Test func aStoreWithStatisticsIsUsed() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        let queue = try StoreFile(path: fixture.url.path)
        try queue.execute("ANALYZE; PRAGMA wal_checkpoint(TRUNCATE)")
        queue.close()
        let disk = try fixture.open()
        #expect(try disk.statistics.count == 2)
        #expect(fixture.log.warnings.isEmpty)
        try disk.close()
    }

    /// The schema a store is checked against is the one a store made by the migrations has.
    @Test func theCheckedSchemaIsTheMigratedSchema() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 1)
        let schema = try DiskCacheSchema.schema(try SQLiteConnection(fixture.url.path, mode: .readOnly, busyTimeout: 5))
        #expect(schema == (try DiskCacheSchema.referenceSchema(upTo: DiskCacheSchema.migrationOrder.last)))
        #expect(schema.contains { $0.type == "trigger" } && schema.contains { $0.type == "index" })
    }

    /// A store that has every migration opens without the migrator; one a migration behind
    /// (its last one undone, as an older build would have left it) gets it applied on open.
    @Test func onlyAStoreBehindIsMigratedOnOpen() throws {
        let order = DiskCacheSchema.migrationOrder
        let complete = DiskCacheSchema.Layout(applicationID: DiskCacheSchema.applicationID,
                                              schema: try DiskCacheSchema.referenceSchema(upTo: order.last),
                                              appliedMigrations: Set(order))
        #expect(try DiskCacheSchema.check(complete))
        let behind = DiskCacheSchema.Layout(applicationID: DiskCacheSchema.applicationID,
                                            schema: try DiskCacheSchema.referenceSchema(upTo: order[order.count - 2]),
                                            appliedMigrations: Set(order.dropLast()))
        #expect(try !DiskCacheSchema.check(behind))
        // A migration recorded but its tables missing, or its tables there but not recorded.
        var unrecorded = complete
        unrecorded.appliedMigrations.remove(order.last!)
        #expect(throws: DiskCacheSchema.Damage.self) { try DiskCacheSchema.check(unrecorded) }
        var skipped = complete
        skipped.appliedMigrations.remove(order[1])
        #expect(throws: DiskCacheSchema.Damage.self) { try DiskCacheSchema.check(skipped) }
        var newer = complete
        newer.appliedMigrations.insert("v99-future")
        #expect(throws: DiskCacheSchema.Damage.self) { try DiskCacheSchema.check(newer) }

        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 2)
        try StoreFile(path: fixture.url.path).execute("""
            DROP TRIGGER entries_forget_access_time; DROP TABLE access_times;
            DELETE FROM grdb_migrations WHERE identifier = 'v5-access-times'
            """)
        let disk = try fixture.open()
        #expect(try disk.statistics.count == 2)
        try disk.close()
        let reopened = try SQLiteConnection(fixture.url.path, mode: .readOnly, busyTimeout: 5)
        #expect(try DiskCacheSchema.check(try DiskCacheSchema.layout(of: reopened)), "every migration applied")
        #expect(fixture.log.warnings.isEmpty)
    }

    /// Lookups alone write nothing, not even the writer's settings: the WAL stays empty, and
    /// closing keeps the WAL files (the last connection to close is a read-only one). A write
    /// afterwards goes through as usual.
    @Test func lookupsAloneWriteNothing() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try makeStore(fixture, entries: 3)
        let disk = try fixture.open()
        let draws = Counter()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for index in 0..<3 {
            #expect(try rasterizer.render(RenderRequest(Counted(label: "e\(index)", draws: draws), size: Size(16))).origin == .disk)
        }
        #expect(draws.count == 0)
        try disk.flush()
        try disk.close()
        #expect(fixture.files.contains("renders.sqlite-wal") && fixture.files.contains("renders.sqlite-shm"), "\(fixture.files)")
        let wal = try FileManager.default.attributesOfItem(atPath: fixture.url.path + "-wal")[.size] as? Int
        #expect(wal == 0, "nothing was written")

        let again = try fixture.open()
        let rendering = Rasterizer(cache: RasterCache(disk: again))
        #expect(try rendering.render(RenderRequest(Counted(label: "new", draws: draws), size: Size(16))).origin == .drawn)
        try again.flush()
        #expect(again.contains(rendering.key(for: Counted(label: "new", draws: draws), size: Size(16))))
        try again.close()
        try DiskCache.checkStoreFile(at: fixture.url)
    }

    @Test func anEmptyFileBecomesAStoreWithoutAWarning() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try Data().write(to: fixture.url)
        let disk = try fixture.open()
        #expect(try disk.statistics.count == 0)
        #expect(fixture.log.warnings.isEmpty && !fixture.files.contains { $0.contains("corrupt") })
    }

    @Test func anEntryWhosePNGDoesNotDecodeIsRemovedAndRedrawn() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let component = Counted(label: "damaged png", draws: Counter())
        do {
            let rasterizer = Rasterizer(cache: RasterCache(disk: try fixture.open()))
            _ = try rasterizer.image(for: component, size: Size(6))
            try rasterizer.cache.flush()
        }
        // Undecodable bytes with a checksum that matches them: what a bug in the encoder would store.
        let garbage = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF])
        let digest = Rasterizer().key(for: component, size: Size(6)).value
        let queue = try StoreFile(path: fixture.url.path)
        try queue.transaction {
            try $0.execute("UPDATE entries SET png = ?, checksum = ?",
                           [.blob(garbage), .integer(DiskCacheChecksum.of(digest: digest, png: garbage))])
        }
        queue.close()

        let disk = try fixture.open()
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        let rendered = try rasterizer.render(RenderRequest(component, size: Size(6)))
        #expect(rendered.origin == .drawn && component.draws.count == 2)
        #expect(rendered.image.pixel(x: 2, y: 2) == RGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(try disk.statistics.decodeFailures == 1)
        #expect(fixture.log.warnings.contains { $0.contains("does not decode") })
        try disk.flush()
        // The redraw replaced it: a new process is served from disk again.
        let later = Rasterizer(cache: RasterCache(disk: try fixture.open()))
        #expect(try later.render(RenderRequest(component, size: Size(6))).origin == .disk)
    }

    @Test func aPathThatIsADirectoryIsATypedError() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        try FileManager.default.createDirectory(at: fixture.url, withIntermediateDirectories: false)
        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect(error.resultCode == 14 && error.operation == .open && error.path == fixture.url.path)
        #expect(error.description.contains("directory") && error.description.contains(fixture.url.path))
        #expect(fixture.files == ["renders.sqlite"], "nothing moved or created")
    }

    @Test func aMissingDirectoryIsATypedErrorAndIsNotCreated() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        let url = fixture.directory.appendingPathComponent("missing/renders.sqlite")
        let error = try #require(throws: DiskCacheError.self) { _ = try DiskCache(at: url) }
        #expect(error.resultCode == 14 && error.message.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    }

    @Test func aPlaceThatCannotBeWrittenIsATypedError() throws {
        // procfs refuses new files even to root.
        let url = URL(fileURLWithPath: "/proc/rasterkit-\(UUID().uuidString).sqlite")
        let error = try #require(throws: DiskCacheError.self) { _ = try DiskCache(at: url) }
        #expect(error.operation == .open && error.path == url.path)
        #expect([3, 8, 14].contains(error.primaryResultCode), "\(error)")
    }

    @Test(.enabled(if: !isRoot, "root ignores directory permissions"))
    func aReadOnlyDirectoryIsATypedError() throws {
        let fixture = try DiskFixture()
        defer {
            chmod(fixture.directory.path, 0o755)
            fixture.remove()
        }
        chmod(fixture.directory.path, 0o555)
        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect([3, 8, 14].contains(error.primaryResultCode), "\(error)")
    }

    @Test(.enabled(if: !isRoot, "root ignores directory permissions"))
    func aDamagedStoreInAReadOnlyDirectoryCannotBeMovedAside() throws {
        let fixture = try DiskFixture()
        defer {
            chmod(fixture.directory.path, 0o755)
            fixture.remove()
        }
        try Data(String(repeating: "garbage ", count: 100).utf8).write(to: fixture.url)
        chmod(fixture.directory.path, 0o555)
        let error = try #require(throws: DiskCacheError.self) { _ = try fixture.open() }
        #expect(error.operation == .open || error.operation == .recover, "\(error)")
    }

    @Test func writesThatFailOnAFullDiskDoNotFailRenders() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        var options = fixture.options()
        options.maximumPageCount = 13   // enough for the schema, not for many entries
        let disk = try fixture.open(options: options)
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        for index in 0..<20 {
            let rendered = try rasterizer.render(RenderRequest(TinyNoise(seed: index), size: Size(32), scale: 2))
            #expect(rendered.origin == .drawn)
        }
        let error = try #require(throws: DiskCacheError.self) { try rasterizer.cache.flush() }
        #expect(error.primaryResultCode == 13 && error.operation == .write, "\(error)")
        #expect(try disk.statistics.writeFailures > 0)
        // One warning, however many batches failed (issue 24, finding 4).
        #expect(fixture.log.warnings.filter { $0.contains("cannot write") }.count == 1, "\(fixture.log.warnings)")
        // Still served from memory, and later renders still work.
        #expect(try rasterizer.render(RenderRequest(TinyNoise(seed: 0), size: Size(32), scale: 2)).origin == .memory)
        #expect(try rasterizer.render(RenderRequest(TinyNoise(seed: 99), size: Size(32), scale: 2)).origin == .drawn)
        try? rasterizer.cache.flush()
        #expect(try disk.statistics.pendingWrites == 0)
    }

    @Test func writesBlockedByAnotherWriterForTooLongDoNotFailRenders() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        var options = fixture.options()
        options.busyTimeout = 0.1
        let disk = try fixture.open(options: options)
        let other = try fixture.open()
        let locked = Counter(), unlocked = Counter()
        let release = Gate()
        // Another connection holds the write lock well past the busy timeout.
        Thread {
            try? other.store.writing { _ in
                locked.increment()
                release.pass()
            }
            unlocked.increment()
        }.start()
        #expect(Gate.wait { locked.count == 1 })
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try rasterizer.render(RenderRequest(Counted(label: "blocked", draws: Counter()), size: Size(4))).origin == .drawn)
        let error = try #require(throws: DiskCacheError.self) { try disk.flush() }
        #expect(error.primaryResultCode == 5, "\(error)")
        release.open()
        #expect(try disk.statistics.writeFailures == 1)
        // Both stores are closed before the directory goes.
        #expect(Gate.wait { unlocked.count == 1 })
        try other.close()
        try disk.close()
    }

    @Test func aBatchBlockedForLongerThanOneTimeoutIsTriedAgain() throws {
        let fixture = try DiskFixture()
        defer { fixture.remove() }
        var options = fixture.options()
        options.busyTimeout = 0.3
        let disk = try fixture.open(options: options)
        let other = try fixture.open()
        let locked = Counter(), unlocked = Counter()
        // Another connection holds the write lock past one busy timeout, but not past three.
        Thread {
            try? other.store.writing { _ in
                locked.increment()
                Thread.sleep(forTimeInterval: 0.45)
            }
            unlocked.increment()
        }.start()
        #expect(Gate.wait { locked.count == 1 })
        let rasterizer = Rasterizer(cache: RasterCache(disk: disk))
        #expect(try rasterizer.render(RenderRequest(Counted(label: "delayed", draws: Counter()), size: Size(4))).origin == .drawn)
        try disk.flush()
        #expect(try disk.statistics.writeFailures == 0)
        #expect(try disk.statistics.count == 1)
        #expect(Gate.wait { unlocked.count == 1 })
        try other.close()
        try disk.close()
    }
}

/// Noise that compresses badly, so a few renders fill a small store.
struct TinyNoise: Rasterizable {
    var seed: Int
    func draw(in canvas: Canvas, size: Size) throws {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        for y in stride(from: 0.0, to: size.height, by: 1) {
            for x in stride(from: 0.0, to: size.width, by: 1) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let value = Double(state % 1000) / 1000
                canvas.fill(Path(rect: Rect(x: x, y: y, width: 1, height: 1)),
                            with: .color(Color(red: value, green: 1 - value, blue: value / 2, alpha: 1)))
            }
        }
    }
}
